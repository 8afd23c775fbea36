// obs lint and obs plan read the workspace's obs.metricsDatasets from .vscode/settings.json (JSON with comments and
// trailing commas, as VS Code reads it), or from the file --settings names: the command line gives the editor's
// verdict on the same files. The demo's metrics triggers were errors for obs lint and clean in the editor.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLintJob } from '../../src/extension/diagnostics/lintJobs';
import { Settings, type ConfigurationSource } from '../../src/extension/core/settings';
import type { Diagnostic } from '../../src/lint';
import { demoFolder } from './demo-folder';
import { runObs } from './obs-run';

const DEMO = join(import.meta.dirname, '..', '..', 'demo', 'workspace');
const METRICS = 'triggers/metrics-hosts';
const FILES = ['Histogram-request-count.trigger.json', 'Host-CPU-high.trigger.json'].map((f) => `${METRICS}/${f}`);
/** The workspace's settings as a person writes them: a comment, a trailing comma. */
const SETTINGS =
  '// the demo\'s metrics datasets\n{\n  "obs.metricsDatasets": ["metrics-hosts",],\n  "editor.tabSize": 2,\n}\n';

/** The editor's settings over the workspace's values (VS Code reads the file; here they are given). */
function editorSettings(workspace: Record<string, unknown>): Settings {
  const source: ConfigurationSource = {
    get: (key) => workspace[key],
    inspect: (key) => ({ workspaceValue: workspace[key] }),
    update: async () => undefined,
    onDidChange: () => ({ dispose: () => undefined }),
  };
  return new Settings(source);
}

type Verdict = [string, Pick<Diagnostic, 'rule' | 'severity' | 'message' | 'range'>[]][];

/** What the editor's lint worker reports for each file, with the workspace's settings. */
function editorVerdict(dir: string, files: readonly string[], workspace: Record<string, unknown>): Verdict {
  const metricsDatasets = editorSettings(workspace).metricsDatasets();
  return files.map((file) => {
    const result = runLintJob({
      kind: 'lint',
      input: readFileSync(join(dir, file), 'utf8'),
      options: { metricsDatasets },
    });
    if (result.kind !== 'lint') throw new Error('a lint job answers a lint result');
    return [
      file,
      result.diagnostics.map((d) => ({ rule: d.rule, severity: d.severity, message: d.message, range: d.range })),
    ];
  });
}

/** What obs lint --format json reports for each file. */
function obsVerdict(stdout: string): Verdict {
  return (JSON.parse(stdout) as { file: string; diagnostics: Verdict[number][1] }[]).map((f) => [
    f.file,
    f.diagnostics,
  ]);
}

describe('obs lint', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'obs-settings-'));
    cpSync(join(DEMO, 'triggers'), join(dir, 'triggers'), { recursive: true });
    mkdirSync(join(dir, '.vscode'));
    writeFileSync(join(dir, '.vscode', 'settings.json'), SETTINGS);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("with the workspace's .vscode/settings.json, its verdict on the metrics triggers is the editor's: clean", async () => {
    const r = await runObs(['lint', '--format', 'json', METRICS], { cwd: dir });
    const editor = editorVerdict(dir, FILES, { 'obs.metricsDatasets': ['metrics-hosts'] });
    assert.deepEqual([r.code, r.stderr, obsVerdict(r.stdout)], [0, '', editor]);
    assert.deepEqual(
      editor,
      FILES.map((f) => [f, []]),
    );
  });

  test("--settings names another settings file, read instead of the workspace's; --metrics-dataset adds to it", async () => {
    writeFileSync(join(dir, 'ci-settings.json'), '{ "obs.metricsDatasets": [] }');
    const other = await runObs(['lint', '--format', 'json', '--settings', 'ci-settings.json', METRICS], { cwd: dir });
    assert.deepEqual(
      [other.code, obsVerdict(other.stdout)],
      [1, editorVerdict(dir, FILES, { 'obs.metricsDatasets': [] })],
    );
    const added = await runObs(
      ['lint', '--format', 'json', '--settings', 'ci-settings.json', '--metrics-dataset', 'metrics-hosts', METRICS],
      { cwd: dir },
    );
    assert.deepEqual([added.code, obsVerdict(added.stdout)], [0, FILES.map((f) => [f, []])]);
  });

  test('a settings file that cannot be read as settings is said, naming where, and nothing is linted: exit 2', async () => {
    writeFileSync(join(dir, 'broken.json'), '{\n  "obs.metricsDatasets": ["metrics-hosts"\n}\n');
    const broken = await runObs(['lint', '--settings', 'broken.json', METRICS], { cwd: dir });
    const missing = await runObs(['lint', '--settings', 'nowhere.json', METRICS], { cwd: dir });
    assert.deepEqual(
      [broken, missing],
      [
        {
          code: 2,
          stdout: '',
          stderr: 'obs: broken.json is not valid JSON with comments: comma expected at line 3, column 1\n',
        },
        { code: 2, stdout: '', stderr: 'obs: cannot read nowhere.json: no such file\n' },
      ],
    );
  });
});

describe('obs plan', () => {
  const demo = demoFolder('obs-settings-plan-');

  test("gates the triggers it would write with the workspace's metrics datasets, and records them for obs apply", async () => {
    cpSync(join(DEMO, METRICS), join(demo.dir, METRICS), { recursive: true });
    const cpu = join(demo.dir, FILES[1] ?? '');
    writeFileSync(
      cpu,
      JSON.stringify({ ...(JSON.parse(readFileSync(cpu, 'utf8')) as object), description: 'Edited' }, null, 2),
    );
    mkdirSync(join(demo.dir, '.vscode'));
    writeFileSync(join(demo.dir, '.vscode', 'settings.json'), SETTINGS);
    const r = await demo.run(['plan', '--format', 'json', METRICS]);
    const plan = JSON.parse(r.stdout) as {
      changes: { action: string; file: string }[];
      blocked: unknown[];
      inputs: { metricsDatasets: string[] };
    };
    assert.deepEqual(
      [r.code, plan.changes.map((c) => [c.action, c.file]), plan.blocked, plan.inputs.metricsDatasets],
      [1, [['update', FILES[1]]], [], ['metrics-hosts']],
    );
  });
});
