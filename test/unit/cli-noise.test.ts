// obs noise against the sandbox: the demo's "High error rate" counted as obs test's at-most counts it over the
// same window, each exit status (0 within the budget, 1 over it, 2 trouble), the formats, and the agents'
// obs_noise, whose second report over the same triggers creates no query result (counted by the service).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTool } from '../../src/agentTools';
import { mcpHost } from '../../src/cli/mcpHost';
import { DEMO_TESTS as TESTS, DEMO_TRIGGER as TRIGGER, demoFolder } from './demo-folder';

const demo = demoFolder('obs-noise-');
const { run } = demo;

const created = () =>
  demo.sandbox.handle.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/')).length;

interface JsonTrigger {
  name: string;
  status: string;
  from: string;
  to: string;
  notifications: number;
  suggestions?: { member: string; value: number; notifications: number }[];
}

describe('obs noise', () => {
  test("its count is obs test's at-most count over the same window", async () => {
    const r = await run(['noise', '--format', 'json', '--budget', '1000']);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { over: number; within: number; triggers: JsonTrigger[] };
    const t = report.triggers[0];
    assert.ok(t !== undefined && report.triggers.length === 1);
    assert.deepEqual([report.over, report.within, t.name, t.status], [0, 1, 'High error rate', 'within']);
    writeFileSync(
      join(demo.dir, TESTS),
      JSON.stringify({
        expectations: [
          { name: 'as obs noise', expect: 'at-most', notifications: t.notifications, from: t.from, to: t.to },
        ],
      }),
    );
    const tested = await run(['test', TESTS]);
    assert.equal(tested.code, 0, tested.stdout);
    assert.match(tested.stdout, new RegExp(`sent ${t.notifications} notifications? \\(on_change\\)`));
  });

  test('over the budget: exit 1, the trigger OVER with the suggested threshold, checked against its tests', async () => {
    const r = await run(['noise', '--budget', '1', 'triggers']);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(
      lines[0] ?? '',
      /^OVER +\d+ {2}"High error rate" \(triggers\/api-gateway\/High-error-rate\.trigger\.json\) on api-gateway$/,
    );
    assert.ok(
      lines.some((l) =>
        /^ +suggested: threshold > \d+ \(now > 5\): 1 notification$|no quieter threshold or exceeded_limit within 1 notification still fires in "catches the error bursts of the last day"/.test(
          l,
        ),
      ),
      r.stdout,
    );
    assert.equal(
      lines.at(-2),
      '1 trigger over the last 7 days, budget 1 notification: 1 over, 0 within, 0 not evaluated',
    );
  });

  test('a disabled trigger is counted as if enabled, and says so as obs test does', async () => {
    const file = join(demo.dir, TRIGGER);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^\{/, '{\n  "disabled": true,'));
    const r = await run(['noise', '--format', 'json', '--budget', '1000', TRIGGER]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { triggers: (JsonTrigger & { notes: string[] })[] };
    assert.deepEqual(
      report.triggers[0]?.notes[0],
      'The trigger is disabled: the service does not evaluate it; it was evaluated as if enabled.',
    );
  });

  test('a trigger that cannot be evaluated: listed NOT EVALUATED with why, exit 2', async () => {
    writeFileSync(join(demo.dir, 'triggers', 'api-gateway', 'Broken.trigger.json'), '{ "name": ');
    const r = await run(['noise', '--budget', '1000']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stdout, /^NOT EVALUATED +triggers\/api-gateway\/Broken\.trigger\.json: the file is not valid JSON/m);
  });

  test('Markdown: a table for a job summary, one row per trigger', async () => {
    const r = await run(['noise', '--format', 'markdown', '--days', '2', '--budget', '1000']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^### Trigger noise\n\n1 trigger over the last 2 days, budget 1,000 notifications: 0 over, 1 within, 0 not evaluated\.\n\n\| \| Notifications \| Trigger \| File \| Flaps \| Per day \|\n\|---\|---:\|---\|---\|---:\|---\|\n\| within \| \d+ \| High error rate \| triggers\/api-gateway\/High-error-rate\.trigger\.json \| \d+ \| /,
    );
  });

  test('bad options and no service are usage trouble: exit 2, naming what was wrong', async () => {
    const days = await run(['noise', '--days', '8']);
    assert.deepEqual(
      [days.code, days.stderr.split('\n')[0]],
      [2, 'obs: --days needs a whole number from 1 to 7, got "8"'],
    );
    const format = await run(['noise', '--format', 'sarif']);
    assert.deepEqual(
      [format.code, format.stderr.split('\n')[0]],
      [2, 'obs: unknown format "sarif"; use text, json or markdown'],
    );
    const none = await run(['noise'], { env: {} });
    assert.deepEqual(
      [none.code, none.stderr],
      [
        2,
        "obs: set OBS_BASE_URL and OBS_CONFIG_KEY in the environment: the service's address and a configuration key are read from there only\n",
      ],
    );
  });
});

describe('obs_noise', () => {
  test("a second report over the same triggers creates no query result: the server's session keeps them", async () => {
    const host = mcpHost({ cwd: demo.dir, env: demo.env });
    try {
      const before = created();
      const first = await runTool('obs_noise', { budget: 1000 }, host, new AbortController().signal);
      assert.ok(first.ok, first.text);
      const made = created() - before;
      assert.equal(made, 3);
      const second = await runTool('obs_noise', { budget: 1000 }, host, new AbortController().signal);
      assert.deepEqual([second.ok && second.result, created() - before], [first.result, 3]);
      assert.deepEqual(
        (first.result.triggers as JsonTrigger[]).map((t) => [t.name, t.status]),
        [['High error rate', 'within']],
      );
    } finally {
      await host.close();
    }
  });
});
