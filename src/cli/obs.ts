// The entry point of obs (bundled to dist/cli.js): wires process I/O to runMain (src/cli/main.ts).
// Ctrl+C (or SIGTERM) stops a pull or drift between files (what was written stays whole), a test run or a noise report between
// queries, and an apply after the write in flight.
import { enableCompileCache } from './compileCache';
import { PROGRAM, withoutWorkflowCommands, type MainIo } from './io';
import { commandOf, runMain } from './main';
import { visible } from './visible';

// Before a command's run loads its bundle.
enableCompileCache();
const controller = new AbortController();
const command = commandOf(process.argv.slice(2));
if (
  command === 'pull' ||
  command === 'drift' ||
  command === 'test' ||
  command === 'noise' ||
  command === 'plan' ||
  command === 'apply'
) {
  // An apply stops after the write in flight: its created id goes into its file and its lock is released.
  const what = command === 'apply' ? 'stopping after the write in flight' : 'stopping';
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(
        `${PROGRAM}: ${what} (${signal === 'SIGINT' ? 'Ctrl+C' : 'SIGTERM'} again to quit at once)\n`,
      );
      controller.abort();
      process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

// A reader that stops early (`obs lint --help | head`) closes the pipe: the rest of the output has
// nowhere to go, and the command still ends with its own exit status.
let stdoutClosed = false;
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  stdoutClosed = true;
});
// The same for stderr (`obs apply 2>&1 | head`): a closed pipe must not end an apply before it releases its lock.
let stderrClosed = false;
process.stderr.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  stderrClosed = true;
});

const io: MainIo = {
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => {
    if (!stdoutClosed) process.stdout.write(text);
  },
  stderr: (text) => {
    if (!stderrClosed) process.stderr.write(text);
  },
  signal: controller.signal,
  stdio: { input: process.stdin, output: process.stdout },
};
runMain(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    const text = e instanceof Error ? (e.stack ?? e.message) : String(e);
    withoutWorkflowCommands(io).stderr(`${PROGRAM}: unexpected failure: ${text.split('\n').map(visible).join('\n')}\n`);
    process.exitCode = 2;
  },
);
