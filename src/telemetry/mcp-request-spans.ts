/**
 * A span for each request the MCP client sends, after the OpenTelemetry MCP conventions
 * (`{mcp.method.name} {target}`, kind client), and the trace context carried to the server in the
 * request's `_meta` as `traceparent`/`tracestate` (MCP 2026-07-28; `_meta` takes any such key in
 * the 2025 revisions too). The span ends with the answer: a JSON-RPC error sets `error.type` to its
 * code, a tool result with `isError` to `tool_error`; a connection that closes first ends what it
 * still waits for.
 *
 * Installed on a connection only when tracing is on in the process, and a request gets a span only
 * under an active one (a tool call's, a listing's): with tracing off the wire is untouched, and
 * background work (a probe at start-up) makes no stray root traces. The transport is wrapped as
 * src/mcp/tasks/*-edge.ts wrap it: its `send`, and its `onmessage` once the client has set it.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../mcp/config';
import { currentTracing, HOST_TRACER } from './tracing';

/** How many answers one connection waits for at most before the oldest spans are ended unanswered. */
const MAX_PENDING = 1000;

type RequestId = string | number;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the span is named after besides the method: the tool or prompt name, the resource URI. */
function targetOf(method: string, params: Record<string, unknown>): string | undefined {
  if ((method === 'tools/call' || method === 'prompts/get') && typeof params.name === 'string') return params.name;
  if ((method === 'resources/read' || method === 'resources/subscribe') && typeof params.uri === 'string') return params.uri;
  return undefined;
}

/** Where the server is: a process on a pipe, or a host and port over TCP. */
function networkAttributes(server: McpServerConfig): Record<string, string | number> {
  if (server.transport === 'stdio') return { 'network.transport': 'pipe' };
  try {
    const url = new URL(server.url);
    const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { 'network.transport': 'tcp', 'server.address': url.hostname, 'server.port': port };
  } catch {
    return { 'network.transport': 'tcp' };
  }
}

/** Ends `span` with the answer `message` carries. */
function endWithAnswer(span: Span, message: Record<string, unknown>): void {
  if (isObject(message.error)) {
    const code = typeof message.error.code === 'number' ? message.error.code : undefined;
    const type = code !== undefined ? String(code) : '_OTHER';
    span.setAttributes({ 'error.type': type, ...(code !== undefined ? { 'rpc.response.status_code': String(code) } : {}) });
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  } else if (isObject(message.result) && message.result.isError === true) {
    span.setAttribute('error.type', 'tool_error');
  }
  span.end();
}

/**
 * Wraps `transport` of `client` (connected to `server`) with request spans, when tracing is on.
 * Call before the client connects.
 */
export function installRequestSpans(client: Client, transport: Transport, server: McpServerConfig): void {
  if (currentTracing() === undefined) return;
  const pending = new Map<RequestId, Span>();
  const network = networkAttributes(server);
  const endAll = (type: string): void => {
    for (const span of pending.values()) {
      span.setAttribute('error.type', type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
      span.end();
    }
    pending.clear();
  };

  let receiving = false;
  const takeOverAnswers = (): void => {
    receiving = true;
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const answer = message as Record<string, unknown>;
      const id = answer.id;
      if ((typeof id === 'string' || typeof id === 'number') && !('method' in answer)) {
        const span = pending.get(id);
        if (span !== undefined) {
          pending.delete(id);
          endWithAnswer(span, answer);
        }
      }
      receive?.(message, extra);
    };
    const closed = transport.onclose;
    transport.onclose = () => {
      endAll('connection_closed');
      closed?.();
    };
  };

  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> => {
    if (!receiving) takeOverAnswers();
    const request = message as { id?: unknown; method?: unknown; params?: unknown };
    const id = request.id;
    const active = trace.getSpan(context.active())?.spanContext();
    if (typeof request.method !== 'string' || (typeof id !== 'string' && typeof id !== 'number') || active === undefined || !trace.isSpanContextValid(active)) {
      // A notification (`notifications/cancelled` ends nothing: the answer, or the close, will), an answer, or no trace to join.
      return send(message, options);
    }
    const method = request.method;
    const params = isObject(request.params) ? request.params : {};
    const target = targetOf(method, params);
    const version = client.getNegotiatedProtocolVersion();
    const span = trace.getTracer(HOST_TRACER).startSpan(target !== undefined ? `${method} ${target}` : method, {
      kind: SpanKind.CLIENT,
      attributes: {
        'mcp.method.name': method,
        'jsonrpc.request.id': String(id),
        'mcp_host.server': server.name,
        ...(version !== undefined ? { 'mcp.protocol.version': version } : {}),
        ...(method === 'tools/call' && target !== undefined ? { 'gen_ai.tool.name': target } : {}),
        ...(method === 'prompts/get' && target !== undefined ? { 'gen_ai.prompt.name': target } : {}),
        ...(method.startsWith('resources/') && target !== undefined ? { 'mcp.resource.uri': target } : {}),
        ...network,
      },
    });
    if (pending.size >= MAX_PENDING) endAll('unanswered');
    pending.set(id, span);
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), span), carrier);
    const meta = isObject(params._meta) ? params._meta : {};
    const traced = { ...message, params: { ...params, _meta: { ...meta, ...carrier } } } as JSONRPCMessage;
    return send(traced, options).catch((err: unknown) => {
      pending.delete(id);
      span.setAttribute('error.type', 'send_failed');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'send_failed' });
      span.end();
      throw err;
    });
  };
}
