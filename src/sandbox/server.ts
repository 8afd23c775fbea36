import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowedHosts, carriesCredential, hostRefusal } from './access';
import { MAX_BODY_BYTES, readBody, type ReceivedBody } from './body';
import { CONTROL_PREFIX, controlRefusal, handleControl, newControlToken, type ControlContext } from './control';
import { lockDataFile, type DataFileLock } from './dataFileLock';
import { delayUnlessClosed, faultReply, send } from './delivery';
import { addWideDataset, demoData, emptyData } from './demoData';
import { credentialsFor, productionData } from './demoProduction';
import { FaultInjector } from './faults';
import { ListCache } from './listCache';
import { DataFileStore } from './persistence';
import { DEFAULT_QUERY_RESULT_RATE_LIMIT, QueryRuntime } from './queries/runtime';
import { RateLimiter } from './rateLimiter';
import { RequestLog } from './requestLog';
import { errorFor, json, problem, type Api, type Reply } from './responses';
import { operationKind } from './router';
import { serviceReply, type ServiceContext } from './service';
import { dataOf, replaceData, type SandboxData, type SandboxState } from './state';
import type { SandboxHandle, SandboxInfo, SandboxOptions } from './types';
import { UI_PREFIX, uiPage } from './ui';
import { WriteQueue } from './writes';
import { RewriteSwitches, type RewritesSpec } from './triggers/rewrites';

export { MAX_BODY_BYTES } from './body';

interface Settings {
  host: string;
  port: number;
  clock: () => number;
  rateLimit: number;
  queryRateLimit: number;
  controlToken: string;
  initialData: () => SandboxData;
  rewrites: RewritesSpec;
}

/** What the sandbox starts (and resets) with: no datasets, or one environment of the demo. */
function initialDataOf(opts: SandboxOptions): () => SandboxData {
  if (opts.demo === false && opts.demoEnvironment !== undefined)
    throw new RangeError('demoEnvironment needs the demo data: it cannot go with demo: false');
  if (opts.demo === false) return emptyData;
  return opts.demoEnvironment === 'production' ? () => productionData(demoData()) : demoData;
}

/** The options with their defaults, or a RangeError naming the bad one. */
function settingsOf(opts: SandboxOptions): Settings {
  const port = opts.port ?? 0;
  const rateLimit = opts.rateLimit ?? 100;
  const queryRateLimit = opts.queryResultRateLimit ?? DEFAULT_QUERY_RESULT_RATE_LIMIT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new RangeError(`port must be 0 to 65535, got ${port}`);
  if (!Number.isInteger(rateLimit) || rateLimit < 1)
    throw new RangeError(`rateLimit must be a whole number >= 1, got ${rateLimit}`);
  if (!Number.isInteger(queryRateLimit) || queryRateLimit < 1)
    throw new RangeError(`queryResultRateLimit must be a whole number >= 1, got ${queryRateLimit}`);
  // A short token could be guessed by a web page trying them one after another.
  if (opts.controlToken !== undefined && opts.controlToken.length < 16)
    throw new RangeError('controlToken must be at least 16 characters');
  return {
    host: opts.host ?? '127.0.0.1',
    port,
    clock: opts.clock ?? Date.now,
    rateLimit,
    queryRateLimit,
    // Control requests must carry it (X-Sandbox-Token): a web page the user visits cannot learn it.
    controlToken: opts.controlToken ?? newControlToken(),
    initialData: initialDataOf(opts),
    rewrites: opts.rewrites ?? {},
  };
}

interface OpenedData {
  state: SandboxState;
  store: DataFileStore | undefined;
  lock: DataFileLock | undefined;
}

/** The starting state: from the data file when there is one (locked for this sandbox), else the demo or empty data. */
async function openData(dataFile: string | undefined, initialData: () => SandboxData): Promise<OpenedData> {
  // The keys are those of the environment the data is of, also when it comes from a data file.
  const fresh = (data: SandboxData = initialData()): SandboxState => ({
    ...data,
    credentials: credentialsFor(data.environmentId),
  });
  if (dataFile === undefined) return { state: fresh(undefined), store: undefined, lock: undefined };
  const store = new DataFileStore(dataFile);
  // One sandbox per data file: two would overwrite each other's writes.
  const lock = await lockDataFile(dataFile);
  try {
    const data = await store.load();
    const state = fresh(data);
    // A new file is written at once, so an unwritable location fails at start, not at the first edit.
    if (data === undefined) await store.save(dataOf(state));
    return { state, store, lock };
  } catch (err) {
    await lock.release();
    throw err;
  }
}

/** Everything a request is answered from. */
interface Sandbox extends ServiceContext {
  settings: Settings;
  faults: FaultInjector;
  log: RequestLog;
  /** The Host values answered; known once the sandbox listens. */
  hosts: ReadonlySet<string>;
  info(): SandboxInfo;
}

function newSandbox(settings: Settings, { state, store }: OpenedData): Sandbox {
  const lists = new ListCache();
  const sb: Sandbox = {
    settings,
    state,
    now: () => new Date(settings.clock()),
    faults: new FaultInjector(),
    log: new RequestLog(),
    lists,
    limiter: new RateLimiter(settings.rateLimit, settings.clock),
    queries: new QueryRuntime(settings.queryRateLimit, settings.clock),
    writes: new WriteQueue(state, store, lists),
    baseUrl: '',
    // An answer kept from before a switch changed is not the service's answer any more.
    rewrites: new RewriteSwitches(settings.rewrites, () => lists.clear()),
    hosts: new Set(),
    info: () => infoOf(sb),
  };
  return sb;
}

