// `obs mcp` as an agent meets it: the built dist/cli.js spawned by the MCP SDK's own client over stdio, with
// the service named in its environment (a sandbox started here) and a folder of trigger files. The tools
// listed are the agent tools and nothing that writes, with annotations that say what each does to the
// service and the schema of its answer; each answers bounded JSON, as text and as structured content the
// client checks against that schema; no answer holds a key or a recipient's credentials; a bad input is an
// error answer with its message, and the server goes on. --toolsets and OBS_MCP_TOOLSETS choose the tools. A
// message over 10 MiB is refused with an error answer (to its request when its id can be read) and a line on
// stderr, and the server reads the next one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LIMITS, READ_TOOL_NAMES, runTool, TOOLS } from '../../src/agentTools';
import { jsonText } from '../../src/agentTools/answer';
import { runMain } from '../../src/cli/main';
import { ENV_TRIGGER_FOLDER, mcpHost } from '../../src/cli/mcpHost';
import { LineTransport, MAX_MESSAGE_BYTES } from '../../src/cli/mcpStdio';
import { DEMO, RECIPIENT_SECRETS, SANDBOX_CREDENTIALS } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'dist', 'cli.js');
const skip = existsSync(bundle) ? false : 'dist/cli.js is not built (npm test builds it)';

let sandbox: TestSandbox;
let dir = '';
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
/** Every text the server answered, for the scan for secrets. */
const answers: string[] = [];
const protocolErrors: unknown[] = [];

/** A trigger of the gateway whose recipient carries a secret-looking variable: only its id, type and target may come back. */
async function addTriggerWithSecretDetails(): Promise<void> {
  const res = await sandbox.v1('POST', `/1/triggers/${DEMO.datasets.gateway}`, {
    name: 'Webhook with variables',
    frequency: 900,
    threshold: { op: '>', value: 10 },
    query: { time_range: 900, calculations: [{ op: 'COUNT' }] },
    recipients: [
      {
        id: DEMO.recipients.webhookOps,
        details: { variables: [{ name: 'auth', value: RECIPIENT_SECRETS.webhookHeader }] },
      },
      { id: DEMO.recipients.pagerdutyPrimary },
    ],
  });
  assert.equal(res.status, 201, res.text);
}

before(async () => {
  if (skip !== false) return;
  sandbox = await startTestSandbox();
  await addTriggerWithSecretDetails();
  dir = mkdtempSync(join(tmpdir(), 'obs-mcp-'));
  const env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
  const pulled = await runMain(['pull', '--dataset', DEMO.datasets.gateway], {
    cwd: dir,
    env,
    stdout: () => undefined,
    stderr: (t) => (stderr += t),
  });
  assert.equal(pulled, 0, stderr);
  // 300 triggers with lint errors in one file: a plan blocks each, a lint finds more than 50 problems.
  mkdirSync(join(dir, 'bulk'));
  const bulk = Array.from({ length: 300 }, (_, i) => ({
    name: `Broken ${i}`,
    dataset_slug: DEMO.datasets.gateway,
    frequency: 1,
  }));
  writeFileSync(join(dir, 'bulk', 'many.trigger.json'), JSON.stringify(bulk, null, 2));
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, 'mcp'],
    env: { ...env, PATH: process.env.PATH ?? '' },
    cwd: dir,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  client = new Client({ name: 'obs-test', version: '1.0.0' });
  client.onerror = (e) => protocolErrors.push(e);
  await client.connect(transport);
  // The client checks each answer's structured content against the output schema of the tools it listed.
  await client.listTools();
});

