// Runs the jobs of a committed GitHub Actions workflow (docs/ci/triggers.yml for test/unit/ci-flow.test.ts,
// docs/ci/environments.yml for test/unit/ci-environments.test.ts) on this machine: each `run:` step in bash as
// GitHub runs it (`bash --noprofile --norc -eo pipefail`), with the values of the GitHub contexts the workflow
// names, GITHUB_OUTPUT between steps, and `obs` on the PATH as `node dist/cli.js`. The `uses:` steps (checkout,
// setup-node) are the test's own doing, and the step that installs obs is replaced by that PATH. Expressions are
// understood only in the forms the workflows use: `${{ a.b }}` in an env value, and in an `if:` `a.b == 'x'`,
// `a.b != c.d` and `startsWith(a.b, 'x')` joined by `&&`, those joined by `||`.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import * as z from 'zod';

const Env = z.record(z.string(), z.string());
const Step = z.object({
  name: z.string().optional(),
  id: z.string().optional(),
  uses: z.string().optional(),
  run: z.string().optional(),
  if: z.string().optional(),
  env: Env.optional(),
});
const Job = z.object({
  if: z.string().optional(),
  needs: z.string().optional(),
  environment: z.string().optional(),
  concurrency: z.object({ group: z.string(), 'cancel-in-progress': z.boolean() }).optional(),
  permissions: Env.optional(),
  env: Env.optional(),
  steps: z.array(Step),
});
const Workflow = z.object({
  on: z.record(z.string(), z.unknown()),
  permissions: Env,
  env: Env.optional(),
  jobs: z.record(z.string(), Job),
});

export type Workflow = z.infer<typeof Workflow>;
export type WorkflowJob = z.infer<typeof Job>;

const ciFile = (name: string) => join(import.meta.dirname, '..', '..', 'docs', 'ci', name);
/** One environment per service (docs/TRIGGER-FILES.md). */
export const WORKFLOW_FILE = ciFile('triggers.yml');
/** Staging and production from one set of files and obs.environments.json (docs/ENVIRONMENTS.md). */
export const ENVIRONMENTS_WORKFLOW_FILE = ciFile('environments.yml');

/** A workflow as committed, its anchors resolved. */
export function loadWorkflow(file: string = WORKFLOW_FILE): Workflow {
  return Workflow.parse(load(readFileSync(file, 'utf8'), { filename: file }));
}

/** The step the test does not run: obs is put on the PATH instead of installed from the registry. */
export const INSTALL_STEP = 'Install obs';

/** Values of the GitHub contexts by their path (`github.event_name`, `vars.OBS_BASE_URL`, `steps.applied.outputs.apply`). */
export type Contexts = Record<string, string>;

function valueOf(path: string, contexts: Contexts): string {
  const value = contexts[path];
  if (value !== undefined) return value;
  // GitHub answers an output a step did not set, or an input of another event, with an empty value.
  if (/^(steps|inputs)\./.test(path)) return '';
  throw new Error(`the workflow names ${path}, which the test gives no value`);
}

/** An env value with its `${{ path }}` expressions replaced. */
export function interpolate(text: string, contexts: Contexts): string {
  const out = text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_m, path: string) => valueOf(path, contexts));
  if (out.includes('${{')) throw new Error(`the test does not understand the expression in ${text}`);
  return out;
}

const OPERAND = String.raw`('[^']*'|[\w.-]+)`;
const COMPARISON = new RegExp(String.raw`^\s*${OPERAND}\s*(==|!=)\s*${OPERAND}\s*$`);
const STARTS_WITH = new RegExp(String.raw`^\s*startsWith\(\s*([\w.-]+)\s*,\s*('[^']*')\s*\)\s*$`);

/**
 * Whether an `if:` holds: comparisons of context paths and quoted strings, and `startsWith(path, 'text')`
 * (which ignores case, as GitHub's does), joined by `&&`; those joined by `||` (`&&` binds first, as in GitHub's
 * expressions). Every part is read before any is weighed: a form not understood throws, wherever it stands.
 */
export function holds(condition: string, contexts: Contexts): boolean {
  const side = (s: string) => (/^'.*'$/.test(s) ? s.slice(1, -1) : valueOf(s, contexts));
  const term = (part: string): (() => boolean) => {
    const compared = COMPARISON.exec(part);
    if (compared !== null) {
      const [, left = '', op, right = ''] = compared;
      return () => (side(left) === side(right)) === (op === '==');
    }
    const starts = STARTS_WITH.exec(part);
    if (starts !== null) {
      const [, path = '', prefix = ''] = starts;
      return () => side(path).toLowerCase().startsWith(side(prefix).toLowerCase());
    }
    throw new Error(`the test does not understand the condition ${condition}`);
  };
  const anyOf = condition.split('||').map((all) => all.split('&&').map(term));
  return anyOf.some((all) => all.every((t) => t()));
}

export interface StepRun {
  name: string;
  code: number;
}

export interface JobRun {
  /** Every step run, with its exit status; the job failed when the last one's is not 0. */
  steps: StepRun[];
  ok: boolean;
  /** What the steps printed, stdout and stderr as they came, each step headed by its name. */
  log: string;
  /** What each step of `steps` printed, in the same order. */
  printed: string[];
}

export interface JobRequest {
  cwd: string;
  contexts: Contexts;
  /** The variables GitHub sets for every step: GITHUB_SHA, GITHUB_REF, GITHUB_EVENT_NAME... */
  github: Record<string, string>;
  /** The environment every step starts from (PATH with obs, HOME, git's settings). */
  base: Record<string, string>;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    // Never synchronous: the sandboxes serve obs from this process.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** `name=value` lines of a GITHUB_OUTPUT file. */
function outputsOf(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** Runs a job's steps in order, as GitHub would once the job is started; stops at the first that fails. */
export async function runJob(workflow: Workflow, name: string, request: JobRequest): Promise<JobRun> {
  const job = workflow.jobs[name];
  if (job === undefined) throw new Error(`the workflow has no job ${name}`);
  const contexts = { ...request.contexts };
  const env = (map: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, interpolate(v, contexts)]));
  const jobEnv = { ...env(workflow.env), ...env(job.env) };
  const scratch = mkdtempSync(join(request.cwd, '..', 'step-'));
  const steps: StepRun[] = [];
  const printed: string[] = [];
  let log = '';
  for (const [i, step] of job.steps.entries()) {
    if (step.run === undefined || step.name === INSTALL_STEP) continue;
    if (step.if !== undefined && !holds(step.if, contexts)) continue;
    const outputFile = join(scratch, `output-${i}`);
    writeFileSync(outputFile, '');
    const stepName = step.name ?? step.run;
    const { code, output } = await bash(step.run, request.cwd, {
      ...request.base,
      ...request.github,
      GITHUB_OUTPUT: outputFile,
      ...jobEnv,
      ...env(step.env),
    });
    log += `== ${stepName}\n${output}`;
    steps.push({ name: stepName, code });
    printed.push(output);
    if (code !== 0) return { steps, ok: false, log, printed };
    if (step.id !== undefined)
      for (const [k, v] of Object.entries(outputsOf(outputFile))) contexts[`steps.${step.id}.outputs.${k}`] = v;
  }
  return { steps, ok: true, log, printed };
}

/** A folder holding `obs`, which runs this checkout's dist/cli.js with this node. */
export function obsOnPath(root: string, cli: string): string {
  const bin = join(root, 'bin');
  const shim = join(bin, 'obs');
  mkdirSync(bin, { recursive: true });
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${cli}' "$@"\n`);
  chmodSync(shim, 0o755);
  return bin;
}
