import type { ConnectionOptions } from '@temporalio/client';

/**
 * Options of every client connection of this project. grpc-js receives at most 4 MB per message
 * by default; a long conversation's history or messages query can be larger, so the limit is
 * raised to Temporal's own ceiling (the option must carry its `grpc.` prefix to take effect).
 */
export function clientConnectionOptions(address: string): ConnectionOptions {
  return {
    address,
    channelArgs: { 'grpc.max_receive_message_length': 128 * 1024 * 1024 },
  };
}
