// The commands of obs-lint (dist/cli.js): lint (src/lint/cli.ts), pull and drift. The command is the
// first argument that is not an option (or an option's value).
import { runCli } from '../lint/cli';
import { errorText } from '../api/errors';
import { readColumns } from './columns';
import { runDrift, DRIFT_USAGE } from './drift';
import { CliUsageError, EXIT_TROUBLE, type MainIo } from './io';
import { runPull, PULL_USAGE } from './pull';
import { clientFromEnvironment, ServiceSetupError } from './service';

/** Options of any command that take a value: the word after them is not the command. */
const VALUE_OPTIONS = new Set(['--format', '--metrics-dataset', '--max-problems', '--dataset', '--out', '--concurrency']);

export function commandOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') return argv[i + 1];
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    return a;
  }
  return undefined;
}

async function withColumns(io: MainIo, datasets: string[]) {
  const client = clientFromEnvironment(io.env);
  try {
    return await readColumns(client, datasets);
  } finally {
    await client.close();
  }
}

/** Runs obs-lint; returns the exit status. */
export async function runMain(argv: string[], io: MainIo): Promise<number> {
  const command = commandOf(argv);
  if (command !== 'pull' && command !== 'drift') return runCli(argv, io, { columns: (datasets) => withColumns(io, datasets) });
  // The command word itself goes first for the commands' parsers.
  const rest = [command, ...argv.filter((a, i) => !(a === command && i === argv.indexOf(command)))];
  try {
    return command === 'pull' ? await runPull(rest, io) : await runDrift(rest, io);
  } catch (e) {
    if (e instanceof CliUsageError) {
      io.stderr(`obs-lint: ${e.message}\n\n${command === 'pull' ? PULL_USAGE : DRIFT_USAGE}`);
      return EXIT_TROUBLE;
    }
    if (e instanceof ServiceSetupError) {
      io.stderr(`obs-lint: ${e.message}\n`);
      return EXIT_TROUBLE;
    }
    io.stderr(`obs-lint: ${command} failed: ${errorText(e)}\n`);
    return EXIT_TROUBLE;
  }
}
