/**
 * Server tool blocks as the real API returns them, typed as the SDK's response types (so a field
 * the API does not send, or one missing, fails to compile): a web search and its results, a cited
 * answer, a web fetch, a code execution. Used by the unit tests, the integration test and the
 * recorded scenario alike.
 */
import type {
  BashCodeExecutionToolResultBlock,
  ServerToolUseBlock,
  TextBlock,
  WebFetchToolResultBlock,
  WebSearchToolResultBlock,
} from '@anthropic-ai/sdk/resources/messages';

const DIRECT = { type: 'direct' } as const;

/** A web search Claude asked for. */
export function webSearchUse(id: string, query: string): ServerToolUseBlock {
  return { type: 'server_tool_use', id, name: 'web_search', input: { query }, caller: DIRECT };
}

/** Its results: encrypted page content the API wants back unchanged. */
export function webSearchResult(id: string): WebSearchToolResultBlock {
  return {
    type: 'web_search_tool_result',
    tool_use_id: id,
    caller: DIRECT,
    content: [
      {
        type: 'web_search_result',
        url: 'https://temporal.io/blog/durable-execution',
        title: 'Durable execution',
        encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2YSDDl4bq',
        page_age: '2 days ago',
      },
      {
        type: 'web_search_result',
        url: 'https://docs.temporal.io/workflows',
        title: 'Workflows',
        encrypted_content: 'Ep4bCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2YSDNXrTa',
        page_age: null,
      },
    ],
  };
}

/** A text block citing the first search result. */
export function citedText(text: string): TextBlock {
  return {
    type: 'text',
    text,
    citations: [
      {
        type: 'web_search_result_location',
        url: 'https://temporal.io/blog/durable-execution',
        title: 'Durable execution',
        encrypted_index: 'Eo8BCioIAhgBIiQ3YTAwMjY1Mi1mZjM5',
        cited_text: 'Durable execution keeps a program running through failures.',
      },
    ],
  };
}

/** A web fetch Claude asked for, and the page it got. */
export function webFetchUse(id: string, url: string): ServerToolUseBlock {
  return { type: 'server_tool_use', id, name: 'web_fetch', input: { url }, caller: DIRECT };
}

export function webFetchResult(id: string, url: string): WebFetchToolResultBlock {
  return {
    type: 'web_fetch_tool_result',
    tool_use_id: id,
    caller: DIRECT,
    content: {
      type: 'web_fetch_result',
      url,
      retrieved_at: '2026-12-08T10:00:00Z',
      content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Hello from the page.' }, title: 'A page', citations: null },
    },
  };
}

/** A bash command of code execution (`code_execution_20250825`), and its output. */
export function bashUse(id: string, command: string): ServerToolUseBlock {
  return { type: 'server_tool_use', id, name: 'bash_code_execution', input: { command }, caller: DIRECT };
}

export function bashResult(id: string, stdout: string): BashCodeExecutionToolResultBlock {
  return { type: 'bash_code_execution_tool_result', tool_use_id: id, content: { type: 'bash_code_execution_result', stdout, stderr: '', return_code: 0, content: [] } };
}
