// obs, one program (dist/cli.js, `obs` once installed) with one subcommand per job. Each command
// module declares its options once, with commander, and registers itself on the program; a new
// command (plan, apply, test, mcp) is one more module in COMMANDS. A command module imports only what
// declaring it needs: what its run needs it imports when it runs (`await import('./lintRun')`), so obs
// starts without the linter, the client or undici, and each command loads only its own.
import { Command, CommanderError } from 'commander';
import { version } from '../../package.json';
import { errorText } from '../api/errors';
import { defineApply } from './apply';
import { defineDrift } from './drift';
import { CliUsageError, EXIT_OK, EXIT_TROUBLE, PROGRAM, warn, withoutWorkflowCommands, type MainIo } from './io';
import { defineLint } from './lint';
import { defineMcp } from './mcp';
import { defineNoise } from './noise';
import { definePlan } from './plan';
import { definePull } from './pull';
import { defineReview } from './review';
import { isServiceSetupError } from './serviceEnv';
import { defineTest } from './test';

/** Adds a command to the program; its action calls `finish` with the exit status. */
type DefineCommand = (program: Command, io: MainIo, finish: (code: number) => void) => void;

const COMMANDS: readonly DefineCommand[] = [
  defineLint,
  definePull,
  defineDrift,
  definePlan,
  defineApply,
  defineReview,
  defineTest,
  defineNoise,
  defineMcp,
];

/** Help lines are wrapped at this width whatever the terminal, so the help reads the same in CI logs. */
const HELP_WIDTH = 100;

function buildProgram(io: MainIo, finish: (code: number) => void): Command {
  const program = new Command(PROGRAM)
    .description(
      "Lints trigger files, pulls the service's triggers as files, compares the files with the service, plans and applies the files' changes to it, tests triggers against past data, ranks them by the notifications they would have sent, and serves tools to AI agents (none writes configuration).",
    )
    .usage('<command> [options]')
    .version(version, '--version', 'show the version')
    .helpOption('-h, --help', 'show this help')
    .helpCommand('help [command]', 'show the help of a command')
    .exitOverride()
    // The commands as their usage lines show them (`lint [options] <FILE|GLOB...>`).
    .configureHelp({ subcommandTerm: (c) => `${c.name()} ${c.usage()}` })
    .configureOutput({
      writeOut: (t) => io.stdout(t),
      writeErr: (t) => io.stderr(t),
      outputError: () => undefined,
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
    })
    .addHelpText('after', `\nRun ${PROGRAM} <command> --help for the options of a command.\n`)
    // No command, or a word that is none: a usage error that names the commands.
    .argument('[command]')
    .allowExcessArguments()
    .action((word: string | undefined) => {
      const names = commandNames(program);
      throw new CliUsageError(
        word === undefined
          ? `no command given; the commands are ${names}`
          : `unknown command "${word}"; the commands are ${names}`,
      );
    });
  for (const define of COMMANDS) define(program, io, finish);
  return program;
}

/** "lint, pull and drift". */
function commandNames(program: Command): string {
  const names = program.commands.map((c) => c.name());
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

/** The program with output to nowhere: what it declares, not what it does (built once, when first asked). */
let declaredProgram: Command | undefined;
const declared = () =>
  (declaredProgram ??= buildProgram({ cwd: '.', stdout: () => undefined, stderr: () => undefined }, () => undefined));

/** The whole help of a command, text added after the options included (helpInformation leaves it out). */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (t) => (text += t) }).outputHelp();
  return text;
}

let usageText: string | undefined;
/** The help of the program: its commands (worded when first asked: most runs never show it). */
export function usage(): string {
  return (usageText ??= helpOf(declared()));
}

/** Options of any command that take a value, from the commands' own declarations. */
function valueOptions(): Set<string> {
  const program = declared();
  const flags = program.commands.flatMap((c) =>
    c.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]),
  );
  return new Set(flags.filter((f): f is string => f !== undefined));
}

/** The command: the first argument that is not an option or an option's value (options may come before it). */
export function commandOf(argv: readonly string[]): string | undefined {
  const takesValue = valueOptions();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') return argv[i + 1];
    if (a.startsWith('-')) {
      if (takesValue.has(a)) i++;
      continue;
    }
    return a;
  }
  return undefined;
}

/** The command word first, as commander reads it (`obs --format json drift` is `obs drift --format json`). */
function commandFirst(argv: readonly string[]): string[] {
  const command = commandOf(argv);
  const at = command === undefined ? -1 : argv.indexOf(command);
  return at <= 0 || argv[at - 1] === '--' ? [...argv] : [argv[at] ?? '', ...argv.slice(0, at), ...argv.slice(at + 1)];
}

/** A commander message ("error: unknown option '--x'") in obs's words ("Unknown option '--x'"). */
function usageMessage(e: CommanderError): string {
  const text = e.message.replace(/^error: /, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** Runs obs; returns the exit status. */
export async function runMain(argv: readonly string[], given: MainIo): Promise<number> {
  const io = withoutWorkflowCommands(given);
  let code = EXIT_OK;
  const program = buildProgram(io, (c) => (code = c));
  const args = commandFirst(argv);
  const command = program.commands.find((c) => c.name() === args[0]);
  try {
    await program.parseAsync(args, { from: 'user' });
    return code;
  } catch (e) {
    if (
      e instanceof CommanderError &&
      (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
    )
      return e.exitCode;
    if (e instanceof CommanderError || e instanceof CliUsageError) {
      warn(io, e instanceof CommanderError ? usageMessage(e) : e.message);
      io.stderr(`\n${command === undefined ? '' : `${helpOf(command)}\n`}${usage()}`);
      return EXIT_TROUBLE;
    }
    if (isServiceSetupError(e)) {
      warn(io, e.message);
      return EXIT_TROUBLE;
    }
    warn(io, `${command?.name() ?? PROGRAM} failed: ${errorText(e)}`);
    return EXIT_TROUBLE;
  }
}
