/**
 * `durable-mcp-host`: the worker and client side of the library.
 *
 *   import { createHostWorker, ConversationClient } from 'durable-mcp-host';
 *
 * Workflow code imports from `durable-mcp-host/workflow` instead (sandbox-safe); test doubles
 * (a scripted fake Messages API) come from `durable-mcp-host/testing`.
 */
export { createHostWorker, type ClaudeEndpoint, type HostWorker, type HostWorkerOptions } from './worker/create-host-worker';
export { ConversationClient, type ConversationClientOptions, type SendOptions, type StartOptions } from './client/conversation-client';
export type * from './client/conversation-events';
export type { Follower, FollowOptions } from './client/follow-conversation';
export type { ConversationListing, MessageIdentity, TurnOptions } from './client/commands';
export type { ServerPrompts, ServerResources, TurnContentRequest, UnlistedServer } from './client/resources';
export type { TurnAttachment, TurnContent, TurnPrompt } from './conversation/turn-content';
export type { WaitingConversation } from './client/approvals';
export type { InputResponse } from './client/input-requests';
export type { ApprovalMode } from './approval/approval-mode';
export type { ConversationOptionsInput } from './client/conversation-options';
export { loadMcpConfig, parseMcpConfig, McpConfigError, type McpServerConfig, type ToolFilter } from './mcp/config';
export type { ServerProbe } from './mcp/probe-servers';
export { dataConverter } from './temporal/data-converter';
export { EncryptionCodec } from './temporal/encryption-codec';
export { encryptionKeyringFromEnv, type EncryptionKey, type EncryptionKeyring } from './temporal/encryption-keys';
export { EncryptionError, type EncryptionErrorCode } from './errors/encryption-error';
export { PayloadStoreError, type PayloadStoreErrorCode } from './errors/payload-store-error';
export { startCodecServer, type CodecServer, type CodecServerOptions } from './temporal/codec-server';
export { DEFAULTS } from './config/settings';
export { parseLiveUrl, liveTextLine, type LiveUrl } from './live/live-url';
export { openLiveChannel, type RedisLiveChannelOptions } from './live/redis-live-channel';
export type { LiveChannel, LiveFollowing, LivePublishing } from './live/live-channel';
export type { LiveEntry, LiveEntryKind } from './live/live-entry';
export { readMetricsSettings, MetricsSettingError, OtelSettingError, type MetricsSettings } from './telemetry/metrics-settings';
export { readTraceSettings, type TraceSettings } from './telemetry/trace-settings';
export { installTracing, currentTracing, describeTracing, type Tracing } from './telemetry/tracing';
export { tracingClientInterceptors } from './telemetry/client-tracing';
export { runtimeMetricsConfig } from './telemetry/metrics-runtime';
export * from './workflow';