function infoOf(sb: Sandbox): SandboxInfo {
  const { state, baseUrl } = sb;
  const management = state.credentials.managementKey;
  const writer = state.credentials.configKeys.find((k) => k.canWrite) ?? state.credentials.configKeys[0];
  return {
    baseUrl,
    uiUrl: `${baseUrl}${UI_PREFIX}`,
    team: state.team,
    environmentId: state.environmentId,
    configKey: writer?.key ?? '',
    managementKey: `${management.id}:${management.secret}`,
    datasets: state.datasets.map((d) => d.slug),
    slos: state.slos.map((s) => ({ dataset: s.dataset, id: s.id })),
    controlToken: sb.settings.controlToken,
  };
}

function controlContext(sb: Sandbox): ControlContext {
  return {
    faults: sb.faults,
    log: sb.log,
    rewrites: sb.rewrites,
    info: () => sb.info(),
    reset: async () => {
      replaceData(sb.state, sb.settings.initialData());
      sb.state.credentials = credentialsFor(sb.state.environmentId);
      sb.lists.clear();
      sb.faults.clear();
      sb.rewrites.reset();
      sb.log.clear();
      sb.limiter.reset();
      sb.queries.reset();
      await sb.writes.persist();
    },
    addDataset: async (slug, columns) => {
      addWideDataset(sb.state, slug, columns);
      sb.lists.changed('columns', slug);
      sb.lists.changed('triggers', slug);
      await sb.writes.persist();
    },
  };
}

type Target = 'control' | 'ui' | 'service';

function targetOf(path: string): Target {
  if (path.startsWith(CONTROL_PREFIX)) return 'control';
  return path === UI_PREFIX || path.startsWith(`${UI_PREFIX}/`) ? 'ui' : 'service';
}

/** A request whose Host is not the sandbox's: 403 in the shape of what it asked for. */
function foreignHostReply(sb: Sandbox, target: Target, api: Api, method: string, refusal: string): Reply {
  if (target === 'control') return json(403, { error: refusal });
  const rate = sb.limiter.peek(sb.state.team, operationKind(method));
  return { ...errorFor(api, sb.baseUrl, 403, refusal, { header: 'Host' }), headers: rate.headers };
}

async function controlReply(sb: Sandbox, req: IncomingMessage, url: URL, body: ReceivedBody): Promise<Reply> {
  const refusal = controlRefusal(req, { token: sb.settings.controlToken, hosts: sb.hosts });
  if (refusal !== undefined) return json(403, { error: refusal });
  if (body.tooLarge) return json(413, { error: `request body is ${body.size} bytes; the limit is ${MAX_BODY_BYTES}` });
  return handleControl(controlContext(sb), req.method ?? 'GET', url.pathname, body.bytes);
}

/**
 * Answers one request: the Host check (every route), then the control endpoints, the UI stand-in, or the
 * service, which records requests carrying a key and applies injected faults and latency.
 */
async function onRequest(sb: Sandbox, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const method = req.method ?? 'GET';
  const target = targetOf(url.pathname);
  const api: Api = url.pathname.startsWith('/2/') ? 'v2' : 'v1';
  const foreignHost = hostRefusal(req, sb.hosts);
  // Only a body that will be used is kept: a control body, or a service body sent with a key.
  const keyed = foreignHost === undefined && target === 'service' && carriesCredential(req, sb.state.credentials);
  const body = await readBody(req, keyed || (foreignHost === undefined && target === 'control'));
  if (!body) return;

  if (foreignHost !== undefined) return send(res, foreignHostReply(sb, target, api, method, foreignHost));
  if (target === 'control') return send(res, await controlReply(sb, req, url, body));
  if (target === 'ui') return send(res, uiPage(url.pathname));

  if (keyed) sb.log.record(req, url, body, sb.now());
  if (sb.faults.latencyMs > 0 && !(await delayUnlessClosed(sb.faults.latencyMs, res))) return;
  const fault = sb.faults.take(method, url.pathname);
  if (fault?.kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (fault?.kind === 'status' || fault?.kind === 'html') {
    const rate = sb.limiter.peek(sb.state.team, operationKind(method));
    return send(res, faultReply(fault, api, { baseUrl: sb.baseUrl, rate }));
  }
  send(res, await serviceReply(sb, { req, url, api, body }), fault);
}

function requestListener(sb: Sandbox) {
  return (req: IncomingMessage, res: ServerResponse) => {
    onRequest(sb, req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const rate = sb.limiter.peek(sb.state.team, operationKind(req.method ?? 'GET'));
      send(res, {
        ...problem(sb.baseUrl, 500, `internal sandbox error: ${(err as Error).message}`),
        headers: rate.headers,
      });
    });
  };
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Listens; the port bound (the one asked for, or a free one for 0). */
function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops listening, ends open connections, waits for the last save, then lets the data file go. */
function closer(server: Server, data: OpenedData): () => Promise<void> {
  let closed: Promise<void> | undefined;
  return () => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    })
      .then(() => data.store?.flush())
      .finally(() => data.lock?.release());
    return closed;
  };
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const settings = settingsOf(opts);
  const data = await openData(opts.dataFile, settings.initialData);
  const sb = newSandbox(settings, data);
  const server = createServer(requestListener(sb));
  let port: number;
  try {
    port = await listen(server, settings.host, settings.port);
  } catch (err) {
    await data.lock?.release();
    throw err;
  }
  sb.baseUrl = `http://${hostForUrl(settings.host)}:${port}`;
  sb.hosts = allowedHosts(settings.host, port);
  return {
    get info() {
      return sb.info();
    },
    faults: sb.faults,
    rewrites: sb.rewrites,
    requests: sb.log.records,
    state: sb.state,
    close: closer(server, data),
  };
}
