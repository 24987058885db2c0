/**
 * `chat` asks inline when its turn waits for a tool approval (mcp.json `approval: "ask"`):
 *
 *   approve get_weather {"city":"北京"} · weather? [y/N/a(ll)]
 *
 * `y` approves that call, `a` every waiting call, anything else denies it (`n REASON` with a reason
 * Claude reads). While the turn runs, the conversation's status is asked every second
 * (turn-prompts.ts); a question still open when the turn ends (decided elsewhere, e.g.
 * `mcp-host approve`) is withdrawn.
 */
import type { Client } from '@temporalio/client';
import type * as readline from 'node:readline/promises';
import type { TurnResult } from '../conversation/types';
import { toolCallSummary } from '../workflows/progress-text';
import { approveToolCalls, denyToolCalls, renderApprovalAnswer, type PendingApproval } from './approvals';
import { promptWhileTurnRuns, type StatusPrompt } from './turn-prompts';

/** What the user answered to one question. */
export type PromptAnswer = { kind: 'approve' } | { kind: 'approve_all' } | { kind: 'deny'; reason?: string };

/** Reads an answer: `y`/`yes`, `a`/`all`, else a deny (`n REASON` or `no REASON` gives the reason). */
export function parsePromptAnswer(line: string): PromptAnswer {
  const text = line.trim();
  if (/^(y|yes)$/i.test(text)) return { kind: 'approve' };
  if (/^(a|all)$/i.test(text)) return { kind: 'approve_all' };
  const reason = /^(?:n|no)\b[\s:,-]*(.*)$/is.exec(text)?.[1]?.trim();
  return reason ? { kind: 'deny', reason } : { kind: 'deny' };
}

/** The question for one waiting call. */
export function approvalQuestion(pending: PendingApproval): string {
  const call = toolCallSummary({ server: pending.server, tool: pending.mcpTool, arguments: pending.arguments as Record<string, unknown> });
  return `approve ${call}? [y/N/a(ll)] `;
}

/**
 * The approval prompt of a running turn (see turn-prompts.ts): asks on `rl` about each tool call of
 * conversation `id` that waits for approval, once, and sends the decision.
 */
export function approvalPrompt(client: Client, rl: readline.Interface, id: string, print: (line: string) => void = console.log): StatusPrompt {
  const asked = new Set<string>();
  return async (status, ended) => {
    for (const call of status.pendingApprovals) {
      if (asked.has(call.toolUseId) || ended.aborted) continue;
      asked.add(call.toolUseId);
      let line: string;
      try {
        line = await rl.question(approvalQuestion(call), { signal: ended });
      } catch {
        return; // the turn ended while asking, or stdin closed
      }
      const answer = parsePromptAnswer(line);
      try {
        if (answer.kind === 'approve_all') {
          const decided = await approveToolCalls(client, id);
          for (const d of decided.decided) asked.add(d.toolUseId);
          print(renderApprovalAnswer('approved', decided));
          return;
        }
        print(
          answer.kind === 'approve'
            ? renderApprovalAnswer('approved', await approveToolCalls(client, id, [call.toolUseId]))
            : renderApprovalAnswer('denied', await denyToolCalls(client, id, [call.toolUseId], answer.reason)),
        );
      } catch (err) {
        // Decided elsewhere meanwhile (another terminal, `mcp-host approve`): say so and go on.
        print(`mcp-host: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };
}

/**
 * Waits for `turn` (the answer of a turn of conversation `id`), asking on `rl` about each tool call
 * that waits for approval meanwhile; resolves with the turn's answer.
 */
export function answerWithApprovals<T extends TurnResult | undefined>(
  client: Client,
  rl: readline.Interface,
  id: string,
  turn: Promise<T>,
  print: (line: string) => void = console.log,
): Promise<T> {
  return promptWhileTurnRuns(client, id, turn, [approvalPrompt(client, rl, id, print)]);
}
