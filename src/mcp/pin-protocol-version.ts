import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The protocol version the host asks for in `initialize` (seed §2 step 1, S3). The SDK client asks
 * for its newest version; servers answer with the version they pick and the SDK accepts any it
 * supports, so asking for this one is still a negotiation.
 */
export const REQUESTED_PROTOCOL_VERSION = '2025-06-18';

/** Makes `transport` send `initialize` with `version` as its protocolVersion. */
export function pinProtocolVersion<T extends Transport>(transport: T, version: string = REQUESTED_PROTOCOL_VERSION): T {
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> => {
    if ('method' in message && message.method === 'initialize' && message.params) {
      return send({ ...message, params: { ...message.params, protocolVersion: version } }, options);
    }
    return send(message, options);
  };
  return transport;
}
