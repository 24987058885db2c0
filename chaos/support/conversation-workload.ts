/**
 * The conversations a chaos scenario keeps going while it breaks things: `concurrency` lanes, each
 * running conversations one after another (first turn by update-with-start, the next ones by
 * `ConversationClient.send`, then `end`), until the scenario says stop. Every send and every
 * answer is timed and announced, so a kill can be aimed at an update in flight or at the moment
 * a turn ends (when continue-as-new happens).
 */
import { withDeadline } from '../../bench/deadline';
import type { TurnResult } from '../../src/conversation/types';
import { runCliProcess } from '../../test/support/cli-process';
import type { LibraryClient } from './host-library';
import { turnPlan, type WorkloadShape } from './turn-plan';

/** One user turn as the workload sent it. */
export interface SentTurn {
  turn: number;
  text: string;
  sentAt: number;
  answeredAt?: number;
  result?: TurnOutcome;
}

/** A turn's answer as the client saw it. */
export type TurnOutcome = Pick<TurnResult, 'status' | 'text' | 'error'>;

/** One conversation of the workload. */
export interface WorkloadConversation {
  number: number;
  id: string;
  turns: SentTurn[];
  ended: boolean;
  /** What went wrong from the client's side (a send that threw, an answer not as planned). */
  problems: string[];
}

/** How the workload runs. */
export interface WorkloadOptions {
  client: LibraryClient;
  /** Names this run in every user text (so plans and tool texts are unique across runs). */
  run: string;
  shape: WorkloadShape;
  concurrency: number;
  /** Conversation options of every conversation (e.g. a low `continueAsNewAfterEvents`). */
  conversationOptions?: Record<string, unknown>;
  /** How long one send may take before it counts as lost (a stuck conversation). */
  sendDeadlineMs: number;
  /** Says what is wrong with a turn's answer, if anything (default: anything but the planned answer, completed). */
  judgeTurn?: (conversation: number, turn: number, result: TurnOutcome | undefined) => string | undefined;
  /** Runs before each turn is sent (e.g. to try a bad send between two good ones). */
  beforeTurn?: (conversation: WorkloadConversation, turn: number) => Promise<void>;
  /** Turns sent with the `mcp-host send` CLI process instead of the library (its tree, environment). */
  cli?: { turns: (turn: number) => boolean; root: string | undefined; env: Record<string, string> };
}

type Listener = (conversation: WorkloadConversation, turn: SentTurn) => void;

/** The conversations of one scenario run. */
export class ConversationWorkload {
  readonly conversations: WorkloadConversation[] = [];
  private readonly sendListeners = new Set<Listener>();
  private readonly answerListeners = new Set<Listener>();

  constructor(private readonly options: WorkloadOptions) {}

  /** Resolves just before the next send (a start with its first turn, or a later turn). */
  onceSend(): Promise<void> {
    return new Promise((resolve) => {
      const listener: Listener = () => {
        this.sendListeners.delete(listener);
        resolve();
      };
      this.sendListeners.add(listener);
    });
  }

  /** Resolves when the next turn (other than a conversation's last) has its answer. */
  onceAnswer(): Promise<void> {
    return new Promise((resolve) => {
      const listener: Listener = (_conversation, turn) => {
        if (turn.turn >= this.options.shape.turns) return;
        this.answerListeners.delete(listener);
        resolve();
      };
      this.answerListeners.add(listener);
    });
  }

  /** Runs lanes of conversations until `keepGoing` says no; each conversation started is finished. */
  async run(keepGoing: () => boolean): Promise<void> {
    const lane = async (): Promise<void> => {
      while (keepGoing()) await this.converse(this.conversations.length + 1);
    };
    await Promise.all(Array.from({ length: this.options.concurrency }, lane));
  }

  /** Runs exactly `count` conversations, `concurrency` at a time. */
  async runCount(count: number): Promise<void> {
    await this.run(() => this.conversations.length < count);
  }

  /** Sends one turn: the first by update-with-start, later ones by the library or the CLI. */
  private async send(id: string, turn: number, text: string): Promise<TurnOutcome | undefined> {
    const { client, cli } = this.options;
    if (turn === 1) return (await client.conversations.start(text, { id, wait: true, ...this.options.conversationOptions })).result;
    if (!cli?.turns(turn)) return client.conversations.send(id, text);
    const run = await runCliProcess(['send', id, text], cli.env, cli.root);
    // The CLI prints the answer on stdout and exits 0 for a completed turn.
    return run.code === 0 ? { status: 'completed', text: run.stdout.trim() } : { status: 'failed', text: run.stdout.trim(), error: `mcp-host exited ${String(run.code)}: ${run.stderr.trim()}` };
  }

  private async converse(number: number): Promise<void> {
    const { client, run, shape } = this.options;
    const conversation: WorkloadConversation = { number, id: `chaos-${run}-c${number}`, turns: [], ended: false, problems: [] };
    this.conversations.push(conversation);
    try {
      for (let t = 1; t <= shape.turns; t++) {
        await this.options.beforeTurn?.(conversation, t);
        const plan = turnPlan(shape, run, number, t);
        const turn: SentTurn = { turn: t, text: plan.userText, sentAt: Date.now() };
        conversation.turns.push(turn);
        for (const listener of [...this.sendListeners]) listener(conversation, turn);
        const result = await withDeadline(this.send(conversation.id, t, plan.userText), this.options.sendDeadlineMs, `turn ${t} of ${conversation.id}`);
        turn.answeredAt = Date.now();
        if (result) turn.result = result;
        const wrong = this.options.judgeTurn
          ? this.options.judgeTurn(number, t, result)
          : result?.status !== 'completed' || result.text !== plan.answer
            ? `answered ${JSON.stringify({ status: result?.status, text: result?.text, error: result?.error })}`
            : undefined;
        if (wrong !== undefined) conversation.problems.push(`turn ${t}: ${wrong}`);
        for (const listener of [...this.answerListeners]) listener(conversation, turn);
      }
      await withDeadline(client.conversations.end(conversation.id), this.options.sendDeadlineMs, `the end of ${conversation.id}`);
      conversation.ended = true;
    } catch (err) {
      conversation.problems.push(err instanceof Error ? err.message : String(err));
    }
  }
}
