// `obs apply FILE`: applies the plan saved by `obs plan --out FILE`, for the main branch of a CI. A saved plan
// is a record of what was reviewed, never a source of what is written: the whole plan is refused, nothing
// written, when it was made against another service or key, when its seal does not hold (it was edited), or
// when planning again (same paths, same options, the one plan pipeline) gives other changes. Then each change
// is re-read before it is written (skipped when the service's trigger changed since) and read back after; a
// create writes its new id into its file; a change the service already holds is said and not written. Exit 0
// every change applied and read back as sent (or already applied), 1 anything
// skipped, refused, failed, of unknown outcome or stored differently, 2 a plan that cannot be applied at all.
// This module declares the command; the run (applyRun.ts) loads when it runs.
import type { Command } from 'commander';
import { LOCK_FILE } from './applyLock';
import type { MainIo } from './io';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import { envOption, environmentsOption } from './environmentOptions';
import type { EnvironmentInvocation } from './environment';

export function defineApply(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('apply')
    .summary('apply a plan saved by obs plan --out')
    .description(
      "Plans the trigger files again exactly as obs plan did (the paths and options recorded in the plan) and applies the changes only when they are the ones the saved plan shows: creates, then updates, then deletes, one at a time; a dataset whose create or update was not made keeps its deletes. Each trigger is read again just before it is written and skipped when it changed on the service since (the service has no conditional write); each is read back after, and a member the service stored otherwise than sent is named. A created trigger gets its new id written into its file (one insertion; the rest of the file untouched). A burn alert is written with one full PUT and a dataset's definitions with one PATCH of the types that differ, each read again just before and skipped when it changed since the plan. Ctrl+C stops after the write in flight.",
    )
    .argument('<FILE>', 'the plan, as saved by obs plan --out')
    .addOption(envOption())
    .addOption(environmentsOption())
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment. The whole plan is refused,
nothing written, when it was made against another address or key, when it was edited after obs plan saved it
(its seal, keyed with ${ENV_CONFIG_KEY}, does not match), or when the files or the service changed so that
planning again gives other changes (each difference is named: plan again and review). A change the service
already holds as the plan would write it (the plan applied before, or half of it) is "already applied" and
not written. One apply runs in a folder at a time (${LOCK_FILE}).

A plan made with --env is applied with the same --env (its variables name the service and key) and only while
the environments file the plan names is as it was (its hash is in the plan); a plan made without --env is
applied without it.

Exit status: 0 every change applied and read back as sent, or already applied; 1 a change was skipped,
refused, failed, of unknown outcome or stored differently (each is named); 2 the plan cannot be applied (not
a plan, another service, edited, or the changes are no longer the same).
`,
    )
    .action(async (file: string, options: EnvironmentInvocation) => {
      const { runApply } = await import('./applyRun');
      finish(await runApply(file, io, options));
    });
}
