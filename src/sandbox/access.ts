import type { IncomingMessage } from 'node:http';
import { jsonApi, jsonApiError, legacy, UNKNOWN_KEY_MESSAGE, type Api, type Reply } from './responses';
import type { ConfigKey, SandboxCredentials } from './state';
import type { Outcome } from '../result';

// Who the sandbox answers. Every route first checks the Host header: a web page that has its own name
// resolve to 127.0.0.1 (DNS rebinding) reaches the sandbox as its own origin, so it may send any header,
// the sandbox's fixed public credentials included; only its Host still names the page's site. Then the
// service routes check the credentials of their API group.

/** The Host values the sandbox answers: its loopback names and the address it is bound to, with its port. */
export function allowedHosts(boundHost: string, port: number): ReadonlySet<string> {
  const bound = boundHost.includes(':') ? `[${boundHost}]` : boundHost;
  // A wildcard bind (0.0.0.0, ::) is no name anyone is addressed by: only the loopback names are answered then.
  const names = WILDCARDS.has(boundHost) ? LOOPBACK : [...LOOPBACK, bound.toLowerCase()];
  return new Set(names.map((name) => `${name}:${port}`));
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** Why a request is refused for its Host, or undefined when it names the sandbox. */
export function hostRefusal(req: IncomingMessage, allowed: ReadonlySet<string>): string | undefined {
  if (allowed.has((req.headers.host ?? '').toLowerCase())) return undefined;
  return (
    `the sandbox answers only requests addressed to it (Host ${[...allowed].join(' or ')}); ` +
    'a request naming another host, as a web page reaching it through DNS rebinding does, is refused'
  );
}

const BEARER = /^Bearer ([^:\s]+):(\S+)$/;

function configKeyOf(req: IncomingMessage, credentials: SandboxCredentials): ConfigKey | undefined {
  const key = req.headers['x-service-team'];
  return credentials.configKeys.find((k) => k.key === key);
}

function isManagementKey(req: IncomingMessage, credentials: SandboxCredentials): boolean {
  const m = BEARER.exec(req.headers.authorization ?? '');
  return m !== null && m[1] === credentials.managementKey.id && m[2] === credentials.managementKey.secret;
}

/** True when the request carries one of the sandbox's keys (for either API group). */
export function carriesCredential(req: IncomingMessage, credentials: SandboxCredentials): boolean {
  return configKeyOf(req, credentials) !== undefined || isManagementKey(req, credentials);
}

export type Authentication = Outcome<{ configKey: ConfigKey | undefined }, Reply>;

/** The key of a request to a route of `api`, or its 401: v1 takes a configuration key, v2 the management key. */
export function authenticate(req: IncomingMessage, api: Api, credentials: SandboxCredentials): Authentication {
  if (api === 'v1') {
    const configKey = configKeyOf(req, credentials);
    return configKey ? { ok: true, configKey } : { ok: false, reason: legacy(401, UNKNOWN_KEY_MESSAGE) };
  }
  if (isManagementKey(req, credentials)) return { ok: true, configKey: undefined };
  const detail = BEARER.test(req.headers.authorization ?? '')
    ? 'unknown management key'
    : 'expected "Authorization: Bearer <KEY_ID>:<KEY_SECRET>"';
  return { ok: false, reason: jsonApi(401, [jsonApiError(401, detail, { header: 'Authorization' })]) };
}