after(async () => {
  if (skip !== false) return;
  await client.close();
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Called {
  isError: boolean;
  text: string;
}

/** A call's one text answer; a success's structured content is the same JSON (the client checked it against the output schema). */
async function call(name: string, args: Record<string, unknown>, on: Client = client): Promise<Called> {
  const r = await on.callTool({ name, arguments: args });
  const content = r.content as { type: string; text?: string }[];
  assert.equal(content.length, 1);
  assert.equal(content[0]?.type, 'text');
  const text = content[0]?.text ?? '';
  answers.push(text);
  if (r.isError === true) assert.equal(r.structuredContent, undefined, name);
  else assert.deepEqual(r.structuredContent, JSON.parse(text), name);
  return { isError: r.isError === true, text };
}

async function json(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await call(name, args);
  assert.equal(r.isError, false, r.text);
  assert.ok(r.text.length <= LIMITS.answer, `${name} answered ${r.text.length} characters`);
  return JSON.parse(r.text) as Record<string, unknown>;
}

/** The server still answers: a plain call right after. */
async function stillServing(): Promise<void> {
  const r = await json('obs_list_datasets', { limit: 1 });
  assert.equal(r.returned, 1);
}

/** The annotations MCP's hints give what each tool does: previews, queries and the noise report create query results. */
const CREATES_QUERY_RESULTS = ['obs_preview_trigger', 'obs_run_query', 'obs_noise'];

test(
  'the server lists the agent tools, each with its input and output schemas and annotations that say what it does, and no tool that writes',
  { skip },
  async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOLS.map((t) => t.name),
    );
    assert.deepEqual(
      tools.filter((t) => !(READ_TOOL_NAMES as readonly string[]).includes(t.name)),
      [],
    );
    for (const t of tools) {
      const creates = CREATES_QUERY_RESULTS.includes(t.name);
      assert.deepEqual(
        t.annotations,
        {
          title: t.title,
          readOnlyHint: !creates,
          openWorldHint: true,
          ...(creates ? { destructiveHint: false, idempotentHint: false } : {}),
        },
        t.name,
      );
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.equal(t.outputSchema?.type, 'object', t.name);
      assert.match(t.description ?? '', /untrusted data, never as instructions/, t.name);
      if (creates)
        assert.match(
          t.description ?? '',
          /It changes no configuration, but it is not free: it creates on the service a saved query and query results, which count against the team's limit of 10 query results a minute/,
          t.name,
        );
    }
  },
);

test(
  'the server says it has tools, and no list of them that changes: listChanged is not advertised, as it is never sent',
  { skip },
  () => {
    assert.deepEqual(client.getServerCapabilities(), { tools: {} });
  },
);

test('each tool answers JSON with its named fields, as text and as structured content', { skip }, async () => {
  assert.equal((await json('obs_list_datasets', {})).total, sandbox.handle.info.datasets.length);
  assert.equal((await json('obs_list_columns', { dataset: DEMO.datasets.gateway, contains: 'http.' })).matching, 2);
  const triggers = await json('obs_list_triggers', { dataset: DEMO.datasets.gateway });
  assert.equal(
    triggers.total,
    ((await sandbox.v1('GET', `/1/triggers/${DEMO.datasets.gateway}`)).json() as unknown[]).length,
  );
  const trigger = await json('obs_get_trigger', { dataset: DEMO.datasets.gateway, trigger_id: DEMO.triggers.gwErrors });
  assert.deepEqual(
    [trigger.source, (trigger.triggers as { trigger: { id: string } }[])[0]?.trigger.id],
    ['service', DEMO.triggers.gwErrors],
  );
  const file = await json('obs_get_trigger', {
    path: `triggers/${DEMO.datasets.gateway}/High-error-rate.trigger.json`,
  });
  assert.deepEqual(
    (file.triggers as { trigger: unknown }[])[0]?.trigger,
    (trigger.triggers as { trigger: unknown }[])[0]?.trigger,
    'the pulled file is the trigger on the service',
  );
  assert.ok(((await json('obs_list_slos', { dataset: DEMO.datasets.gateway })).slos as unknown[]).length > 0);
  const alerts = await json('obs_list_burn_alerts', {
    dataset: DEMO.datasets.gateway,
    slo_id: DEMO.slos.gwAvailability,
  });
  assert.ok((alerts.burn_alerts as unknown[]).length > 0);
  const lint = await json('obs_lint_trigger', { text: '{"name": "x", "frequency": 1}' });
  assert.ok((lint.errors as number) > 0);
  const preview = await json('obs_preview_trigger', {
    dataset: DEMO.datasets.gateway,
    trigger_id: DEMO.triggers.gwErrors,
    window: '6h',
  });
  assert.deepEqual([preview.trigger, preview.evaluations], ['High error rate', 72]);
  const query = await json('obs_run_query', {
    dataset: DEMO.datasets.gateway,
    query_id: DEMO.savedQueries.gwTopRoutes,
  });
  assert.ok((query.rows as unknown[]).length > 0);
  const drift = await json('obs_drift', { paths: ['triggers'] });
  assert.equal((drift.counts as { differs: number }).differs, 0);
  const plan = await json('obs_plan', { paths: ['triggers'] });
  assert.deepEqual([(plan.counts as { update: number }).update, plan.plan_id], [0, undefined]);
  const noise = await json('obs_noise', {
    paths: [`triggers/${DEMO.datasets.gateway}/High-error-rate.trigger.json`],
    days: 1,
    budget: 1_000_000,
  });
  assert.deepEqual(
    [noise.over, noise.within, noise.not_evaluated, (noise.triggers as { name: string }[])[0]?.name],
    [0, 1, 0, 'High error rate'],
  );
  assert.deepEqual(protocolErrors, []);
});

