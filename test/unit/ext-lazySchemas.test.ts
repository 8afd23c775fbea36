// Activation builds none of the API's zod schemas (src/api/schemas): the commands that check a value against
// one load them when first run (tree/itemArgs.ts, the slug and column name checks). Read from the built
// bundle activated in the stub host of the activation figures, with zod's object builders counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import * as schemas from '../../src/api/schemas';

const root = join(import.meta.dirname, '..', '..');

/**
 * A module run before the stub host: it hands the bundle a zod (dist/lib-zod.js) whose object builders
 * write down the members of each object built, and writes them to `out` at exit.
 */
const countingZod = (out: string): string => `
const Module = require('node:module');
const load = Module._load;
const built = [];
const counting = (ns) => new Proxy(ns, {
  get(target, key) {
    const value = target[key];
    if (key === 'z' && value && typeof value === 'object') return counting(value);
    if (typeof value !== 'function' || !/^(object|looseObject|strictObject)$/.test(String(key))) return value;
    return (shape, ...rest) => {
      built.push(Object.keys(shape ?? {}).sort().join(','));
      return value(shape, ...rest);
    };
  },
});
Module._load = function (request, ...rest) {
  const real = load.call(this, request, ...rest);
  return request === './lib-zod.js' ? counting(real) : real;
};
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(built)));
`;

/** The members of every object schema zod built while dist/extension.js loaded and activated. */
function objectsBuiltByActivation(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'obs-schemas-'));
  try {
    const hook = join(dir, 'zod.cjs');
    const out = join(dir, 'built.json');
    writeFileSync(hook, countingZod(out));
    const host = join(root, 'bench', 'children', 'activate.cjs');
    const r = spawnSync(process.execPath, ['-r', hook, host, root, join(root, 'dist', 'extension.js')], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(readFileSync(out, 'utf8')) as string[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("activating the extension builds none of the API's object schemas (trigger, burn alert, column...)", () => {
  // `npm test` builds dist/ first. Objects of three members or more: one or two could be anyone's.
  const api = new Map<string, string>();
  for (const [name, value] of Object.entries(schemas) as [string, unknown][]) {
    if (!(value instanceof z.ZodObject)) continue;
    const members = Object.keys(value.shape).sort();
    if (members.length >= 3) api.set(members.join(','), name);
  }
  assert.equal(
    api.get(Object.keys(schemas.Trigger.shape).sort().join(',')),
    'Trigger',
    'the API has its trigger schema',
  );
  const built = objectsBuiltByActivation();
  // The tree's own argument parsers are built at activation: the count sees zod at work.
  assert.ok(built.includes('connectionId,dataset,kind,sloId'), `built: ${built.join(' | ')}`);
  assert.deepEqual(
    built.flatMap((members) => api.get(members) ?? []),
    [],
  );
});
