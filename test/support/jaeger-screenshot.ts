/**
 * A picture of one trace in Jaeger, to look at as a person would: headless Chromium opens the
 * query service's trace page (`<ui>/trace/<id>`), waits for its span rows and writes a PNG.
 *
 * The Jaeger the tests run is built with Go from the module (`npm run setup:jaeger`), and the Go
 * module carries no UI assets (Jaeger's release build compiles the separate jaeger-ui project in
 * first): its query service answers every page with a placeholder. When the built jaeger-ui assets
 * are in the cache (made by hand with scripts/build-jaeger-ui.sh; see ./jaeger-server.ts), Jaeger
 * serves them and the PNG is Jaeger's own trace view. Otherwise (as in CI, which cannot reach
 * GitHub to build them) the trace as the query API returns it (`/api/traces/<id>`) is drawn as a
 * waterfall, like the UI's (one row a span, indented under its parent, a bar for its time, its tags
 * under it), and that page is what the PNG shows.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { parentOf, type JaegerSpan, type JaegerTrace } from './jaeger-server';

/** Which page the PNG shows: Jaeger's own UI, or the query API's answer drawn as a waterfall. */
export type JaegerScreenshotSource = 'jaeger-ui' | 'query-api';

const VIEWPORT = { width: 1600, height: 1000 };
/** The tallest viewport the Jaeger UI page is grown to (Chromium draws a page up to 16384 px at once). */
const MAX_PAGE_HEIGHT = 16_000;
const PALETTE = ['#17b8be', '#f8dca1', '#b7885e', '#ffcb99', '#f89570', '#829ae3', '#e79fd5', '#1e96be', '#89dac1', '#b3ad9e'];

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A duration given in microseconds, as the UI writes it: `850μs`, `12.34ms`, `1.5s`. */
function formatDuration(us: number): string {
  if (us < 1000) return `${us}μs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(2)}ms`;
  return `${(us / 1_000_000).toFixed(2)}s`;
}