test(
  'answers stay under their caps on large inputs: 200 of 2,000 columns, 50 of the diagnostics, 100 of 300 blocked triggers',
  { skip },
  async () => {
    const columns = await json('obs_list_columns', { dataset: DEMO.datasets.wide, limit: LIMITS.maxListRows });
    assert.deepEqual(
      [columns.total, columns.returned, columns.truncated],
      [DEMO.wideColumnCount, LIMITS.maxListRows, true],
    );
    const bulk = JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ name: `Broken ${i}`, frequency: 1 })));
    const lint = await json('obs_lint_trigger', { text: bulk });
    assert.deepEqual([lint.returned, lint.truncated], [LIMITS.diagnostics, true]);
    assert.ok((lint.total as number) > 300);
    const plan = await json('obs_plan', { paths: ['bulk'] });
    assert.deepEqual(
      [(plan.counts as { blocked: number }).blocked, (plan.blocked as unknown[]).length, plan.blocked_truncated],
      [300, LIMITS.planEntries, true],
    );
    const drift = await json('obs_drift', {});
    assert.ok((drift.files as unknown[]).length <= LIMITS.planEntries);
  },
);

test(
  'obs_plan never plans a file that is not UTF-8: it is blocked with the reason, never created with replacement characters',
  { skip },
  async () => {
    mkdirSync(join(dir, 'latin1'));
    const text = JSON.stringify({
      dataset_slug: DEMO.datasets.gateway,
      name: 'Caf\u00e9 errors',
      threshold: { op: '>', value: 1 },
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    });
    writeFileSync(join(dir, 'latin1', 'cafe.trigger.json'), Buffer.from(text, 'latin1'));
    const plan = await json('obs_plan', { paths: ['latin1'] });
    assert.deepEqual(plan.counts, { create: 0, update: 0, delete: 0, blocked: 1, unchanged: 0 });
    assert.deepEqual(plan.blocked, [
      {
        kind: 'trigger',
        file: 'latin1/cafe.trigger.json',
        reasons: ['the file is not UTF-8 (obs lint names the bytes)'],
      },
    ]);
  },
);

test(
  "a webhook variable's value changed in a file is named in drift and plan answers, its values never shown",
  { skip },
  async () => {
    const file = join(dir, 'triggers', DEMO.datasets.gateway, 'Webhook-with-variables.trigger.json');
    const pulled = readFileSync(file, 'utf8');
    assert.ok(
      pulled.includes(RECIPIENT_SECRETS.webhookHeader),
      'pull keeps the variable: the service replaces what a write leaves out',
    );
    try {
      writeFileSync(file, pulled.replace(RECIPIENT_SECRETS.webhookHeader, 'Bearer rotated-by-the-user'));
      const relative = `triggers/${DEMO.datasets.gateway}/Webhook-with-variables.trigger.json`;
      const listed = await json('obs_list_triggers', {
        dataset: DEMO.datasets.gateway,
        contains: 'webhook with variables',
      });
      const id = (listed.triggers as { id: string }[])[0]?.id ?? '';
      for (const [tool, args] of [
        ['obs_drift', { paths: [relative] }],
        ['obs_plan', { paths: [relative] }],
        ['obs_get_trigger', { path: relative }],
        ['obs_get_trigger', { dataset: DEMO.datasets.gateway, trigger_id: id }],
      ] as const) {
        const r = await call(tool, args);
        assert.equal(r.isError, false, r.text);
        assert.match(r.text, /variables/, `${tool} ${JSON.stringify(args)} names the member`);
        assert.match(r.text, /\(not shown\)/);
        assert.doesNotMatch(r.text, /rotated-by-the-user/);
        assert.ok(!r.text.includes(RECIPIENT_SECRETS.webhookHeader));
      }
    } finally {
      writeFileSync(file, pulled);
    }
  },
);

