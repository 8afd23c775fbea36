// The entry point of obs (bundled to dist/cli.js): wires process I/O to runMain (src/cli/main.ts).
// Ctrl+C stops a pull or drift between files (what was written stays whole), and a test run between queries.
import { PROGRAM } from './io';
import { commandOf, runMain } from './main';
import { visible } from './visible';

const controller = new AbortController();
const command = commandOf(process.argv.slice(2));
if (command === 'pull' || command === 'drift' || command === 'test') {
  process.once('SIGINT', () => {
    process.stderr.write(`${PROGRAM}: stopping (Ctrl+C again to quit at once)\n`);
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
}

// A reader that stops early (`obs lint --help | head`) closes the pipe: the rest of the output has
// nowhere to go, and the command still ends with its own exit status.
let stdoutClosed = false;
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  stdoutClosed = true;
});

runMain(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => {
    if (!stdoutClosed) process.stdout.write(text);
  },
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
  stdio: { input: process.stdin, output: process.stdout },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    const text = e instanceof Error ? (e.stack ?? e.message) : String(e);
    process.stderr.write(`${PROGRAM}: unexpected failure: ${text.split('\n').map(visible).join('\n')}\n`);
    process.exitCode = 2;
  },
);
