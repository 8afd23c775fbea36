// obs reads the files of a command line ahead of their use: a bounded number at once, within a byte
// budget, each handed over in the order given (a file of 256 KiB or less is read at once: cli-lint-reads.test.ts).
// Counted, never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { READ_AHEAD, readAhead } from '../../src/cli/readAhead';
import { runMain } from '../../src/cli/main';
import { SMALL_FILE_BYTES } from '../../src/cli/read';

/** Reads that finish when the test says, counting how many are under way at once. */
function controlledReads() {
  const pending = new Map<number, () => void>();
  const counts = { inFlight: 0, most: 0, started: [] as number[] };
  const read = async (item: number, admit: (size: number) => Promise<void>, size = 1): Promise<number> => {
    counts.started.push(item);
    counts.inFlight++;
    counts.most = Math.max(counts.most, counts.inFlight);
    await admit(size);
    await new Promise<void>((resolve) => pending.set(item, resolve));
    counts.inFlight--;
    return item * 10;
  };
  /** Lets the reads under way finish, the latest first. */
  const finishSome = async () => {
    for (const item of [...pending.keys()].sort((a, b) => b - a)) {
      pending.get(item)?.();
      pending.delete(item);
    }
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { read, counts, finishSome, pending };
}

test('100 items are read with at most 8 at once, 8 at once indeed, and used in the order given though they finish last first', async () => {
  const items = Array.from({ length: 100 }, (_, i) => i);
  const { read, counts, finishSome } = controlledReads();
  const used: number[] = [];
  const done = readAhead(items, { concurrency: 8, budget: 1_000 }, read, (r, i) => used.push(r, i));
  let ended = false;
  void done.then(() => (ended = true));
  while (!ended) await finishSome();
  assert.equal(counts.most, 8);
  assert.deepEqual(
    used,
    items.flatMap((i) => [i * 10, i]),
  );
});

test('items are let in within the byte budget, and one over the budget alone', async () => {
  // Sizes in bytes, budget 10: 4 + 4 fit, then 4 waits for room; 30 waits until nothing is held, then goes alone.
  const sizes = [4, 4, 4, 30, 1, 1];
  const held: number[] = [];
  let letIn = 0;
  let used = 0;
  const read = async (item: number, admit: (size: number) => Promise<void>) => {
    await admit(sizes[item] ?? 0);
    letIn += sizes[item] ?? 0;
    held.push(letIn - used);
    return sizes[item] ?? 0;
  };
  const order: number[] = [];
  await readAhead(
    sizes.map((_, i) => i),
    { concurrency: 8, budget: 10 },
    read,
    (size, i) => {
      order.push(i);
      used += size;
    },
  );
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5]);
  // Never more than the budget held, but for the file over it, held alone.
  assert.deepEqual(held, [4, 8, 8, 30, 1, 2]);
});

test('a read that ends before its size is known does not hold up the items after it, and its failure is thrown at its turn', async () => {
  const used: number[] = [];
  const read = async (item: number, admit: (size: number) => Promise<void>) => {
    if (item === 1) throw new Error('item 1 could not be read');
    if (item !== 0) await admit(1);
    return item;
  };
  await assert.rejects(
    readAhead([0, 1, 2, 3], READ_AHEAD, read, (r) => used.push(r)),
    /item 1 could not be read/,
  );
  assert.deepEqual(used, [0]);
});

test('obs lint reads 40 files past 256 KiB with 8 opened at once, and reports them in the order given', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obs-read-ahead-'));
  const open = fsp.open;
  let inFlight = 0;
  let most = 0;
  try {
    const files = Array.from({ length: 40 }, (_, i) => `t${i}.json`);
    files.forEach((f, i) =>
      writeFileSync(
        join(dir, f),
        JSON.stringify({
          name: `t${i}`,
          threshold: { op: '>', value: 1 },
          frequency: i === 7 ? 61 : 900,
          query: { calculations: [{ op: 'COUNT' }], time_range: 1800 },
        }) + ' '.repeat(SMALL_FILE_BYTES),
      ),
    );
    // Every open waits a moment, so that the reads obs has under way overlap (and are counted).
    fsp.open = (async (...args: Parameters<typeof open>) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      try {
        return await open(...args);
      } finally {
        inFlight--;
      }
    }) as typeof open;
    const given = [...files].reverse();
    let stdout = '';
    const code = await runMain(['lint', '--format', 'json', ...given], {
      cwd: dir,
      stdout: (t) => (stdout += t),
      stderr: () => undefined,
    });
    assert.equal(code, 1);
    const report = JSON.parse(stdout) as { file: string; diagnostics: { rule: string }[] }[];
    assert.deepEqual(
      report.map((r) => r.file),
      given,
    );
    assert.deepEqual(
      report.find((r) => r.file === 't7.json')?.diagnostics.map((d) => d.rule),
      ['trigger/frequency'],
    );
    assert.equal(most, READ_AHEAD.concurrency);
  } finally {
    fsp.open = open;
    rmSync(dir, { recursive: true, force: true });
  }
});