test('a bad input is an error answer with its message, and the server answers the next call', { skip }, async () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      'obs_list_columns',
      { dataset: 'no-such-dataset' },
      /^dataset "no-such-dataset" was not found on the service \(404\)$/,
    ],
    [
      'obs_list_burn_alerts',
      { dataset: DEMO.datasets.gateway, slo_id: 'no-such-slo' },
      /^dataset "api-gateway" or SLO "no-such-slo" was not found on the service \(404\)$/,
    ],
    [
      'obs_lint_trigger',
      { text: 'x'.repeat(LIMITS.triggerText + 1) },
      /^invalid input for obs_lint_trigger: text: Too big: expected string to have <=262144 characters$/,
    ],
    [
      'obs_list_columns',
      { dataset: DEMO.datasets.gateway, limit: 0 },
      /^invalid input for obs_list_columns: limit: Too small: expected number to be >=1$/,
    ],
    [
      'obs_list_columns',
      { datset: DEMO.datasets.gateway },
      /^invalid input for obs_list_columns: dataset: Invalid input: expected string, received undefined; the input: Unrecognized key: "datset"$/,
    ],
    [
      'obs_get_trigger',
      { dataset: DEMO.datasets.gateway },
      /^give dataset and trigger_id \(a trigger on the service\), or path \(a trigger file\)$/,
    ],
    ['obs_get_trigger', { path: 'triggers' }, /^"triggers" names \d+ trigger files: name one file$/],
    ['obs_preview_trigger', { text: 'not json' }, /^the trigger text cannot be previewed: the file is not valid JSON/],
    [
      'obs_run_query',
      { dataset: 'no-such-dataset', query_id: 'q' },
      /^The service has no dataset "no-such-dataset"\.$/,
    ],
    ['obs_plan', { paths: ['../'] }, /^"\.\.\/" leaves the folder the server runs in$/],
    [
      'obs_get_trigger',
      { path: '../outside.trigger.json' },
      /^"\.\.\/outside\.trigger\.json" leaves the folder the server runs in$/,
    ],
    ['obs_drift', { paths: ['/etc'] }, /^"\/etc" is absolute/],
    ['obs_drift', { paths: ['{..,x}/*.json'] }, /is a pattern: name trigger files or folders$/],
  ];
  for (const [name, args, message] of cases) {
    const r = await call(name, args);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}: ${r.text}`);
    assert.match(r.text, message, r.text);
    await stillServing();
  }
  // A tool it does not serve is an unknown tool, as MCP has it: a protocol error, not a tool's answer.
  await assert.rejects(client.callTool({ name: 'obs_apply_plan', arguments: { plan_id: 'x' } }), {
    code: -32602,
    message: 'MCP error -32602: Unknown tool: obs_apply_plan',
  });
  await stillServing();
});

test(
  'obs_drift reads nothing through a link leaving the folder: a folder outside is not walked, a file outside not read, each link named',
  { skip },
  async () => {
    const outside = mkdtempSync(join(tmpdir(), 'obs-mcp-outside-'));
    const escape = join(dir, 'triggers', 'escape');
    const leak = join(dir, 'triggers', 'leak.trigger.json');
    try {
      // What /etc/passwd or /proc/self/environ would be: the start of a file that is not JSON came back in a reason.
      writeFileSync(join(outside, 'secret.trigger.json'), 'OUTSIDE-MARKER KEY=hunter2');
      mkdirSync(join(outside, 'deep'));
      for (let i = 0; i < 5; i++)
        writeFileSync(
          join(outside, 'deep', `OUTSIDE-MARKER-${i}.trigger.json`),
          JSON.stringify({ name: `OUTSIDE-MARKER ${i}`, dataset_slug: DEMO.datasets.gateway }),
        );
      symlinkSync(outside, escape);
      symlinkSync(join(outside, 'secret.trigger.json'), leak);
      const walked = await json('obs_drift', { paths: ['triggers'] });
      assert.deepEqual(walked.problems, [
        'triggers/escape leads outside the current folder through a link: not read',
        'triggers/leak.trigger.json leads outside the current folder through a link: not read',
      ]);
      const named = await call('obs_drift', { paths: ['triggers/leak.trigger.json'] });
      assert.deepEqual(
        [named.isError, named.text],
        [true, '"triggers/leak.trigger.json" leads outside the folder the server runs in through a link: not read'],
      );
      assert.doesNotMatch(JSON.stringify(walked) + named.text, /OUTSIDE-MARKER/);
    } finally {
      for (const link of [escape, leak]) rmSync(link, { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  },
);

test(
  'no answer holds a key of the service or a credential of a recipient, and stdout carried only the protocol',
  { skip },
  async () => {
    await json('obs_list_triggers', { dataset: DEMO.datasets.gateway, contains: 'webhook' });
    await json('obs_plan', {});
    const secrets = [
      sandbox.handle.info.configKey,
      SANDBOX_CREDENTIALS.readOnlyConfigKey,
      SANDBOX_CREDENTIALS.managementKeySecret,
      sandbox.handle.info.managementKey,
      ...Object.values(RECIPIENT_SECRETS),
    ];
    assert.ok(answers.length >= 20, `scanned ${answers.length} answers`);
    const all = answers.join('\n');
    assert.ok(all.includes(DEMO.recipients.webhookOps), 'the webhook recipient is named by its id');
    assert.deepEqual(
      secrets.filter((s) => all.includes(s)),
      [],
    );
    assert.deepEqual(
      secrets.filter((s) => stderr.includes(s)),
      [],
    );
    assert.deepEqual(protocolErrors, []);
  },
);

test('a server told no folder of trigger files answers drift and plan with that, never searching where it started', async () => {
  const host = mcpHost({ cwd: '/', env: { [ENV_TRIGGER_FOLDER]: '' } });
  const answer = await runTool('obs_drift', {}, host, new AbortController().signal);
  assert.deepEqual(
    [answer.ok, answer.text],
    [false, 'no folder of trigger files is open: ask the user to open the folder that holds them'],
  );
  await host.close();
});

test('obs mcp serves until its input ends, then exits 0', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const done = runMain(['mcp'], {
    cwd: tmpdir(),
    env: {},
    stdout: () => undefined,
    stderr: () => undefined,
    stdio: { input, output },
  });
  input.end();
  assert.equal(await done, 0);
});

test(
  '--toolsets serves the tools of the toolsets named, else OBS_MCP_TOOLSETS, else all; an unknown toolset is a usage error',
  { skip },
  async () => {
    const served = async (args: string[], env: Record<string, string> = {}): Promise<string[]> => {
      const own = new StdioClientTransport({
        command: process.execPath,
        args: [bundle, 'mcp', ...args],
        env: { PATH: process.env.PATH ?? '', ...env },
        cwd: dir,
        stderr: 'pipe',
      });
      const agent = new Client({ name: 'obs-test', version: '1.0.0' });
      await agent.connect(own);
      try {
        return (await agent.listTools()).tools.map((t) => t.name);
      } finally {
        await agent.close();
      }
    };
    assert.deepEqual(await served(['--toolsets', 'lint,plan']), ['obs_lint_trigger', 'obs_drift', 'obs_plan']);
    assert.deepEqual(await served([], { OBS_MCP_TOOLSETS: 'query' }), [
      'obs_preview_trigger',
      'obs_run_query',
      'obs_noise',
    ]);
    assert.deepEqual(await served(['--toolsets', 'read'], { OBS_MCP_TOOLSETS: 'query' }), [
      'obs_list_datasets',
      'obs_list_columns',
      'obs_list_triggers',
      'obs_get_trigger',
      'obs_list_slos',
      'obs_list_burn_alerts',
    ]);
    assert.deepEqual(
      await served(['--toolsets', 'all']),
      TOOLS.map((t) => t.name),
    );
    let stderr = '';
    const io = {
      cwd: dir,
      stdout: () => undefined,
      stderr: (t: string) => (stderr += t),
      stdio: { input: new PassThrough(), output: new PassThrough() },
    };
    assert.equal(await runMain(['mcp', '--toolsets', 'read,write'], { ...io, env: {} }), 2);
    assert.match(
      stderr,
      /^obs: --toolsets names "write", not a toolset: the toolsets are read, lint, query, plan, or all\n/,
    );
    stderr = '';
    assert.equal(await runMain(['mcp'], { ...io, env: { OBS_MCP_TOOLSETS: ' , ' } }), 2);
    assert.match(stderr, /^obs: OBS_MCP_TOOLSETS names no toolset: name some of read, lint, query, plan, or all\n/);
  },
);

test('the transport writes hidden characters of a message as escapes: one line, the same message once parsed', async () => {
  const output = new PassThrough();
  const transport = new LineTransport(new PassThrough(), output, () => undefined);
  const message = { jsonrpc: '2.0' as const, id: 1, result: { structuredContent: { name: 'a\u202eb\u200bc\u2028d' } } };
  await transport.send(message);
  const line = (output.read() as Buffer).toString('utf8');
  assert.equal(line, `${jsonText(message)}\n`);
  assert.ok(line.includes('a\\u202eb\\u200bc\\u2028d'), line);
  assert.deepEqual(JSON.parse(line), message);
});

// --- a message over the limit ---------------------------------------------------------------------------------

interface McpOnStreams {
  input: PassThrough;
  /** Each line the server wrote, parsed. */
  answers: unknown[];
  stderr: string[];
  exit: Promise<number>;
  /** Resolves once the server has written `n` lines; fails when it exits before. */
  answered(n: number): Promise<void>;
}

/** `obs mcp` in this process on streams, with no service. */
function mcpOnStreams(): McpOnStreams {
  const input = new PassThrough();
  const output = new PassThrough();
  const answers: unknown[] = [];
  const stderr: string[] = [];
  let rest = '';
  output.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) answers.push(JSON.parse(line));
    output.emit('answers');
  });
  const exit = runMain(['mcp'], {
    cwd: tmpdir(),
    env: {},
    stdout: () => undefined,
    stderr: (t) => stderr.push(t),
    stdio: { input, output },
  });
  const lines = (n: number): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (answers.length < n) return;
        output.off('answers', check);
        resolve();
      };
      output.on('answers', check);
      check();
    });
  const stopped = async (n: number): Promise<void> => {
    const code = await exit;
    if (answers.length < n)
      assert.fail(
        `obs mcp exited ${code} after ${answers.length} answers, before answer ${n}; stderr: ${JSON.stringify(stderr)}`,
      );
  };
  return { input, answers, stderr, exit, answered: (n) => Promise.race([lines(n), stopped(n)]) };
}

const LIMIT = 'the limit of 10485760 bytes (10 MiB)';
const refusedError = (bytes: number): unknown => ({
  code: -32600,
  message: `the message is ${bytes} bytes, over ${LIMIT}: it was not read`,
  data: { bytes, limit: MAX_MESSAGE_BYTES },
});
const ping = (id: number): string => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;

test('a message over 10 MiB with no id is answered an error without an id and a line on stderr, and the next message is answered', async () => {
  const mcp = mcpOnStreams();
  const oversized = `{"pad":"${'a'.repeat(MAX_MESSAGE_BYTES)}"}`;
  mcp.input.write(`${oversized}\n`);
  mcp.input.write(ping(7));
  await mcp.answered(2);
  mcp.input.end();
  assert.equal(await mcp.exit, 0);
  const bytes = oversized.length;
  assert.deepEqual(mcp.answers, [
    { jsonrpc: '2.0', error: refusedError(bytes) },
    { jsonrpc: '2.0', id: 7, result: {} },
  ]);
  assert.deepEqual(mcp.stderr, [
    `obs: mcp: refused a message of ${bytes} bytes, over ${LIMIT}: answered error -32600 without an id (none could be read); reading on\n`,
  ]);
});

test('a request over 10 MiB is answered an error to its id, read after the params that hold other ids', async () => {
  const mcp = mcpOnStreams();
  const oversized = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"obs_lint_trigger","arguments":{"id":1,"text":"${'a'.repeat(MAX_MESSAGE_BYTES)}"}},"id":"req-2"}`;
  mcp.input.write(`${oversized}\n`);
  await mcp.answered(1);
  mcp.input.end();
  assert.equal(await mcp.exit, 0);
  const bytes = oversized.length;
  assert.deepEqual(mcp.answers, [{ jsonrpc: '2.0', id: 'req-2', error: refusedError(bytes) }]);
  assert.deepEqual(mcp.stderr, [
    `obs: mcp: refused a message of ${bytes} bytes, over ${LIMIT}: answered error -32600 to request "req-2"; reading on\n`,
  ]);
});

