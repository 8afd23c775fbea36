// obs-lint entry point (bundled to dist/cli.js): lint, pull and drift (src/cli/main.ts). Ctrl+C stops
// a pull or drift between files: what was written stays whole.
import { commandOf, runMain } from './main';

const controller = new AbortController();
const command = commandOf(process.argv.slice(2));
if (command === 'pull' || command === 'drift') {
  process.once('SIGINT', () => {
    process.stderr.write('obs-lint: stopping (Ctrl+C again to quit at once)\n');
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
}

runMain(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`obs-lint: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 2;
  },
);
