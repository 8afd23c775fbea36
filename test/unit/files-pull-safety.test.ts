// Pull on a real disk never replaces what it finds at a path and never writes outside the folder pulled
// into: links (to a file inside, outside, or nowhere), folders in the way, files that appear while it
// runs, dataset folders that are links; and it removes only its own stale temporary files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  truncateSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  APPEARED,
  applyPull,
  planPull,
  pullSummary,
  scanExisting,
  triggerFileText,
  type PullItem,
  type ServiceTrigger,
} from '../../src/triggerFiles';
import { nodeFileSystem, STALE_TEMP_MS } from '../../src/triggerFiles/nodeFs';

const trig = (id: string, name: string): ServiceTrigger => ({
  id,
  name,
  dataset_slug: 'api',
  threshold: { op: '>', value: 1 },
  query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
});
const item = (t: ServiceTrigger): PullItem => ({ dataset: 'api', trigger: t });
const edited = (t: ServiceTrigger) => triggerFileText({ ...t, threshold: { op: '>', value: 99 } });
const approveAll = { approve: (u: { path: string }[]) => Promise.resolve(new Set(u.map((x) => x.path))) };
const approveNone = { approve: () => Promise.resolve(new Set<string>()) };

let dir = '';
/** A fresh temporary folder holding `root` (the pull folder, with its `api` folder) and `outside` beside it. */
function fresh(): { root: string; outside: string } {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-pull-safety-'));
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  mkdirSync(join(root, 'api'), { recursive: true });
  mkdirSync(outside);
  return { root, outside };
}
test.after(() => rmSync(dir, { recursive: true, force: true }));

async function pull(root: string, items: PullItem[], o: typeof approveAll | typeof approveNone) {
  const plan = planPull(items, await scanExisting(nodeFileSystem, root, items));
  return { plan, report: await applyPull(nodeFileSystem, root, plan, o) };
}

test('a link to a file that differs is compared like a regular file: skipped unless approved, the link kept', async () => {
  const { root } = fresh();
  const t = trig('t1', 'Errors');
  writeFileSync(join(root, 'api', 'mine.json'), edited(t));
  symlinkSync('mine.json', join(root, 'api', 'Errors.trigger.json'));
  const { plan, report } = await pull(root, [item(t)], approveNone);
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path, a.kind === 'update' ? a.linkTo : undefined]),
    [['update', 'api/Errors.trigger.json', 'api/mine.json']],
  );
  assert.deepEqual(
    [report.created, report.skipped],
    [[], [{ path: 'api/Errors.trigger.json', reason: 'it differs from the service' }]],
  );
  assert.equal(readlinkSync(join(root, 'api', 'Errors.trigger.json')), 'mine.json');
  assert.equal(readFileSync(join(root, 'api', 'mine.json'), 'utf8'), edited(t));
});

test('an approved update of a link inside the pull folder writes the file it leads to and keeps the link', async () => {
  const { root } = fresh();
  const t = trig('t1', 'Errors');
  writeFileSync(join(root, 'api', 'mine.json'), edited(t));
  symlinkSync('mine.json', join(root, 'api', 'Errors.trigger.json'));
  const { report } = await pull(root, [item(t)], approveAll);
  assert.deepEqual(report.updated, ['api/Errors.trigger.json']);
  assert.ok(lstatSync(join(root, 'api', 'Errors.trigger.json')).isSymbolicLink());
  assert.equal(readFileSync(join(root, 'api', 'mine.json'), 'utf8'), triggerFileText(t));
});

test('a link leading outside the pull folder is never read through or written, even when approved', async () => {
  const { root, outside } = fresh();
  const t = trig('t1', 'Errors');
  writeFileSync(join(outside, 'target.json'), 'not mine to touch');
  symlinkSync(join(outside, 'target.json'), join(root, 'api', 'Errors.trigger.json'));
  const { report } = await pull(root, [item(t)], approveAll);
  assert.deepEqual([report.created, report.updated], [[], []]);
  assert.equal(report.failed.length, 1);
  assert.equal(report.failed[0]?.path, 'api/Errors.trigger.json');
  assert.match(
    report.failed[0]?.message ?? '',
    /^it is a link leading outside the folder pulled into \(to .*\/outside\/target\.json\)$/,
  );
  assert.equal(readFileSync(join(outside, 'target.json'), 'utf8'), 'not mine to touch');
});