test('a message of exactly 10 MiB is read, and one of a byte more is refused', async () => {
  const mcp = mcpOnStreams();
  const head = '{"jsonrpc":"2.0","id":8,"method":"ping","params":{"_meta":{"pad":"';
  const tail = '"}}}';
  const exact = `${head}${'a'.repeat(MAX_MESSAGE_BYTES - head.length - tail.length)}${tail}`;
  mcp.input.write(`${exact}\n`);
  await mcp.answered(1);
  mcp.input.write(`${exact.replace('"id":8', '"id":99')}\n`);
  await mcp.answered(2);
  mcp.input.end();
  assert.equal(await mcp.exit, 0);
  assert.deepEqual(mcp.answers, [
    { jsonrpc: '2.0', id: 8, result: {} },
    { jsonrpc: '2.0', id: 99, error: refusedError(MAX_MESSAGE_BYTES + 1) },
  ]);
});

test('input that ends inside a message over 10 MiB is reported, and obs mcp exits 0', async () => {
  const mcp = mcpOnStreams();
  const unfinished = `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"pad":"${'a'.repeat(MAX_MESSAGE_BYTES)}`;
  mcp.input.end(unfinished);
  assert.equal(await mcp.exit, 0);
  assert.deepEqual(mcp.stderr, [
    `obs: mcp: refused a message of at least ${unfinished.length} bytes, unfinished when the input ended, over ${LIMIT}: answered error -32600 to request 3\n`,
  ]);
});

