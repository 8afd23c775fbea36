// `--env NAME` and `--environments FILE` as obs plan, apply and drift declare them: apart from their run
// (environment.ts), so that declaring the commands loads neither the environments file's reader nor zod.
import { Option } from 'commander';
import { ENVIRONMENTS_FILE_NAME } from '../triggerFiles/paths';

/** `what`: what the command does for the environment ("plan", "check the files"). */
export function envOption(what = 'plan'): Option {
  return new Option(
    '--env <NAME>',
    `${what} for one environment of the environments file: its variables name the service and key, and its overlay ` +
      `applies (docs/ENVIRONMENTS.md)`,
  );
}

export function environmentsOption(): Option {
  return new Option(
    '--environments <FILE>',
    `the environments file --env reads (default: ${ENVIRONMENTS_FILE_NAME} at the root of the folder the files ` +
      `are in, or in the current folder)`,
  );
}
