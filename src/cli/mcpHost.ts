// What the tools of `obs mcp` run against: the service named by the environment (OBS_BASE_URL,
// OBS_CONFIG_KEY; never an argument), the trigger, burn alert and definitions files under the folder the
// server runs in (a path that leaves it is refused), and the one plan pipeline with the gates of `obs plan`.
// Nothing here writes.
import type { CliEnvironment } from './environment';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ServiceClient } from '../api/client';
import {
  ToolError,
  type PlanWithNotes,
  type QueryRunner,
  type ServiceReader,
  type SourceFile,
  type ToolHost,
} from '../agentTools';
import { ResultCache } from '../backtest/cache';
import { CreationPacer, systemClock } from '../backtest/runner';
import { lintNamedText, type DatasetColumns } from '../lint';
import { keyFingerprint, planWithGates } from '../triggerFiles';
import { notReadText, placeIn } from '../triggerFiles/contained';
import { isGlob } from './files';
import type { MainIo } from './io';
import { ENV_METRICS_DATASETS, ENV_TRIGGER_FOLDER } from './mcpEnv';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY, ServiceSetupError } from './service';
import { readTriggerFiles, sourcesOf } from './triggerInputs';

export { ENV_TRIGGER_FOLDER } from './mcpEnv';

/** How the obs_lint tool's text is named to the linter: it is a trigger's, linted by the trigger rules. */
const TOOL_TEXT_NAME = 'tool-text.trigger.json';

/** A trigger file larger than this is not read by the server (`obs lint` and `obs plan` read up to 64 MiB). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const CONCURRENCY = 4;

const stripPrefix = (line: string) => line.replace(/^obs: /, '').trim();

/**
 * Why a path given by a caller may not be read: absolute, a glob (a pattern could reach out of the folder;
 * files and folders are enough), or outside the folder the server runs in once links are resolved.
 */
async function pathProblem(path: string, cwd: string): Promise<string | undefined> {
  if (isAbsolute(path) || /^[a-zA-Z]:/.test(path))
    return `${JSON.stringify(path)} is absolute: give paths relative to the folder the server runs in`;
  const placement = await placeIn(cwd, path);
  if (placement === 'outside') return `${JSON.stringify(path)} leaves the folder the server runs in`;
  if (placement !== 'inside') return notReadText(JSON.stringify(path), placement, 'the folder the server runs in');
  if ((await isGlob(path)) && !existsSync(resolve(cwd, path)))
    return `${JSON.stringify(path)} is a pattern: name trigger files or folders`;
  return undefined;
}

/** The end of a metrics rule's message: how this server is told a dataset is a metrics dataset. */
const metricsDatasetHint = (slug: string | undefined): string =>
  `name it in ${ENV_METRICS_DATASETS}${slug === undefined ? '' : ` (${slug})`} where the server is configured`;

export interface McpHost extends ToolHost {
  close(): Promise<void>;
}

/**
 * The server's host: one client for the whole session, made on first use. With `environment` (obs mcp --env), its
 * service is the one the environment's variables name (io.env holds them already), and drift and plan work on the
 * files as it sees them, as obs drift --env and obs plan --env do.
 */
export function mcpHost(io: Pick<MainIo, 'cwd' | 'env'>, environment?: CliEnvironment): McpHost {
  const env = io.env ?? {};
  const overlay = environment?.plan.overlay;
  const folder = env[ENV_TRIGGER_FOLDER];
  const cwd = folder === undefined ? io.cwd : resolve(io.cwd, folder);
  let client: ServiceClient | undefined;
  const service = (): ServiceClient => {
    try {
      client ??= clientFromEnvironment(env);
    } catch (e) {
      if (e instanceof ServiceSetupError) throw new ToolError(`no service is configured for this server: ${e.message}`);
      throw e;
    }
    return client;
  };
  /** An io whose warnings become the answer's notes, never the protocol's stdout. */
  const collecting = (signal: AbortSignal) => {
    const lines: string[] = [];
    const sink: MainIo = {
      cwd,
      env,
      signal,
      stdout: () => undefined,
      stderr: (t) =>
        void lines.push(
          ...t
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map(stripPrefix),
        ),
    };
    return { lines, sink };
  };
  // One pacer for the session: the service creates 10 query results a minute for the team.
  const pacer = new CreationPacer(systemClock);
  // The session's query results: a noise report again over the same triggers creates none it already has.
  const results = new ResultCache();
  const metrics = (env[ENV_METRICS_DATASETS] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const lintHere = async (
    text: string,
    columns: Readonly<Record<string, DatasetColumns>> | undefined,
    file: string = TOOL_TEXT_NAME,
  ) =>
    lintNamedText(file, text, {
      metricsDatasets: metrics,
      metricsDatasetHint,
      ...(columns === undefined ? {} : { columns }),
    });
  return {
    service: async (): Promise<ServiceReader> => service(),
    queries: async (): Promise<QueryRunner> => ({ api: service(), pacer, clock: systemClock, results }),
    lint: async (text, columns) => lintHere(text, columns),
    target: () => {
      const base = (env[ENV_BASE_URL] ?? '').trim() || `(no ${ENV_BASE_URL})`;
      return environment === undefined ? base : `${base} (${environment.plan.name})`;
    },
    files: {
      ...(environment === undefined || overlay === undefined
        ? {}
        : { environment: { name: environment.plan.name, overlay } }),
      read: async (paths, kinds, signal) => {
        if (folder !== undefined && folder.trim() === '')
          throw new ToolError('no folder of trigger files is open: ask the user to open the folder that holds them');
        const refused = (await Promise.all(paths.map((p) => pathProblem(p, cwd)))).filter(
          (p): p is string => p !== undefined,
        );
        if (refused.length > 0) throw new ToolError(refused.join('; '));
        const { lines, sink } = collecting(signal);
        const files: SourceFile[] = sourcesOf(await readTriggerFiles(paths, sink, MAX_FILE_BYTES, kinds));
        return { files, problems: lines };
      },
      plan: async (files, prune, signal): Promise<PlanWithNotes> => {
        const { plan, notes, listingFailures } = await planWithGates({
          sources: files,
          service: service(),
          lint: (text, columns, _signal, file) => lintHere(text, columns, file),
          target: {
            baseUrl: (env[ENV_BASE_URL] ?? '').trim(),
            key: keyFingerprint((env[ENV_CONFIG_KEY] ?? '').trim(), randomBytes(16).toString('hex')),
          },
          inputs: {
            scope: { kind: prune ? 'all' : 'files' },
            allowUnknownColumns: false,
            // Another environment than the home one finds each trigger by name: the files' ids are the home's.
            matchByName: overlay !== undefined,
            metricsDatasets: metrics,
            ...(environment === undefined ? {} : { environment: environment.record }),
          },
          ...(environment === undefined ? {} : { environment: environment.plan }),
          concurrency: CONCURRENCY,
          now: new Date(),
          signal,
        });
        return {
          plan,
          notes: [...listingFailures.map((f) => `could not list the triggers of ${f.dataset}: ${f.message}`), ...notes],
        };
      },
    },
    close: async () => {
      await client?.close();
    },
  };
}