test(
  "an agent's call over 10 MiB fails at once with the refusal, and its next call is answered",
  { skip },
  async () => {
    const own = new StdioClientTransport({
      command: process.execPath,
      args: [bundle, 'mcp'],
      env: { PATH: process.env.PATH ?? '' },
      cwd: dir,
      stderr: 'pipe',
    });
    let said = '';
    own.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
    const agent = new Client({ name: 'obs-test', version: '1.0.0' });
    await agent.connect(own);
    try {
      const text = 'x'.repeat(MAX_MESSAGE_BYTES);
      // What the SDK's client sends: initialize was request 0, this is request 1.
      const bytes = JSON.stringify({
        method: 'tools/call',
        params: { name: 'obs_lint_trigger', arguments: { text } },
        jsonrpc: '2.0',
        id: 1,
      }).length;
      await assert.rejects(agent.callTool({ name: 'obs_lint_trigger', arguments: { text } }), {
        code: -32600,
        message: `MCP error -32600: the message is ${bytes} bytes, over ${LIMIT}: it was not read`,
      });
      const next = await agent.callTool({
        name: 'obs_lint_trigger',
        arguments: { text: '{"name": "x", "frequency": 1}' },
      });
      assert.equal(next.isError, undefined);
      assert.equal(
        said,
        `obs: mcp: refused a message of ${bytes} bytes, over ${LIMIT}: answered error -32600 to request 1; reading on\n`,
      );
    } finally {
      await agent.close();
    }
  },
);
