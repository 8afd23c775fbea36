// Large lists are served from bytes kept per dataset and kind of list, and a --data write serialises the data once
// (no deep copy before it). Work is counted (answers made, element reads), never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { ListCache, type ListKind } from '../../src/sandbox/listCache';
import { json, problem } from '../../src/sandbox/responses';
import { DEMO } from '../../src/sandbox/demoData';
import { call, serviceWrites } from './sandbox-helpers';

test('a list answer is made once while its sources stay the same, and a 404 is never kept', () => {
  const lists = new ListCache();
  const source = [1, 2, 3];
  let made = 0;
  const make = () => {
    made++;
    return json(200, source);
  };
  const first = lists.reply('columns', 'a', [source, source.length], make);
  assert.equal(first.bytes?.toString('utf8'), '[1,2,3]');
  assert.equal(lists.reply('columns', 'a', [source, source.length], make), first);
  source.push(4);
  assert.equal(lists.reply('columns', 'a', [source, source.length], make).bytes?.toString('utf8'), '[1,2,3,4]');
  lists.clear();
  lists.reply('columns', 'a', [source, source.length], make);
  assert.equal(made, 3);
  let missing = 0;
  const notFound = () => {
    missing++;
    return problem('http://x', 404, 'no');
  };
  lists.reply('columns', 'missing', [], notFound);
  lists.reply('columns', 'missing', [], notFound);
  assert.equal(missing, 2);
});

test("a change to one dataset's list drops that list and the environment-wide one of its kind, nothing else", () => {
  const lists = new ListCache();
  const made: string[] = [];
  const ask = (kind: ListKind, scope: string) =>
    lists.reply(kind, scope, [], () => (made.push(`${kind} ${scope}`), json(200, [])));
  const all: [ListKind, string][] = [
    ['triggers', 'a'],
    ['triggers', 'b'],
    ['triggers', '__all__'],
    ['columns', 'a'],
    ['columns', '__all__'],
  ];
  for (const [kind, scope] of all) ask(kind, scope);
  made.length = 0;
  lists.changed('triggers', 'a');
  for (const [kind, scope] of all) ask(kind, scope);
  assert.deepEqual(made, ['triggers a', 'triggers __all__']);
});

test('the kept answers stay within their byte budget, the least recently used dropped first', () => {
  const lists = new ListCache(100);
  const made: string[] = [];
  const ask = (scope: string) => lists.reply('columns', scope, [], () => (made.push(scope), json(200, 'x'.repeat(38))));
  ask('a');
  ask('b');
  ask('a');
  // 40 bytes each: a third does not fit beside two, so the one used least lately (b) goes.
  ask('c');
  ask('a');
  ask('c');
  ask('b');
  assert.deepEqual(made, ['a', 'b', 'c', 'b']);
  // An answer larger than the whole budget is sent, not kept.
  const big = () => (made.push('big'), json(200, 'x'.repeat(200)));
  lists.reply('columns', 'big', [], big);
  lists.reply('columns', 'big', [], big);
  assert.deepEqual(made.slice(-2), ['big', 'big']);
});

test("a write to one dataset keeps every other dataset's cached lists: none of them is serialised again", async () => {
  const sb = await startSandbox({ rateLimit: 100_000, queryResultRateLimit: 100_000 });
  try {
    // A list is serialised by reading each of its elements: count the reads.
    let reads = 0;
    const counted = <T extends object>(list: T[]): T[] =>
      new Proxy(list, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    // A trigger is serialised by JSON.stringify asking it for toJSON (the write routes of triggers look
    // through the whole list for the one they change, so its element reads would not tell).
    const serialised = <T extends object>(item: T): T =>
      new Proxy(item, {
        get(target, key, receiver) {
          if (key === 'toJSON') reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    const other = DEMO.datasets.checkout;
    sb.state.columns[other] = counted(sb.state.columns[other] ?? []);
    sb.state.triggers = sb.state.triggers.map((t) => (t.dataset_slug === other ? serialised(t) : t));
    const headers = { 'X-Service-Team': sb.info.configKey };
    const readLists = async () => {
      for (const list of ['columns', 'triggers'])
        assert.equal((await call(`${sb.info.baseUrl}/1/${list}/${other}`, { headers })).status, 200);
    };
    await readLists();
    const once = reads;
    assert.ok(once > 0);
    for (const write of serviceWrites()) {
      const res = await call(`${sb.info.baseUrl}${write.path}`, {
        method: write.method,
        body: write.body,
        headers:
          write.api === 'v1'
            ? { ...headers, 'Content-Type': 'application/json' }
            : { Authorization: `Bearer ${sb.info.managementKey}`, 'Content-Type': 'application/vnd.api+json' },
      });
      assert.ok(res.status < 300, `${write.method} ${write.path}: ${res.status} ${res.text}`);
    }
    await readLists();
    assert.equal(reads - once, 0, 'elements read again');
  } finally {
    await sb.close();
  }
});

test('GET /1/triggers answers what a write changed, and a direct change of handle.state that replaces the list', async () => {
  const sb = await startSandbox({ rateLimit: 100_000 });
  try {
    const url = `${sb.info.baseUrl}/1/triggers/__all__`;
    const headers = { 'X-Service-Team': sb.info.configKey };
    const count = async () => ((await call(url, { headers })).json() as unknown[]).length;
    const all = sb.state.triggers.length;
    assert.equal(await count(), all);
    assert.equal(await count(), all);
    sb.state.triggers = sb.state.triggers.slice(1);
    assert.equal(await count(), all - 1);
    const reset = await call(`${sb.info.baseUrl}/__sandbox/reset`, {
      method: 'POST',
      headers: { 'X-Sandbox-Token': sb.info.controlToken },
    });
    assert.equal(reset.status, 200);
    assert.equal(await count(), all);
  } finally {
    await sb.close();
  }
});

test('a write with --data reads the data once, to write the file: no copy before it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obs-lists-'));
  const sb = await startSandbox({ dataFile: join(dir, 'data.json'), rateLimit: 100_000 });
  try {
    let reads = 0;
    const columns = sb.state.columns[DEMO.datasets.gateway] ?? [];
    sb.state.columns[DEMO.datasets.gateway] = new Proxy(columns, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const res = await call(
      `${sb.info.baseUrl}/1/burn_alerts/${DEMO.datasets.gateway}/${DEMO.burnAlerts.gwExhaustion}`,
      {
        method: 'PUT',
        headers: { 'X-Service-Team': sb.info.configKey, 'Content-Type': 'application/json' },
        body: {
          alert_type: 'exhaustion_time',
          exhaustion_minutes: 15,
          description: 'saved once',
          recipients: [{ id: DEMO.recipients.emailOncall }],
        },
      },
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(reads, columns.length);
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
