# The durable-mcp-host worker. Built by docker-compose.yml (`build: .`);
# see docs/docker.md.
#
# The worker runs TypeScript directly with tsx and bundles the workflows at
# start-up with @temporalio/worker's webpack + @swc/core, so there is no
# compile step: production dependencies (which include tsx and @swc/core)
# are all the image needs.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- deps: production node_modules only, from the lockfile ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false \
    MCP_CONFIG=/app/mcp.json
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json mcp.json ./
COPY src ./src
# Files stay root-owned (read-only to the app); the worker runs unprivileged
# as the image's `node` user (uid/gid 1000; numeric so that Kubernetes'
# runAsNonRoot can verify it). npx-launched MCP servers cache their packages
# under /home/node/.npm.
USER 1000:1000
CMD ["npm", "run", "worker"]
