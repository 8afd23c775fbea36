// One sandbox per --data file, also when two start at once over a lock left by a killed sandbox: taking
// over a stale lock is atomic, so exactly one of them gets the file. A lock or takeover claim is never seen
// half-written by another process (an empty lock names no process: it would pass for a stale one).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockDataFile } from '../../src/sandbox/dataFileLock';
import { DataFileError } from '../../src/sandbox/persistence';

const WORKER = join(import.meta.dirname, 'sandbox-lock-worker.ts');
const TRIALS = 60;
const STALE_ID = '00000000000000aa';
const CLAIM_ID = '00000000000000bb';
/** Takeovers a reader watches: each makes a claim and a lock. */
const WATCHED = 500;

/**
 * Reads a lock and a claim over and over (synchronously, as often as it can) until `stop` exists, then prints
 * how many reads found each whole and how many found either in any other state, with the first such text.
 */
const READER = `
const fs = require('node:fs');
const [lock, claim, stop] = process.argv.slice(1);
const whole = /^\\{"pid":\\d+,"id":"[0-9a-f]{16}"\\}\\n$/;
const seen = { lock: 0, claim: 0, torn: 0, example: undefined };
process.stdout.write('ready\\n');
while (!fs.existsSync(stop)) {
  for (const [name, path] of [['lock', lock], ['claim', claim]]) {
    let text;
    try { text = fs.readFileSync(path, 'utf8'); } catch { continue; }
    if (whole.test(text)) seen[name]++;
    else { seen.torn++; seen.example ??= text; }
  }
}
process.stdout.write(JSON.stringify(seen));
`;

let dir: string;
let workers: ChildProcess[] = [];

function ask(worker: ChildProcess, command: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (answer) => {
      worker.off('error', reject);
      resolve(answer as Record<string, unknown>);
    });
    worker.send(command as object);
  });
}

