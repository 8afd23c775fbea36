// Runs a form's webview script in headless Chromium (Debian's /usr/bin/chromium through playwright-core):
// the page is the host's own HTML (same CSP, same nonce rules) served from a loopback server, with the
// script bundled fresh from src/webview/ and `acquireVsCodeApi` stubbed to record what is posted.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makeNonce, renderWebviewPage } from '../../src/extension/core/webviewPage';
import type { PageL10n } from '../../src/webview/protocol/pageL10n';

// The browser itself is shared with the bench (scripts/chromium.ts).
import { launchBrowser } from '../../scripts/chromium';
export { browserSkip, CHROMIUM, launchBrowser, missingBrowser } from '../../scripts/chromium';

/** English, as VS Code gives it: no bundle. */
export const ENGLISH: PageL10n = { language: 'en', bundle: null };

const root = join(import.meta.dirname, '..', '..');

export const HOSTILE = ['<img src=x onerror=alert(1)>', '<script>alert(1)</script>'] as const;

const bundles = new Map<string, string>();

async function bundle(entry: string): Promise<string> {
  const cached = bundles.get(entry);
  if (cached !== undefined) return cached;
  const result = await esbuild.build({
    entryPoints: [join(root, 'src', 'webview', `${entry}.ts`)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Minified as in the packaged extension; it also halves the page's parse time.
    minify: true,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]?.text ?? '';
  bundles.set(entry, text);
  return text;
}

const openPages = new Set<FormPage>();

/** Closes every page still open (a failed test skips its own close); call from after(). */
export async function closeAllForms(): Promise<void> {
  await Promise.all([...openPages].map((f) => f.close()));
}

export interface FormPage {
  page: Page;
  /** Messages the script posted to the host, in order. */
  posted(): Promise<unknown[]>;
  /** Waits until a posted message of this type appears and returns it. */
  waitForPosted(type: string, nth?: number): Promise<Record<string, unknown>>;
  /** Delivers a message from the host to the script. */
  fromHost(message: unknown): Promise<void>;
  /** The state the script last persisted with setState. */
  state(): Promise<unknown>;
  /** Dialogs opened, uncaught page errors and CSP violations: all must stay empty. */
  incidents(): Promise<{ dialogs: string[]; pageErrors: string[]; csp: string[] }>;
  close(): Promise<void>;
}

export async function openForm(
  browser: Browser,
  entry: string,
  initialState?: unknown,
  l10n: PageL10n = ENGLISH,
): Promise<FormPage> {
  const script = await bundle(entry);
  const css = readFileSync(join(root, 'src', 'webview', 'forms.css'), 'utf8');
  const nonce = makeNonce();
  const server: Server = createServer((req, res) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === '/form.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        renderWebviewPage({
          title: entry,
          cspSource: origin,
          nonce,
          scriptUri: `${origin}/form.js`,
          styleUri: `${origin}/forms.css`,
          l10n,
          loading: 'Loading…',
        }),
      );
    } else if (req.url === '/form.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(script);
    } else if (req.url === '/forms.css') {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' });
      res.end(css);
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const context = await browser.newContext();
  const page = await context.newPage();
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => {
    pageErrors.push(e.message);
    if (process.env.FORMS_DEBUG) console.log(`[${entry}] pageerror: ${e.message}`);
  });
  if (process.env.FORMS_DEBUG) page.on('request', (r) => console.log(`[${entry}] request ${r.url()}`));
  if (process.env.FORMS_DEBUG) page.on('console', (m) => console.log(`[${entry}] ${m.type()}: ${m.text()}`));
  // A string, not a function: tsx would wrap a function's inner names in helpers the page lacks.
  await page.addInitScript({ content: stubScript(initialState) });
  await page.goto(`${origin}/form.html`);

  const form: FormPage = {
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
    // Resolves once the page has handled the message: a listener added after the page's hears the same
    // event after it (a posted message is delivered in a task of its own, after evaluate returns).
    fromHost: async (message) => {
      await page.evaluate(
        (m) =>
          new Promise<void>((resolve) => {
            window.addEventListener('message', () => resolve(), { once: true });
            window.postMessage(m, '*');
          }),
        message,
      );
    },
    state: () => page.evaluate(() => window.__state),
    async incidents() {
      const csp = await page.evaluate(() => window.__csp);
      return { dialogs: [...dialogs], pageErrors: [...pageErrors], csp };
    },
    async close() {
      if (!openPages.delete(form)) return;
      await context.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  openPages.add(form);
  await form.waitForPosted('ready');
  return form;
}

/** The stand-in for VS Code's webview API, recording every message and the persisted state. */
function stubScript(initialState: unknown): string {
  return `(() => {
  const posted = [];
  const csp = [];
  let current = ${JSON.stringify(initialState ?? null)} ?? undefined;
  window.__posted = posted;
  window.__csp = csp;
  Object.defineProperty(window, '__state', { get: () => current });
  document.addEventListener('securitypolicyviolation', (e) => csp.push(e.violatedDirective + ' ' + e.blockedURI));
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi called twice');
    acquired = true;
    return {
      postMessage: (m) => { posted.push(JSON.parse(JSON.stringify(m))); },
      getState: () => current,
      setState: (s) => { current = JSON.parse(JSON.stringify(s)); },
    };
  };
})();`;
}

/** The visible text of an element (its text nodes, as a user or screen reader gets them). */
export async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().textContent()) ?? '';
}

/** The form pages of one describe block: a browser launched before its tests, closed with every form after them. */
export function useFormsBrowser(): { open(entry: string, initialState?: unknown): Promise<FormPage> } {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await closeAllForms();
    await browser?.close();
  });
  return {
    open(entry, initialState) {
      if (browser === undefined) throw new Error('the browser is launched before the tests run');
      return openForm(browser, entry, initialState);
    },
  };
}

/** A burn alert (exhaustion time, one email recipient) and where it lives, as the host loads it for the form. */
export const BURN_ALERT_CONTEXT = { connectionId: 'conn-1', dataset: 'api-gateway', sloId: 'slo_gw', alertId: 'ba_1' };
export const EXHAUSTION_ALERT = {
  id: 'ba_1',
  alert_type: 'exhaustion_time',
  exhaustion_minutes: 240,
  description: 'four hours',
  updated_at: '2024-03-02T10:00:00.000Z',
  recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }],
};
