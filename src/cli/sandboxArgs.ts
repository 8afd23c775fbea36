// The options of the sandbox program (dist/sandbox.js, `npm run sandbox -- ...`), declared with commander
// as obs's commands are: one argument parser for every program of the project.
import { Command, CommanderError, Option } from 'commander';
import { DEMO_ENVIRONMENTS, parseRewriteList, type SandboxInfo, type SandboxOptions } from '../sandbox';
import { CliUsageError, wholeNumber } from './io';

/** What the program prints when ready: the SandboxInfo as one JSON line, or shell lines to export. */
type ReadyOutput = 'json' | 'env';

export type SandboxCommand =
  | { kind: 'help'; text: string }
  | { kind: 'serve'; options: SandboxOptions; print: ReadyOutput };

interface Flags {
  port?: string;
  host?: string;
  rateLimit?: string;
  queryRateLimit?: string;
  data?: string;
  empty?: boolean;
  demo?: (typeof DEMO_ENVIRONMENTS)[number];
  rewrites?: string;
  printEnv?: boolean;
}

function declared(): Command {
  return new Command('sandbox')
    .description(
      'The local service with demo data: prints one JSON line (its SandboxInfo) when ready, and serves until SIGINT or SIGTERM.',
    )
    .option('--port <N>', 'port to listen on, 0 picks a free one (default 0)')
    .option('--host <H>', 'address to bind (default 127.0.0.1)')
    .option('--rate-limit <N>', 'requests per minute per team and kind of operation (default 100)')
    .option('--query-rate-limit <N>', 'query results that may be created per minute per team (default 10)')
    .option('--data <FILE>', 'load the data from FILE when it exists; save every change to it')
    .option('--empty', 'start without the demo data')
    .addOption(
      new Option('--demo <ENV>', 'the environment of the demo data to serve (default staging)')
        .choices(DEMO_ENVIRONMENTS)
        .conflicts('empty'),
    )
    .option(
      '--rewrites <LIST>',
      'the trigger rewrites of the service to make: all, none, or names separated by commas (every other off); without it, those the service always makes',
    )
    .option('--print-env', 'print shell lines exporting OBS_BASE_URL and OBS_CONFIG_KEY instead of the JSON line')
    .helpOption('-h, --help', 'show this help')
    .exitOverride()
    .configureOutput({
      writeOut: () => undefined,
      writeErr: () => undefined,
      outputError: () => undefined,
      getOutHelpWidth: () => 100,
    });
}

/** The program's help text. */
export const sandboxUsage = (): string => declared().helpInformation();

const nonEmpty = (flag: string, value: string): string => {
  if (value.trim() === '') throw new CliUsageError(`${flag} must not be empty`);
  return value;
};

/** The options of a command line, or a CliUsageError naming what is wrong. */
export function parseSandboxArgs(argv: readonly string[]): SandboxCommand {
  const program = declared();
  try {
    program.parse([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError && e.code === 'commander.helpDisplayed')
      return { kind: 'help', text: program.helpInformation() };
    if (e instanceof CommanderError && e.code === 'commander.excessArguments')
      throw new CliUsageError(`the sandbox takes no arguments, only options (got ${program.args.join(' ')})`);
    // commander's words name the flag: "error: unknown option '--prot'".
    if (e instanceof CommanderError) throw new CliUsageError(e.message.replace(/^error: /, ''));
    throw e;
  }
  const flags = program.opts<Flags>();
  const options: SandboxOptions = {};
  if (flags.port !== undefined) options.port = wholeNumber('--port', flags.port, 0, 65_535);
  if (flags.host !== undefined) options.host = nonEmpty('--host', flags.host);
  if (flags.rateLimit !== undefined) options.rateLimit = wholeNumber('--rate-limit', flags.rateLimit, 1, 1_000_000);
  if (flags.queryRateLimit !== undefined)
    options.queryResultRateLimit = wholeNumber('--query-rate-limit', flags.queryRateLimit, 1, 1_000_000);
  if (flags.data !== undefined) options.dataFile = nonEmpty('--data', flags.data);
  if (flags.empty === true) options.demo = false;
  if (flags.demo !== undefined) options.demoEnvironment = flags.demo;
  if (flags.rewrites !== undefined) {
    const rewrites = parseRewriteList(flags.rewrites);
    if (typeof rewrites === 'string') throw new CliUsageError(rewrites);
    options.rewrites = rewrites;
  }
  return { kind: 'serve', options, print: flags.printEnv === true ? 'env' : 'json' };
}

/** A value quoted for a POSIX shell: inside single quotes nothing is special but the quote itself. */
function shellQuoted(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * `--print-env`: the lines a shell sources to point the `obs` CLI at this sandbox (the variables
 * serviceEnv.ts reads), printed in one write.
 */
export function shellExports(info: Pick<SandboxInfo, 'baseUrl' | 'configKey'>): string {
  return `export OBS_BASE_URL=${shellQuoted(info.baseUrl)}\nexport OBS_CONFIG_KEY=${shellQuoted(info.configKey)}\n`;
}
