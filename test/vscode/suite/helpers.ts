// Shared helpers for in-host tests.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PanelController } from '../../../src/extension/forms/panels';
import { TEST_SEAM_KEY, TEST_SEAM_VARIABLE, type TestSeam } from '../../../src/extension/testSeam';

export const EXTENSION_ID = 'obs-tools.obs-vscode';

export interface ContributedCommand {
  readonly command: string;
  readonly title?: string;
}

export interface ContributedView {
  readonly id: string;
  readonly name?: string;
}

export interface Contributes {
  readonly commands?: readonly ContributedCommand[];
  readonly viewsContainers?: { readonly activitybar?: readonly { readonly id: string; readonly title: string }[] };
  readonly views?: Readonly<Record<string, readonly ContributedView[]>>;
}

export function obsExtension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed`);
  return ext;
}

/** The `contributes` section of the installed extension's package.json (read at run time). */
export function contributes(): Contributes {
  const json: unknown = obsExtension().packageJSON;
  assert.ok(json && typeof json === 'object' && 'contributes' in json, 'package.json has no contributes');
  return json.contributes as Contributes;
}

/**
 * Activates the extension (a no-op when already active) and returns its internals from the test seam
 * (src/extension/testSeam.ts): the extension exports nothing, and publishes them only in a test run.
 */
export async function obsSeam(): Promise<TestSeam> {
  await obsExtension().activate();
  const seam = (globalThis as Record<symbol, unknown>)[TEST_SEAM_KEY];
  assert.ok(
    seam,
    `the test seam is closed: run the extension host with ${TEST_SEAM_VARIABLE}=1 or under a test runner`,
  );
  return seam as TestSeam;
}

/** The controllers of the open forms by key (`create:<connection id>`, `definitions:<connection id>:<dataset>`, ...). */
function openForms(seam: TestSeam): ReadonlyMap<string, PanelController> {
  return seam.formPanels()?.openControllers() ?? new Map<string, PanelController>();
}

/** The keys of the open forms. */
export function openFormKeys(seam: TestSeam): string[] {
  return [...openForms(seam).keys()];
}

/**
 * Hands form `key` a message exactly as its webview's message listener does, once the form runs no
 * request; resolves when it is handled. False when no such form is open. (A test cannot reach into a
 * webview's page, so the messages a user's clicks would send are given to the same controller.)
 */
export async function deliverToForm(seam: TestSeam, key: string, raw: unknown): Promise<boolean> {
  const controller = openForms(seam).get(key);
  if (!controller) return false;
  await controller.whenIdle();
  await controller.receive(raw);
  return true;
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes; for state that settles asynchronously. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
