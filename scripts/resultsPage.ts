// Runs the query results page in headless Chromium, as test/unit/forms-harness.ts does for the forms: the
// host's own HTML (same CSP and nonce), the page script and stylesheet bundled fresh from src/webview/, and
// `acquireVsCodeApi` stubbed to record what the page posts. For the results tests and the bench's panel figure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { makeNonce, renderWebviewPage } from '../src/extension/core/webviewPage';
import type { PageL10n } from '../src/webview/protocol/pageL10n';
import type { ResultsModel } from '../src/webview/protocol/queryResults';

const root = join(import.meta.dirname, '..');
/** English, as VS Code gives it: no bundle. */
const ENGLISH: PageL10n = { language: 'en', bundle: null };
let assets: Promise<{ script: string; css: string }> | undefined;

function bundle(): Promise<{ script: string; css: string }> {
  assets ??= esbuild
    .build({
      entryPoints: [join(root, 'src', 'webview', 'queryResults.ts'), join(root, 'src', 'webview', 'queryResults.css')],
      bundle: true,
      write: false,
      outdir: join(root, 'dist', 'harness'),
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      logLevel: 'silent',
    })
    .then((r) => ({
      script: r.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '',
      css: r.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '',
    }));
  return assets;
}

export interface ResultsPage {
  page: Page;
  posted(): Promise<Record<string, unknown>[]>;
  waitForPosted(type: string, nth?: number): Promise<Record<string, unknown>>;
  fromHost(message: unknown): Promise<void>;
  /** What the page last kept with setState (undefined before it kept anything). */
  state(): Promise<unknown>;
  incidents(): Promise<{ dialogs: string[]; pageErrors: string[]; csp: string[] }>;
  close(): Promise<void>;
}

export async function openResults(
  browser: Browser,
  viewport = { width: 1100, height: 900 },
  l10n: PageL10n = ENGLISH,
): Promise<ResultsPage> {
  const { script, css } = await bundle();
  const nonce = makeNonce();
  const server: Server = createServer((req, res) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (type: string, body: string) =>
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(body);
    if (req.url === '/page.html')
      send(
        'text/html',
        renderWebviewPage({
          title: 'results',
          cspSource: origin,
          nonce,
          scriptUri: `${origin}/page.js`,
          styleUri: `${origin}/page.css`,
          l10n,
          loading: 'Loading…',
        }),
      );
    else if (req.url === '/page.js') send('text/javascript', script);
    else if (req.url === '/page.css') send('text/css', css);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.addInitScript({
    content: `(() => {
  const posted = []; const csp = [];
  window.__posted = posted; window.__csp = csp;
  document.addEventListener('securitypolicyviolation', (e) => csp.push(e.violatedDirective + ' ' + e.blockedURI));
  window.acquireVsCodeApi = () => ({ postMessage: (m) => posted.push(JSON.parse(JSON.stringify(m))), getState: () => undefined, setState: (s) => { window.__state = JSON.parse(JSON.stringify(s)); } });
})();`,
  });
  await page.goto(`${origin}/page.html`);
  const results: ResultsPage = {
    page,
    posted: () => page.evaluate(() => window.__posted),
    async waitForPosted(type, nth = 0) {
      const handle = await page.waitForFunction(
        ([t, n]) => window.__posted.filter((m) => m['type'] === t)[n],
        [type, nth] as const,
        { timeout: 5000 },
      );
      return (await handle.jsonValue()) as Record<string, unknown>;
    },
    fromHost: async (message) => {
      await page.evaluate((m) => window.postMessage(m, '*'), message);
    },
    state: () => page.evaluate(() => window.__state),
    async incidents() {
      const csp = await page.evaluate(() => window.__csp);
      return { dialogs: [...dialogs], pageErrors: [...pageErrors], csp };
    },
    async close() {
      await context.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  await results.waitForPosted('ready');
  return results;
}

export const T0 = Date.parse('2025-06-02T00:00:00Z') / 1000;

/** A result of `groups` routes over `points` one-minute buckets: COUNT rises with the group's rank. */
export function resultModel(groups: number, points: number, over: Partial<ResultsModel> = {}): ResultsModel {
  const names = Array.from({ length: groups }, (_, g) => `/route/${String(g).padStart(5, '0')}`);
  return {
    title: 'Saved query q_1',
    subtitle: 'api-gateway on Sandbox · saved query q_1',
    status: 'complete',
    chart: {
      times: Array.from({ length: points }, (_, i) => T0 + i * 60),
      aggregates: ['COUNT'],
      lines: names.map((group, g) => ({
        group,
        aggregate: 'COUNT',
        values: Array.from({ length: points }, (_, i) => (g + 1) * 10 + (i % 7)),
      })),
    },
    table: { columns: ['http.route', 'COUNT'], rows: names.map((n, g) => [n, (g + 1) * 100]) },
    totals: [],
    links: { query: true, graph: false },
    canRerun: true,
    ...over,
  };
}
