// `npm run sandbox -- [--port N] [--host H] [--rate-limit N] [--data FILE] [--empty | --demo ENV] [--print-env]`
// Prints exactly one line of JSON (the SandboxInfo) on stdout when ready, or with --print-env the shell lines
// exporting OBS_BASE_URL and OBS_CONFIG_KEY; serves until SIGINT/SIGTERM, then exits 0.
// Exit codes: 0 clean stop, 1 could not start (e.g. port in use), 2 bad flags or a corrupt data file.
import { DataFileError, startSandbox } from '../sandbox';
import { parseSandboxArgs, sandboxUsage, shellExports, type SandboxCommand } from './sandboxArgs';

async function main(): Promise<void> {
  let command: SandboxCommand;
  try {
    command = parseSandboxArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`sandbox: ${(err as Error).message}\n${sandboxUsage()}`);
    process.exitCode = 2;
    return;
  }
  if (command.kind === 'help') {
    process.stdout.write(command.text);
    return;
  }

  let handle;
  try {
    handle = await startSandbox(command.options);
  } catch (err) {
    if (err instanceof DataFileError) {
      process.stderr.write(`sandbox: --data: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    const code = (err as NodeJS.ErrnoException).code;
    const where = `${command.options.host ?? '127.0.0.1'}:${command.options.port ?? 0}`;
    const reason = code === 'EADDRINUSE' ? `--port: ${where} is already in use` : (err as Error).message;
    process.stderr.write(`sandbox: cannot start: ${reason}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(command.print === 'env' ? shellExports(handle.info) : `${JSON.stringify(handle.info)}\n`);

  const running = handle;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`sandbox: error while stopping: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
