// obs run in-process, as the CLI tests see it: the exit status and everything it wrote, each stream whole.
import { runMain } from '../../src/cli/main';
import type { MainIo } from '../../src/cli/io';

export interface ObsRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `obs <argv>` with `io` (its streams collected). */
export async function runObs(argv: readonly string[], io: Omit<MainIo, 'stdout' | 'stderr'>): Promise<ObsRun> {
  let stdout = '';
  let stderr = '';
  const code = await runMain(argv, { ...io, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}
