# The durable-mcp-host worker. Built by docker-compose.yml (`build: .`); see docs/docker.md.
#
# Two stages: the build stage compiles src/ to dist/ and prebuilds the workflow bundle
# (`npm run build`), then drops the dev dependencies; the runtime stage runs the compiled worker
# with production dependencies only — no tsx, no TypeScript, no webpack run at start-up.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: all dependencies from the lockfile, compile, bundle, prune ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build && npm prune --omit=dev && npm cache clean --force

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
# The build id this image's worker registers with when MCP_HOST_DEPLOYMENT names a worker deployment
# (docs/upgrades.md): pass the commit, `--build-arg MCP_HOST_BUILD_ID=$(git rev-parse --short=12 HEAD)`;
# empty, the worker uses the package version (the image has no git).
ARG MCP_HOST_BUILD_ID=
WORKDIR /app
ENV MCP_HOST_BUILD_ID=${MCP_HOST_BUILD_ID} \
    NODE_ENV=production \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false \
    MCP_CONFIG=/app/mcp.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json mcp.json ./
COPY bin ./bin
# Files stay root-owned (read-only to the app); the worker runs unprivileged
# as the image's `node` user (uid/gid 1000; numeric so that Kubernetes'
# runAsNonRoot can verify it). npx-launched MCP servers cache their packages
# under /home/node/.npm.
USER 1000:1000
# Node itself as the command (not npm), so SIGTERM reaches the worker, which drains and exits.
CMD ["node", "dist/worker/main.js"]