/** The id of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  const pid = child.pid;
  await new Promise((resolve) => child.on('exit', resolve));
  assert.ok(pid !== undefined);
  return pid;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obs-sandbox-lock-race-'));
  workers = [0, 1].map(() =>
    fork(WORKER, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  // Both are ready once they answer.
  await Promise.all(workers.map((w) => ask(w, { kind: 'release' })));
});

after(async () => {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise((resolve) => {
          w.once('exit', resolve);
          w.send({ kind: 'exit' });
        }),
    ),
  );
  await rm(dir, { recursive: true, force: true });
});

test(`two sandboxes taking over a stale lock at once: exactly one gets the file, ${TRIALS} times out of ${TRIALS}`, async () => {
  const dead = await deadPid();
  const outcomes: string[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    const file = join(dir, `race-${trial}.json`);
    if (trial % 2 === 0) {
      // A lock as an earlier version wrote it.
      await writeFile(`${file}.lock`, `${JSON.stringify({ pid: dead })}\n`);
    } else {
      // A lock, and the claim of a takeover whose process died before finishing it.
      await writeFile(`${file}.lock`, `${JSON.stringify({ pid: dead, id: STALE_ID })}\n`);
      await writeFile(`${file}.lock.takeover-${STALE_ID}`, `${JSON.stringify({ pid: dead, id: CLAIM_ID })}\n`);
    }
    const answers = await Promise.all(workers.map((w) => ask(w, { kind: 'take', file })));
    const won = answers.filter((a) => a.won === true).length;
    const refused = answers.filter(
      (a) => a.won === false && /is in use by another sandbox/.test(String(a.reason)),
    ).length;
    outcomes.push(`${won} won, ${refused} told the file is in use`);
    await Promise.all(workers.map((w) => ask(w, { kind: 'release' })));
  }
  assert.deepEqual(outcomes, Array<string>(TRIALS).fill('1 won, 1 told the file is in use'));
  // Nothing is left behind: each winner removed its lock, and no takeover left a file.
  assert.deepEqual(
    (await readdir(dir)).filter((f) => f.includes('.lock')),
    [],
  );
});

describe('what a sandbox killed while taking a lock leaves behind does not block the next one', () => {
  test('a claim of an unfinished takeover: the lock is taken over, and the claim removed', async () => {
    const file = join(dir, 'claimed.json');
    const dead = await deadPid();
    await writeFile(`${file}.lock`, `${JSON.stringify({ pid: dead, id: STALE_ID })}\n`);
    await writeFile(`${file}.lock.takeover-${STALE_ID}`, `${JSON.stringify({ pid: dead, id: CLAIM_ID })}\n`);
    const lock = await lockDataFile(file);
    assert.deepEqual(await lockFiles('claimed'), ['claimed.json.lock']);
    await lock.release();
    assert.deepEqual(await lockFiles('claimed'), []);
  });

  test('a claim left after the stale lock was removed: the lock is made, the claim removed', async () => {
    const file = join(dir, 'orphan.json');
    await writeFile(`${file}.lock.takeover-${STALE_ID}`, `${JSON.stringify({ pid: await deadPid(), id: CLAIM_ID })}\n`);
    const lock = await lockDataFile(file);
    assert.deepEqual(await lockFiles('orphan'), ['orphan.json.lock']);
    await lock.release();
  });

  test("a dead process's private copy of a lock it was making is removed; a live process's is kept", async () => {
    const file = join(dir, 'copies.json');
    const deadCopy = `copies.json.lock.${await deadPid()}.${CLAIM_ID}.new`;
    const liveCopy = `copies.json.lock.${process.ppid}.${CLAIM_ID}.new`;
    for (const name of [deadCopy, liveCopy]) await writeFile(join(dir, name), '{}');
    const lock = await lockDataFile(file);
    assert.deepEqual(await lockFiles('copies'), ['copies.json.lock', liveCopy].sort());
    await lock.release();
  });

  test('a lock held by a live process is refused, and nothing is removed', async () => {
    const file = join(dir, 'live.json');
    const held = await lockDataFile(file);
    try {
      await assert.rejects(
        lockDataFile(file),
        (err: unknown) => err instanceof DataFileError && err.kind === 'data-file-in-use',
      );
      assert.deepEqual(await lockFiles('live'), ['live.json.lock']);
    } finally {
      await held.release();
    }
  });
});

test(`a lock and its takeover claim are never seen half-written: ${WATCHED} takeovers watched by a reader in another process`, async () => {
  const file = join(dir, 'watched.json');
  const lock = `${file}.lock`;
  const stop = join(dir, 'watched.stop');
  const reader = spawn(process.execPath, ['-e', READER, lock, `${lock}.takeover-${STALE_ID}`, stop], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  reader.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise((resolve) => reader.on('exit', resolve));
  while (!out.startsWith('ready\n') && reader.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(out.startsWith('ready\n'), 'the reader started');

  const stale = `${JSON.stringify({ pid: await deadPid(), id: STALE_ID })}\n`;
  for (let i = 0; i < WATCHED; i++) {
    // The stale lock is renamed into place whole, so whatever the reader finds torn was written by the sandbox.
    await writeFile(`${file}.stale`, stale);
    await rename(`${file}.stale`, lock);
    const held = await lockDataFile(file);
    await held.release();
  }
  await writeFile(stop, '');
  await exited;

  const seen = JSON.parse(out.slice('ready\n'.length)) as {
    lock: number;
    claim: number;
    torn: number;
    example?: string;
  };
  assert.equal(
    seen.torn,
    0,
    `${seen.torn} reads found a lock or claim not whole, e.g. ${JSON.stringify(seen.example)}`,
  );
  assert.ok(seen.lock > 0 && seen.claim > 0, `the reader saw ${seen.lock} whole locks and ${seen.claim} whole claims`);
});

async function lockFiles(prefix: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.startsWith(prefix) && f.includes('.lock')).sort();
}
