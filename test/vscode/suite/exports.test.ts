// What any other extension can reach of obs-vscode: `vscode.extensions.getExtension('obs-tools.obs-vscode')`.
// These tests run in a second extension (the runner), so they see exactly what another extension sees.
// With keys stored for a saved connection (and a client built from them) and the sandbox running, the
// extension exports nothing, and no string reachable from its extension object holds a key.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test } from './harness';
import { EXTENSION_ID, obsSeam } from './helpers';

interface Scan {
  /** The needles found in some reachable string. */
  readonly found: string[];
  /** Objects and functions visited. */
  readonly visited: number;
  /** The scan stopped at its limit before it saw everything. */
  readonly truncated: boolean;
}

/** The values of every property of `value`, its own and its prototypes' (getters read on `value`), symbols included. */
function propertyValues(value: object): unknown[] {
  const names = new Set<string | symbol>();
  for (
    let o: object | null = value;
    o !== null && o !== Object.prototype && o !== Function.prototype;
    o = Reflect.getPrototypeOf(o)
  ) {
    for (const name of Reflect.ownKeys(o)) names.add(name);
  }
  const values: unknown[] = [];
  for (const name of names) {
    try {
      values.push(Reflect.get(value, name));
    } catch {
      // A getter that throws reveals nothing.
    }
  }
  return values;
}

/**
 * Every string reachable from `root` (properties, getters, Map and Set entries, array items), breadth
 * first, each object once, at most `limit` objects, checked for each needle.
 */
function scanFor(root: unknown, needles: readonly string[], limit = 100_000): Scan {
  const seen = new Set<object>();
  const found = new Set<string>();
  const queue: unknown[] = [root];
  let truncated = false;
  for (let next = 0; next < queue.length; next++) {
    const value = queue[next];
    if (typeof value === 'string') {
      for (const needle of needles) if (value.includes(needle)) found.add(needle);
      continue;
    }
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) continue;
    if (seen.size >= limit) {
      truncated = true;
      break;
    }
    seen.add(value);
    if (value instanceof Map) for (const [k, v] of value) queue.push(k, v);
    if (value instanceof Set) for (const v of value) queue.push(v);
    queue.push(...propertyValues(value));
  }
  return { found: [...found].sort(), visited: seen.size, truncated };
}

suite('exports', () => {
  test(
    'another extension gets no exports of obs-vscode, and no key is reachable from its extension object',
    async () => {
      const seam = await obsSeam();
      await vscode.commands.executeCommand('obs.sandbox.start');
      const info = seam.sandbox.running?.info;
      assert.ok(info, 'the sandbox runs');
      const profile = {
        id: 'conn-exports-test',
        name: 'exports test',
        baseUrl: 'http://127.0.0.1:9',
        uiUrl: 'http://127.0.0.1:9',
        team: 't',
        environmentId: 'e',
      };
      const saved = { configKey: `CK-exports-${Date.now()}-4d2e`, managementKey: `kid:MK-exports-${Date.now()}-8a1f` };
      await seam.connections.setSecrets(profile.id, saved);
      await seam.connections.save(profile);
      try {
        const keys = [saved.configKey, saved.managementKey, info.configKey, info.managementKey];
        // The keys are in this process's memory, and the scan finds them where they are held: in the private
        // fields of a client built for the saved connection, and behind the sandbox handle's getter. (Roots
        // that lead into VS Code's own objects are not scanned: reading every getter there breaks its events.)
        const { client } = await seam.connections.connectionFor(profile.id);
        assert.deepEqual(scanFor(client, keys).found, [saved.configKey, saved.managementKey].sort());
        assert.deepEqual(scanFor(seam.sandbox.running, keys).found, [info.configKey, info.managementKey].sort());

        const ext = vscode.extensions.getExtension(EXTENSION_ID);
        assert.ok(ext?.isActive, 'obs-vscode is active');
        assert.equal(ext.exports, undefined);
        const reachable = scanFor(ext, keys);
        assert.equal(reachable.truncated, false, `the scan stopped after ${reachable.visited} objects`);
        assert.deepEqual(reachable.found, []);
      } finally {
        await seam.connections.remove(profile.id);
        await vscode.commands.executeCommand('obs.sandbox.stop');
      }
    },
    { timeoutMs: 30_000 },
  );
});
