// `obs apply FILE`: applies exactly the plan saved by `obs plan --out FILE`, for the main branch of a CI.
// The whole plan is refused, nothing written, when it was made against another service or key, or when a
// file it read has changed since. Then each change is re-read before it is written (skipped when the
// service's trigger changed since the plan) and read back after; a create writes its new id into its file.
// Exit 0 every change applied and read back as sent, 1 anything skipped, refused, failed or stored
// differently, 2 a plan that cannot be applied at all. This module declares the command; the run
// (applyRun.ts) loads when it runs.
import type { Command } from 'commander';
import { LOCK_FILE } from './applyLock';
import type { MainIo } from './io';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';

export { LOCK_FILE } from './applyLock';

export function defineApply(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('apply')
    .summary('apply a plan saved by obs plan --out')
    .description(
      'Applies exactly the changes of the plan: creates, then updates, then deletes, one at a time. Each trigger is read again just before it is written and skipped when it changed on the service since the plan (the service has no conditional write); each is read back after, and a member the service stored otherwise than sent is named. A created trigger gets its new id written into its file (one insertion; the rest of the file untouched).',
    )
    .argument('<FILE>', 'the plan, as saved by obs plan --out')
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment. The whole plan is refused,
nothing written, when it was made against another address or key, when a trigger file it read has changed
since (plan again), when it names a file outside the current folder, or when a change is not what its file
asks for (a plan file is checked, not trusted). One apply runs in a folder at a time (${LOCK_FILE}).

Exit status: 0 every change applied and read back as sent; 1 a change was skipped, refused, failed or
stored differently (each is named); 2 the plan cannot be applied (not a plan, another service, files changed).
`,
    )
    .action(async (file: string) => {
      const { runApply } = await import('./applyRun');
      finish(await runApply(file, io));
    });
}
