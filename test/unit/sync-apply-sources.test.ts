// The files the editor's Apply plans: trigger files, and the burn alert and definitions files of the
// obs.burnAlertFiles / obs.definitionsFiles patterns, whether the whole workspace or an Explorer selection is
// applied. A file the patterns do not match, or whose name does not say its kind, is not planned.
import { fake, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filesOf } from '../../src/extension/sync/applyTargets';

// Not a file: uri, so nothing is looked up on the disk (links are resolved only there).
const WORKSPACE = 'memfs:/w';
const TRIGGER = `${WORKSPACE}/triggers/api-gateway/errors.trigger.json`;
const BURN_ALERT = `${WORKSPACE}/slo/api-gateway/Gateway-availability.exhaustion-240min.burn-alert.json`;
const DEFINITIONS = `${WORKSPACE}/slo/api-gateway.definitions.json`;
const OUTSIDE_PATTERNS = `${WORKSPACE}/scratch/Gateway-availability.exhaustion-60min.burn-alert.json`;
const NOT_NAMED_BY_KIND = `${WORKSPACE}/slo/notes.json`;
const PATTERNS = { burnAlert: ['slo/**/*.json'], definitions: ['slo/*.definitions.json'] };

function workspace(): void {
  fake.reset();
  fake.folders = [{ uri: Uri.parse(WORKSPACE), name: 'w', index: 0 }];
  for (const f of [TRIGGER, BURN_ALERT, DEFINITIONS, OUTSIDE_PATTERNS, NOT_NAMED_BY_KIND]) fake.files.set(f, '{}');
}

const planned = async (selection: Uri[]): Promise<string[]> =>
  (await filesOf(selection, PATTERNS)).map((u) => u.toString()).sort();

test("the workspace's Apply plans its trigger files and the burn alert and definitions files of the settings", async () => {
  workspace();
  assert.deepEqual(await planned([]), [BURN_ALERT, DEFINITIONS, TRIGGER].sort());
});

test('a burn alert file selected in the Explorer is planned; one outside the patterns is not', async () => {
  workspace();
  assert.deepEqual(await planned([Uri.parse(BURN_ALERT), Uri.parse(OUTSIDE_PATTERNS)]), [BURN_ALERT]);
});
