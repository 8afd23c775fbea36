// Large lists are served from bytes kept per state version, and a --data write serialises the data once
// (no deep copy before it). Work is counted (answers made, element reads), never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { ListCache } from '../../src/sandbox/listCache';
import { json, problem } from '../../src/sandbox/responses';
import { DEMO } from '../../src/sandbox/demoData';
import { call } from './sandbox-helpers';

test('a list answer is made once per version and sources, and a 404 is never kept', () => {
  const lists = new ListCache();
  const source = [1, 2, 3];
  let made = 0;
  const make = () => {
    made++;
    return json(200, source);
  };
  const first = lists.reply('k', [source, source.length], make);
  assert.equal(first.bytes?.toString('utf8'), '[1,2,3]');
  assert.equal(lists.reply('k', [source, source.length], make), first);
  source.push(4);
  assert.equal(lists.reply('k', [source, source.length], make).bytes?.toString('utf8'), '[1,2,3,4]');
  lists.invalidate();
  lists.reply('k', [source, source.length], make);
  assert.equal(made, 3);
  lists.reply('missing', [], () => problem('http://x', 404, 'no'));
  lists.reply('missing', [], () => problem('http://x', 404, 'no'));
  assert.deepEqual(lists.stats, { made: 5, reused: 1 });
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
    const reset = await call(`${sb.info.baseUrl}/__sandbox/reset`, { method: 'POST', headers: { 'X-Sandbox-Token': sb.info.controlToken } });
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
    const res = await call(`${sb.info.baseUrl}/1/burn_alerts/${DEMO.datasets.gateway}/${DEMO.burnAlerts.gwExhaustion}`, {
      method: 'PUT',
      headers: { 'X-Service-Team': sb.info.configKey, 'Content-Type': 'application/json' },
      body: { alert_type: 'exhaustion_time', exhaustion_minutes: 15, description: 'saved once', recipients: [{ id: DEMO.recipients.emailOncall }] },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(reads, columns.length);
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
