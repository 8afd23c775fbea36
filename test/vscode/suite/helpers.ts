// Shared helpers for in-host tests.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ObsExtensionApi } from '../../../src/extension/extension';

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

export function obsExtension(): vscode.Extension<ObsExtensionApi> {
  const ext = vscode.extensions.getExtension<ObsExtensionApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed`);
  return ext;
}

/** The `contributes` section of the installed extension's package.json (read at run time). */
export function contributes(): Contributes {
  const json: unknown = obsExtension().packageJSON;
  assert.ok(json && typeof json === 'object' && 'contributes' in json, 'package.json has no contributes');
  return json.contributes as Contributes;
}

/** Activates the extension (a no-op when already active) and returns its API. */
export async function obsApi(): Promise<ObsExtensionApi> {
  const api = await obsExtension().activate();
  assert.ok(api, 'activate() returned no API');
  return api;
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes; for state that settles asynchronously. */
export async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