test("a link leading nowhere and a folder at a trigger's path are named and left alone, nothing created through them", async () => {
  const { root, outside } = fresh();
  symlinkSync(join(outside, 'missing.json'), join(root, 'api', 'Errors.trigger.json'));
  mkdirSync(join(root, 'api', 'Latency.trigger.json'));
  const { report } = await pull(root, [item(trig('t1', 'Errors')), item(trig('t2', 'Latency'))], approveAll);
  assert.deepEqual(report.failed, [
    { path: 'api/Errors.trigger.json', message: 'it is a link to a file that does not exist' },
    { path: 'api/Latency.trigger.json', message: 'a folder is in the way' },
  ]);
  assert.deepEqual(report.created, []);
  assert.deepEqual(readdirSync(outside), [], 'nothing was created where the link leads');
  assert.deepEqual(readdirSync(join(root, 'api', 'Latency.trigger.json')), []);
});

test("a file, a link or a folder that appears at a new file's path after the pull looked is never replaced: the write fails and says why", async () => {
  const { root, outside } = fresh();
  const items = [item(trig('t1', 'A')), item(trig('t2', 'B')), item(trig('t3', 'C'))];
  const plan = planPull(items, await scanExisting(nodeFileSystem, root, items));
  assert.deepEqual(
    plan.map((a) => a.kind),
    ['create', 'create', 'create'],
  );
  writeFileSync(join(root, 'api', 'A.trigger.json'), 'written meanwhile');
  symlinkSync(join(outside, 'nowhere.json'), join(root, 'api', 'B.trigger.json'));
  mkdirSync(join(root, 'api', 'C.trigger.json'));
  const report = await applyPull(nodeFileSystem, root, plan, approveAll);
  assert.deepEqual(report.created, []);
  assert.deepEqual(
    report.failed,
    ['A', 'B', 'C'].map((n) => ({ path: `api/${n}.trigger.json`, message: APPEARED })),
  );
  assert.equal(readFileSync(join(root, 'api', 'A.trigger.json'), 'utf8'), 'written meanwhile');
  assert.deepEqual(readdirSync(outside), []);
  assert.deepEqual(
    readdirSync(join(root, 'api')).sort(),
    ['A.trigger.json', 'B.trigger.json', 'C.trigger.json'],
    'no temporary file is left behind',
  );
});

test('a dataset folder that is a link leading outside the pull folder is refused for every trigger of it, and nothing is read or written there', async () => {
  const { root, outside } = fresh();
  rmSync(join(root, 'api'), { recursive: true });
  symlinkSync(outside, join(root, 'api'));
  const t = trig('t1', 'Errors');
  writeFileSync(join(outside, 'Errors.trigger.json'), edited(t));
  const items = [item(t), item(trig('t2', 'Latency'))];
  const existing = await scanExisting(nodeFileSystem, root, items);
  assert.equal(existing.length, 1);
  assert.equal(existing[0]?.text, undefined, 'the file beyond the link is not read');
  const report = await applyPull(nodeFileSystem, root, planPull(items, existing), approveAll);
  assert.deepEqual(
    report.failed.map((f) => f.path),
    ['api/Errors.trigger.json', 'api/Latency.trigger.json'],
  );
  for (const f of report.failed)
    assert.match(
      f.message,
      /^the folder api is a link leading outside the folder pulled into \(to .*\/outside\); pull writes only inside it$/,
    );
  assert.deepEqual(readdirSync(outside), ['Errors.trigger.json']);
  assert.equal(readFileSync(join(outside, 'Errors.trigger.json'), 'utf8'), edited(t));
});

