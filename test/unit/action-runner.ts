// Runs the steps of the repository's composite action (action.yml) on this machine, for action.test.ts, as a
// GitHub runner runs them: the inputs' defaults and the `with:` values, each step's `if:` over them and the
// earlier steps' outputs, each `run:` in `bash --noprofile --norc -eo pipefail` with its `env:` on top of the
// job's environment, GITHUB_OUTPUT read after a step and GITHUB_PATH put in front of PATH for the steps after
// it. Expressions are understood only in the forms action.yml uses (ci-flow-runner.ts reads them).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import * as z from 'zod';
import { holds, interpolate, type Contexts } from './ci-flow-runner';

const Step = z.object({
  name: z.string(),
  id: z.string().optional(),
  if: z.string().optional(),
  shell: z.literal('bash'),
  env: z.record(z.string(), z.string()).optional(),
  run: z.string(),
});
const Action = z.object({
  name: z.string(),
  description: z.string(),
  inputs: z.record(z.string(), z.object({ description: z.string(), default: z.string() })),
  runs: z.object({ using: z.literal('composite'), steps: z.array(Step) }),
});

export type Action = z.infer<typeof Action>;

export const ACTION_FILE = join(import.meta.dirname, '..', '..', 'action.yml');

export function loadAction(): Action {
  return Action.parse(load(readFileSync(ACTION_FILE, 'utf8'), { filename: ACTION_FILE }));
}

export interface ActionRequest {
  cwd: string;
  /** The `with:` of the workflow's step. */
  with: Record<string, string>;
  /** Values of the GitHub contexts the inputs' defaults name (`github.token`...). */
  contexts: Contexts;
  /** The job's environment: PATH, HOME, the GITHUB_* variables, RUNNER_TEMP, what the step's `env:` gives. */
  env: Record<string, string>;
  /** A step's script as run (the test's stand-in for a command obs does not have yet); the script by default. */
  script?: (step: string, run: string) => string;
}

export interface ActionRun {
  steps: [name: string, code: number][];
  ok: boolean;
  /** What the steps printed, stdout and stderr as they came, each step headed by its name. */
  log: string;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    // Never synchronous: the sandbox and the fake GitHub serve the steps from this process.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

/** Runs the action's steps in order; stops at the first that fails, as GitHub does. */
export async function runAction(action: Action, request: ActionRequest): Promise<ActionRun> {
  const contexts: Contexts = { ...request.contexts };
  for (const [name, input] of Object.entries(action.inputs))
    contexts[`inputs.${name}`] = request.with[name] ?? interpolate(input.default, contexts);
  const scratch = mkdtempSync(join(request.cwd, '..', 'action-'));
  const pathFile = join(scratch, 'path');
  writeFileSync(pathFile, '');
  const steps: ActionRun['steps'] = [];
  let log = '';
  for (const [i, step] of action.runs.steps.entries()) {
    if (step.if !== undefined && !holds(step.if, contexts)) continue;
    const outputFile = join(scratch, `output-${i}`);
    writeFileSync(outputFile, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(v, contexts)]));
    const path = [...lines(pathFile).reverse(), request.env.PATH ?? ''].join(':');
    const script = request.script?.(step.name, step.run) ?? step.run;
    const { code, output } = await bash(script, request.cwd, {
      ...request.env,
      PATH: path,
      GITHUB_OUTPUT: outputFile,
      GITHUB_PATH: pathFile,
      ...env,
    });
    log += `== ${step.name}\n${output}`;
    steps.push([step.name, code]);
    if (code !== 0) return { steps, ok: false, log };
    for (const line of lines(outputFile)) {
      const at = line.indexOf('=');
      if (step.id !== undefined && at > 0)
        contexts[`steps.${step.id}.outputs.${line.slice(0, at)}`] = line.slice(at + 1);
    }
  }
  return { steps, ok: true, log };
}
