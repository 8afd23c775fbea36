// The webview's handle on the host. `acquireVsCodeApi` is injected by VS Code (and stubbed in tests);
// it may be called only once per page.
import type { z } from 'zod';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post<T>(message: T): void {
  api.postMessage(message);
}

/** The persisted state if it still has the expected shape; anything else is ignored. */
export function readState<T extends z.ZodType>(schema: T): z.infer<T> | undefined {
  const parsed = schema.safeParse(api.getState());
  return parsed.success ? parsed.data : undefined;
}

export function writeState<T>(state: T): void {
  api.setState(state);
}

/** Calls `handle` with every host message that matches the schema; others are dropped. */
export function onHostMessage<T extends z.ZodType>(schema: T, handle: (message: z.infer<T>) => void): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const parsed = schema.safeParse(event.data);
    if (parsed.success) handle(parsed.data);
    else console.warn('obs form: ignored a malformed host message');
  });
}

let lastDraft = 'null';

/**
 * Tells the host what the page holds that is not saved (its state; null: nothing), whenever that changed:
 * the host marks the tab title while there is some, and keeps it when the panel is closed.
 */
export function postDraft(state: unknown): void {
  const text = JSON.stringify(state ?? null);
  if (text === lastDraft) return;
  lastDraft = text;
  api.postMessage({ type: 'draft', state: state ?? null });
}
