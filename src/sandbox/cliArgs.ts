import { parseArgs } from 'node:util';
import { parseRewriteList } from './triggers/rewrites';
import type { SandboxInfo, SandboxOptions } from './types';

// Flags of the sandbox CLI (src/cli/sandbox.ts), kept here so they can be tested without starting a process.

export const USAGE = `usage: sandbox [--port N] [--host H] [--rate-limit N] [--query-rate-limit N] [--data FILE] [--empty] [--rewrites LIST] [--print-env]
  --port N         port to listen on, 0 picks a free one (default 0)
  --host H         address to bind (default 127.0.0.1)
  --rate-limit N   requests per minute per team and kind of operation (default 100)
  --query-rate-limit N  query results that may be created per minute per team (default 10)
  --data FILE      load the data from FILE when it exists; save every change to it
  --empty          start without the demo data
  --rewrites LIST  the trigger rewrites of the service to make: all, none, or names separated by commas
                   (every other off); without it, those the service always makes
  --print-env      print shell lines exporting OBS_BASE_URL and OBS_CONFIG_KEY instead of the JSON line
  --help           show this help`;

export class UsageError extends Error {
  readonly kind = 'usage';
}

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

function nonEmpty(flag: string, value: string): string {
  if (value.trim() === '') throw new UsageError(`${flag} must not be empty`);
  return value;
}

/** What the CLI prints when ready: the SandboxInfo as one JSON line, or shell lines to export. */
type ReadyOutput = 'json' | 'env';

export type CliCommand = { kind: 'help' } | { kind: 'serve'; options: SandboxOptions; print: ReadyOutput };

export function parseCommandLine(argv: string[]): CliCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'rate-limit': { type: 'string' },
        'query-rate-limit': { type: 'string' },
        data: { type: 'string' },
        empty: { type: 'boolean' },
        rewrites: { type: 'string' },
        'print-env': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    // node's messages name the flag: "Unknown option '--prot'", "Option '--port <value>' argument missing".
    throw new UsageError((err as Error).message);
  }
  if (values.help === true) return { kind: 'help' };
  const options: SandboxOptions = {};
  if (values.port !== undefined) options.port = wholeNumber('--port', values.port, 0, 65_535);
  if (values.host !== undefined) options.host = nonEmpty('--host', values.host);
  if (values['rate-limit'] !== undefined) options.rateLimit = wholeNumber('--rate-limit', values['rate-limit'], 1, 1_000_000);
  if (values['query-rate-limit'] !== undefined) options.queryResultRateLimit = wholeNumber('--query-rate-limit', values['query-rate-limit'], 1, 1_000_000);
  if (values.data !== undefined) options.dataFile = nonEmpty('--data', values.data);
  if (values.empty === true) options.demo = false;
  if (values.rewrites !== undefined) {
    const rewrites = parseRewriteList(values.rewrites);
    if (typeof rewrites === 'string') throw new UsageError(rewrites);
    options.rewrites = rewrites;
  }
  return { kind: 'serve', options, print: values['print-env'] === true ? 'env' : 'json' };
}

/** A value quoted for a POSIX shell: inside single quotes nothing is special but the quote itself. */
function shellQuoted(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * `--print-env`: the lines a shell sources to point the `obs` CLI at this sandbox (the variables
 * src/cli/service.ts reads), printed in one write.
 */
export function shellExports(info: Pick<SandboxInfo, 'baseUrl' | 'configKey'>): string {
  return `export OBS_BASE_URL=${shellQuoted(info.baseUrl)}\nexport OBS_CONFIG_KEY=${shellQuoted(info.configKey)}\n`;
}