/** The spans in the waterfall's order: each after its parent, siblings by start time; with depths. */
function waterfall(trace: JaegerTrace): Array<{ span: JaegerSpan; depth: number }> {
  const ids = new Set(trace.spans.map((s) => s.spanID));
  const children = new Map<string | undefined, JaegerSpan[]>();
  for (const span of trace.spans) {
    const parent = parentOf(span);
    const key = parent !== undefined && ids.has(parent) ? parent : undefined; // a missing parent: shown as a root
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const rows: Array<{ span: JaegerSpan; depth: number }> = [];
  const visit = (parent: string | undefined, depth: number): void => {
    for (const span of [...(children.get(parent) ?? [])].sort((a, b) => a.startTime - b.startTime)) {
      rows.push({ span, depth });
      visit(span.spanID, depth + 1);
    }
  };
  visit(undefined, 0);
  return rows;
}

/** The trace drawn as a page: a header (id, services, spans, duration) and one row a span. */
function traceHtml(trace: JaegerTrace, source: string): string {
  const start = Math.min(...trace.spans.map((s) => s.startTime));
  const end = Math.max(...trace.spans.map((s) => s.startTime + s.duration));
  const total = Math.max(1, end - start);
  const services = [...new Set(Object.values(trace.processes).map((p) => p.serviceName))].sort();
  const color = (span: JaegerSpan): string => PALETTE[services.indexOf(trace.processes[span.processID]?.serviceName ?? '') % PALETTE.length] ?? PALETTE[0]!;
  const rows = waterfall(trace)
    .map(({ span, depth }) => {
      const service = trace.processes[span.processID]?.serviceName ?? '?';
      const left = ((span.startTime - start) / total) * 100;
      const width = Math.max(0.2, (span.duration / total) * 100);
      // The duration after the bar; before it when the bar reaches the right edge; inside a bar of all the width.
      const label =
        left + width <= 85 ? `left:${left + width}%;margin-left:6px` : left >= 10 ? `right:${100 - left}%;margin-right:6px` : `right:${100 - left - width}%;margin-right:6px;color:#000`;
      const tags = span.tags.map((t) => `<span class="tag"><b>${escapeHtml(t.key)}</b> = ${escapeHtml(String(t.value))}</span>`).join('');
      return `<div class="span-row">
  <div class="name" style="padding-left:${depth * 18 + 8}px;border-left:4px solid ${color(span)}"><span class="svc">${escapeHtml(service)}</span> <span class="op">${escapeHtml(span.operationName)}</span></div>
  <div class="timeline"><div class="bar" style="left:${left}%;width:${width}%;background:${color(span)}"></div><span class="dur" style="${label}">${formatDuration(span.duration)}</span></div>
  <div class="tags" style="padding-left:${depth * 18 + 12}px">${tags}</div>
</div>`;
    })
    .join('\n');
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Trace ${escapeHtml(trace.traceID)}</title><style>
body { font: 13px/1.4 system-ui, sans-serif; margin: 0; color: #222; }
header { background: #ececec; padding: 12px 16px; border-bottom: 1px solid #ccc; }
h1 { font-size: 18px; margin: 0 0 4px; }
.meta span { margin-right: 24px; }
.source { color: #666; font-size: 11px; margin-top: 4px; }
.span-row { display: grid; grid-template-columns: 30% 70%; border-bottom: 1px solid #e4e4e4; }
.name { padding: 6px 8px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.svc { font-weight: 600; } .op { color: #555; }
.timeline { position: relative; border-left: 1px solid #ccc; }
.bar { position: absolute; top: 8px; height: 12px; border-radius: 2px; }
.dur { position: absolute; top: 5px; color: #555; font-size: 11px; white-space: nowrap; }
.tags { grid-column: 1 / 3; padding: 0 8px 6px; font-size: 11px; color: #444; }
.tag { display: inline-block; background: #f4f4f4; border: 1px solid #ddd; border-radius: 3px; padding: 0 5px; margin: 0 6px 3px 0; }
</style></head><body>
<header><h1>Trace ${escapeHtml(trace.traceID)}</h1>
<div class="meta"><span>Services: <b>${escapeHtml(services.join(', '))}</b></span><span>Spans: <b>${trace.spans.length}</b></span><span>Duration: <b>${formatDuration(end - start)}</b></span></div>
<div class="source">${escapeHtml(source)}</div></header>
${rows}
</body></html>`;
}

/** Waits until the page has `count` span rows, the operation `name` visible among them. */
async function spanRows(page: Page, selector: string, count: number, name: string): Promise<void> {
  await page.locator(selector).filter({ hasText: name }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.locator(selector).nth(count - 1).waitFor({ state: 'attached', timeout: 30_000 });
}

/**
 * Jaeger UI's timeline is a virtualized list that scrolls with the window: it draws the rows in view
 * and 300 more, so a full-page PNG of a longer trace would end in blank rows. The viewport is grown
 * to the page's height (up to {@link MAX_PAGE_HEIGHT}) and the window nudged (the list measures on
 * scroll), then it waits a little for every span's row; a trace longer than that is cut where the
 * rows end.
 */
async function drawAllJaegerRows(page: Page, spans: number): Promise<void> {
  // Expressions in the page, as strings: this project's TypeScript has no DOM types.
  const height = await page.evaluate<number>('document.documentElement.scrollHeight');
  if (height <= VIEWPORT.height) return;
  await page.setViewportSize({ width: VIEWPORT.width, height: Math.min(height, MAX_PAGE_HEIGHT) });
  await page.evaluate('window.scrollTo(0, 1); window.scrollTo(0, 0)');
  await page
    .locator('.span-row')
    .nth(spans - 1)
    .waitFor({ state: 'attached', timeout: 5_000 })
    .catch(() => undefined);
}

/**
 * Writes a PNG of trace `traceId` of the Jaeger whose query service is at `uiUrl` to `file`, once
 * its span rows are on the page: Jaeger's UI when that Jaeger serves it (the cached jaeger-ui assets),
 * otherwise the query API's answer drawn as a waterfall (see the file comment). Says which. The page
 * is 1600 px wide and taken whole. Rejects when Chromium is missing.
 */
export async function screenshotJaegerTrace(uiUrl: string, traceId: string, file: string): Promise<JaegerScreenshotSource> {
  const response = await fetch(`${uiUrl}/api/traces/${encodeURIComponent(traceId)}`);
  const trace = ((await response.json()) as { data?: JaegerTrace[] | null }).data?.[0];
  if (!response.ok || !trace || trace.spans.length === 0) throw new Error(`Jaeger at ${uiUrl} has no trace ${traceId} (HTTP ${response.status})`);
  const root = waterfall(trace)[0]!.span;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    const pageUrl = `${uiUrl}/trace/${encodeURIComponent(traceId)}`;
    await page.goto(pageUrl, { waitUntil: 'domcontentloaded' });
    let source: JaegerScreenshotSource;
    if ((await page.locator('#jaeger-ui-root').count()) > 0) {
      // Jaeger UI (jaeger-ui v1.75.0): every span's row (`.span-row`, its operation in
      // `.endpoint-name`), all expanded by default, under the header and the minimap.
      await spanRows(page, '.span-row', Math.min(trace.spans.length, 20), root.operationName);
      await drawAllJaegerRows(page, trace.spans.length);
      source = 'jaeger-ui';
    } else {
      await page.setContent(traceHtml(trace, `Drawn from Jaeger's query API (${uiUrl}/api/traces/${traceId}): this Jaeger has no UI assets (${pageUrl} is its placeholder page).`));
      await spanRows(page, '.span-row', trace.spans.length, root.operationName);
      source = 'query-api';
    }
    await page.screenshot({ path: file, fullPage: true });
    return source;
  } finally {
    await browser.close();
  }
}
