/**
 * Issue 10's browser test: headless Chromium (Debian's `chromium`, driven by playwright-core; a CJK
 * font such as `fonts-wqy-zenhei` makes the screenshots readable) opens
 * the real Temporal Web UI of the run's dev server on a finished multi-tool turn and finds the
 * tool calls' summaries in the event list and the conversation's current details; a screenshot of
 * each page goes to test-output/web-ui/. Waits for selectors, never sleeps.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startConversation } from '../../src/client/commands';
import { startCodecServer, type CodecServer } from '../../src/temporal/codec-server';
import { dataConverter } from '../../src/temporal/data-converter';
import type { ScriptStep } from '../../src/testing';
import { optionalServerTest } from '../support/optional-server';
import { REPO_ROOT, tsServer, weatherServer } from '../support/repo';
import { startTestWorker, type TestWorker } from '../support/test-worker';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it), or CHROMIUM_PATH. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserTest = optionalServerTest({ name: 'chromium', install: 'apt-get install -y chromium' }, fs.existsSync(CHROMIUM));
const OUTPUT_DIR = path.join(REPO_ROOT, 'test-output', 'web-ui');
const MODEL = 'claude-sonnet-4-6';

const answer = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

describe('the Temporal Web UI in a browser', () => {
  let w: TestWorker | undefined;
  let encryptedWorker: TestWorker | undefined;
  let codecServer: CodecServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;

  afterAll(async () => {
    await browser?.close();
    await codecServer?.close();
    await encryptedWorker?.stop();
    await w?.stop();
  });

  /** Everything the page and its frames hold as text and markup (a payload view included). */
  async function pageText(): Promise<string> {
    if (!page) throw new Error('no page');
    const parts: string[] = [];
    for (const frame of page.frames()) {
      parts.push(await frame.locator('body').innerText().catch(() => ''), await frame.content().catch(() => ''));
    }
    return parts.join('\n');
  }

  /**
   * Waits for `text` on the page or in one of its frames (the UI renders user metadata as markdown
   * in sandboxed iframes). On a failed wait, the page's text says what the UI showed instead.
   */
  async function visible(text: string, timeout = 30_000): Promise<void> {
    if (!page) throw new Error('no page');
    const current = page;
    try {
      const deadline = Date.now() + timeout;
      for (;;) {
        for (const frame of current.frames()) {
          if (await frame.getByText(text, { exact: false }).first().isVisible().catch(() => false)) return;
        }
        if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms`);
        // Until the next frame navigates or the DOM changes (a bounded wait, not a fixed sleep).
        await current.waitForEvent('framenavigated', { timeout: 250 }).catch(() => undefined);
      }
    } catch (err) {
      await page.screenshot({ path: path.join(OUTPUT_DIR, 'failure.png'), fullPage: true }).catch(() => undefined);
      const body = (await page.locator('body').innerText().catch(() => '')).slice(0, 3000);
      throw new Error(`"${text}" did not appear on ${page.url()}: ${String(err)}\n--- page text ---\n${body}`);
    }
  }

  browserTest('a multi-tool conversation: tool summaries in the event list, current details, screenshots', async () => {
    const uiPort = process.env.TEMPORAL_TEST_UI_PORT;
    if (!uiPort) throw new Error('TEMPORAL_TEST_UI_PORT is unset: the global setup starts the dev server with its UI');
    fs.rmSync(OUTPUT_DIR, { recursive: true, force: true });
    fs.mkdirSync(OUTPUT_DIR, { recursive: true });
    w = await startTestWorker({ servers: [weatherServer(), tsServer('lab', 'test/fixtures/lab-server.ts')] });
    w.fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'text', text: '我来查一下。' },
          { type: 'tool_use', id: 'toolu_ui1', name: 'get_weather', input: { city: '北京' } },
          { type: 'tool_use', id: 'toolu_ui2', name: 'get_weather', input: { city: '上海' } },
          { type: 'tool_use', id: 'toolu_ui3', name: 'add', input: { a: 25, b: 22 } },
        ],
        stop_reason: 'tool_use',
      },
      answer('北京晴 25°C，上海多云 22°C，合计 47。'),
    );
    const id = `web-ui-browser-${randomUUID()}`;
    const started = await startConversation({ client: w.client, taskQueue: w.taskQueue }, '北京和上海天气怎么样？温度加起来是多少？', {
      id,
      wait: true,
      conversation: { model: MODEL },
      defaultModel: MODEL,
    });
    expect(started.result?.status).toBe('completed');
    // Left running (idle) with its worker up, so the UI's metadata query answers with the current details.

    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    page = await browser.newPage({ viewport: { width: 1600, height: 1400 } });
    const { runId } = await w.client.workflow.getHandle(id).describe();
    const base = `http://127.0.0.1:${uiPort}/namespaces/default/workflows/${encodeURIComponent(id)}/${runId}`;

    await page.goto(`${base}/history`, { waitUntil: 'domcontentloaded' });
    // Each tool call's summary, and the Claude call's, in the event list.
    await visible('get_weather {"city":"北京"} · weather');
    await visible('get_weather {"city":"上海"} · weather');
    await visible('add {"a":25,"b":22} · lab');
    await visible(`claude round 2 · after tool_use ×3 · ${MODEL}`);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'conversation-history.png'), fullPage: true });
    // The current details (the UI reads them with the workflow metadata query), in the User Metadata tab.
    await page.getByText('User Metadata', { exact: true }).first().click();
    // The start's static summary and details, then the current details.
    await visible('北京和上海天气怎么样？温度加起来是多少？');
    await visible('model: claude-sonnet-4-6 · max tokens: 1024');
    await visible('turns 1 · model calls 2 · tool calls 3');
    await visible('last answer: 北京晴 25°C，上海多云 22°C，合计 47。');
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'conversation-details.png'), fullPage: true });

    // The workflow list, filtered by the search attributes.
    const query = encodeURIComponent(`McpHostState="idle" AND McpHostToolCalls=3 AND WorkflowId="${id}"`);
    await page.goto(`http://127.0.0.1:${uiPort}/namespaces/default/workflows?query=${query}`, { waitUntil: 'domcontentloaded' });
    await visible(id);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'workflow-list-filtered.png'), fullPage: true });
    expect(fs.statSync(path.join(OUTPUT_DIR, 'conversation-history.png')).size).toBeGreaterThan(10_000);
  }, 90_000);
  browserTest('with encryption on: ciphertext without the codec server, plaintext through it (the UI\'s codec setting)', async () => {
    const uiPort = process.env.TEMPORAL_TEST_UI_PORT;
    if (!uiPort) throw new Error('TEMPORAL_TEST_UI_PORT is unset: the global setup starts the dev server with its UI');
    fs.mkdirSync(OUTPUT_DIR, { recursive: true });
    const mark = randomUUID().slice(0, 8);
    const city = '北京';
    const secretText = `secret-arg-${mark}`;
    const question = `加密的问题 question-${mark}`;
    const answerText = `加密的回答 answer-${mark}`;
    // The worker and this client encrypt: the shared data converter follows the environment.
    const saved = { key: process.env.MCP_HOST_ENCRYPTION_KEY, id: process.env.MCP_HOST_ENCRYPTION_KEY_ID };
    process.env.MCP_HOST_ENCRYPTION_KEY = randomBytes(32).toString('base64');
    process.env.MCP_HOST_ENCRYPTION_KEY_ID = 'browser-test-key';
    try {
      encryptedWorker = await startTestWorker({ servers: [weatherServer(), tsServer('lab', 'test/fixtures/lab-server.ts')] });
      encryptedWorker.fake.enqueue(
        {
          kind: 'message',
          content: [
            { type: 'tool_use', id: 'toolu_enc_ui1', name: 'get_weather', input: { city } },
            { type: 'tool_use', id: 'toolu_enc_ui2', name: 'slow_echo', input: { text: secretText, ms: 1 } },
          ],
          stop_reason: 'tool_use',
        },
        answer(answerText),
      );
      const id = `web-ui-encrypted-${randomUUID()}`;
      const started = await startConversation({ client: encryptedWorker.client, taskQueue: encryptedWorker.taskQueue }, question, {
        id,
        wait: true,
        conversation: { model: MODEL },
        defaultModel: MODEL,
      });
      expect(started.result?.text).toBe(answerText);
      const { runId } = await encryptedWorker.client.workflow.getHandle(id).describe();
      const historyUrl = `http://127.0.0.1:${uiPort}/namespaces/default/workflows/${encodeURIComponent(id)}/${runId}/history`;
      const plaintexts = [secretText, question, `question-${mark}`, answerText, `answer-${mark}`, 'get_weather {', 'slow_echo {', '北京今天晴'];

      browser ??= await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
      // Without the codec server: the event list is there (activity types are not payloads), its payloads are ciphertext.
      const plainContext = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
      page = await plainContext.newPage();
      await page.goto(historyUrl, { waitUntil: 'domcontentloaded' });
      // The whole event list is there (event and activity types are not payloads); inputs, results and summaries show as base64 ciphertext.
      await visible('callTool');
      await visible('Workflow Execution Update Completed');
      await page.screenshot({ path: path.join(OUTPUT_DIR, 'encrypted-without-codec-server.png'), fullPage: true });
      const historyText = await pageText();
      await page.getByText('User Metadata', { exact: true }).first().click();
      await visible('No Current Details');
      await page.screenshot({ path: path.join(OUTPUT_DIR, 'encrypted-without-codec-server-details.png'), fullPage: true });
      const withoutCodec = `${historyText}\n${await pageText()}`;
      for (const text of plaintexts) expect(withoutCodec).not.toContain(text);
      expect(withoutCodec).toContain('No summary available');
      await plainContext.close();

      // With the codec server, set in the browser the way the UI's codec server setting stores it.
      codecServer = await startCodecServer({
        codecs: dataConverter.payloadCodecs ?? [],
        ...(dataConverter.externalStorage ? { externalStorage: dataConverter.externalStorage } : {}),
        allowedOrigins: [`http://127.0.0.1:${uiPort}`, `http://localhost:${uiPort}`],
        port: 0,
      });
      const codecContext = await browser.newContext({ viewport: { width: 1600, height: 1400 } });
      // The keys of the UI's persisted codec settings (Web UI 2.x: endpoint, overrideRemoteCodecConfiguration).
      await codecContext.addInitScript({
        content: `localStorage.setItem('endpoint', ${JSON.stringify(JSON.stringify(codecServer.url))}); localStorage.setItem('overrideRemoteCodecConfiguration', 'true');`,
      });
      page = await codecContext.newPage();
      await page.goto(historyUrl, { waitUntil: 'domcontentloaded' });
      await visible(`get_weather {"city":"${city}"} · weather`);
      await visible(`slow_echo {"text":"${secretText}","ms":1} · lab`);
      await page.screenshot({ path: path.join(OUTPUT_DIR, 'encrypted-with-codec-server.png'), fullPage: true });
      await page.getByText('User Metadata', { exact: true }).first().click();
      await visible(question);
      await visible(`last answer: ${answerText}`);
      await page.screenshot({ path: path.join(OUTPUT_DIR, 'encrypted-with-codec-server-details.png'), fullPage: true });
      await codecContext.close();
    } finally {
      for (const [name, value] of [['MCP_HOST_ENCRYPTION_KEY', saved.key], ['MCP_HOST_ENCRYPTION_KEY_ID', saved.id]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 120_000);
});