test('a dataset folder swapped for a link leading outside after the pull looked gets no write', async () => {
  const { root, outside } = fresh();
  const items = [item(trig('t1', 'A'))];
  const plan = planPull(items, await scanExisting(nodeFileSystem, root, items));
  rmSync(join(root, 'api'), { recursive: true });
  symlinkSync(outside, join(root, 'api'));
  const report = await applyPull(nodeFileSystem, root, plan, approveAll);
  assert.deepEqual(report.created, []);
  assert.match(
    report.failed[0]?.message ?? '',
    /^it leads outside the folder pulled into \(to .*\/outside\/A\.trigger\.json\); pull writes only inside it$/,
  );
  assert.deepEqual(readdirSync(outside), []);
});

test('a dataset folder that is a link inside the pull folder is written through', async () => {
  const { root } = fresh();
  rmSync(join(root, 'api'), { recursive: true });
  mkdirSync(join(root, 'shared'));
  symlinkSync('shared', join(root, 'api'));
  const { report } = await pull(root, [item(trig('t1', 'A'))], approveAll);
  assert.deepEqual(report.created, ['api/A.trigger.json']);
  assert.ok(existsSync(join(root, 'shared', 'A.trigger.json')));
});

test('stale temporary files of interrupted pulls are removed from the folders pulled into, only those of its exact pattern and only once old', async () => {
  const { root } = fresh();
  mkdirSync(join(root, 'other'));
  const old = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
  const files = {
    stale: join(root, 'api', 'Errors.trigger.json.0a1b2c3d.tmp'),
    young: join(root, 'api', 'Errors.trigger.json.89abcdef.tmp'),
    upperHex: join(root, 'api', 'Errors.trigger.json.0A1B2C3D.tmp'),
    notOurs: join(root, 'api', 'notes.0a1b2c3d.tmp'),
    otherFolder: join(root, 'other', 'X.trigger.json.0a1b2c3d.tmp'),
  };
  for (const f of Object.values(files)) writeFileSync(f, '{"half": ');
  for (const [k, f] of Object.entries(files)) if (k !== 'young') utimesSync(f, old, old);
  const linkLike = join(root, 'api', 'Link.trigger.json.00000000.tmp');
  symlinkSync(files.notOurs, linkLike);
  lutimesSync(linkLike, old, old);
  const { report } = await pull(root, [item(trig('t1', 'Errors'))], approveAll);
  assert.deepEqual(report.removed, ['api/Errors.trigger.json.0a1b2c3d.tmp']);
  assert.equal(existsSync(files.stale), false);
  for (const [k, f] of Object.entries(files)) if (k !== 'stale') assert.ok(existsSync(f), `${k} is kept`);
  assert.ok(lstatSync(linkLike).isSymbolicLink(), 'a link is never removed');
  assert.equal(pullSummary(report), '1 written, 0 unchanged, 0 skipped, 1 stale temporary file removed');
});

test('a link to a FIFO inside the pull folder is refused at once, never read (reading it would wait forever)', async () => {
  const { root } = fresh();
  const t = trig('t1', 'Errors');
  execFileSync('mkfifo', [join(root, 'fifo')]);
  symlinkSync('../fifo', join(root, 'api', 'Errors.trigger.json'));
  const { plan, report } = await pull(root, [item(t)], approveAll);
  assert.deepEqual(
    plan.map((a) => a.kind),
    ['refused'],
  );
  assert.match(report.failed[0]?.message ?? '', /is not a regular file \(a device, FIFO or socket\)/);
});

test('a trigger file past 64 MiB is refused unread, not held in memory', async () => {
  const { root } = fresh();
  const t = trig('t1', 'Errors');
  const big = join(root, 'api', 'Errors.trigger.json');
  writeFileSync(big, '');
  truncateSync(big, 64 * 1024 * 1024 + 1);
  const { plan } = await pull(root, [item(t)], approveAll);
  assert.deepEqual(
    plan.map((a) => a.kind),
    ['refused'],
  );
  assert.match(
    plan[0]?.kind === 'refused' ? plan[0].reason : '',
    /is larger than 64 MiB, the most read of a trigger file/,
  );
});
