import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import * as z from 'zod';
import { DatasetRecord } from './state';
import { FaultSpec, type FaultInjector } from './faults';
import { json, type Reply } from './responses';
import { parseJson } from './body';
import type { RequestLog } from './requestLog';
import { RewritesSpec, type RewriteSwitches } from './triggers/rewrites';
import type { SandboxInfo } from './types';

// Control endpoints under /__sandbox/ for end-to-end tests: no service auth, no rate limit, not recorded
// and never subject to faults. They reset the data and inject faults, so they answer only the process
// that started the sandbox: a loopback client, addressed by a loopback name (as every request must be, see
// access.ts), without a foreign Origin, carrying the per-run token that a web page cannot learn or send
// without a preflight.

export const CONTROL_PREFIX = '/__sandbox/';
const CONTROL_TOKEN_HEADER = 'x-sandbox-token';

export function newControlToken(): string {
  return randomBytes(16).toString('hex');
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Why a control request is refused, or undefined when it may go ahead. Its Host was checked already, as
 * every request's is (access.ts): `hosts` are the ones the sandbox answers.
 */
export function controlRefusal(
  req: IncomingMessage,
  sandbox: { token: string; hosts: ReadonlySet<string> },
): string | undefined {
  if (!isLoopback(req.socket.remoteAddress)) return 'control endpoints answer loopback clients only';
  const origin = req.headers.origin;
  if (origin !== undefined && !sandbox.hosts.has(origin.toLowerCase().replace(/^http:\/\//, ''))) {
    return 'control endpoints refuse requests from another Origin (a web page)';
  }
  const token = req.headers[CONTROL_TOKEN_HEADER];
  if (typeof token !== 'string' || !sameText(token, sandbox.token)) {
    return 'control endpoints need the X-Sandbox-Token header with the token the sandbox printed at start (SandboxInfo.controlToken)';
  }
  return undefined;
}

export interface ControlContext {
  faults: FaultInjector;
  log: RequestLog;
  rewrites: RewriteSwitches;
  info(): SandboxInfo;
  /** Back to the starting data (demo or empty) and trigger rewrites; clears faults, recorded requests and rate-limit windows. */
  reset(): Promise<void>;
  /** Adds a dataset with `columns` generated columns. */
  addDataset(slug: string, columns: number): Promise<void>;
}

const AddDataset = z.strictObject({
  slug: DatasetRecord.shape.slug,
  columns: z.number().int().min(0).max(100_000),
});

function controlError(status: number, error: string): Reply {
  return json(status, { error });
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(body)'}: ${i.message}`).join('; ');
}

export async function handleControl(ctx: ControlContext, method: string, path: string, body: Buffer): Promise<Reply> {
  const route = `${method} ${path.slice(CONTROL_PREFIX.length)}`;
  switch (route) {
    case 'GET info':
      return json(200, ctx.info());
    case 'GET requests':
      return json(200, ctx.log.records);
    case 'DELETE requests':
      ctx.log.clear();
      return json(200, { cleared: true });
    case 'GET faults':
      return json(200, { latencyMs: ctx.faults.latencyMs, pending: ctx.faults.pending() });
    case 'POST faults': {
      const parsed = parseJson(body);
      if (!parsed.ok) return controlError(400, `fault body ${parsed.reason}`);
      const spec = FaultSpec.safeParse(parsed.value);
      if (!spec.success) return controlError(400, `invalid fault: ${issuesText(spec.error)}`);
      ctx.faults.apply(spec.data);
      return json(200, { latencyMs: ctx.faults.latencyMs, pending: ctx.faults.pending() });
    }
    case 'GET rewrites':
      return json(200, ctx.rewrites.current);
    case 'POST rewrites': {
      const parsed = parseJson(body);
      if (!parsed.ok) return controlError(400, `rewrites body ${parsed.reason}`);
      const spec = RewritesSpec.safeParse(parsed.value);
      if (!spec.success) return controlError(400, `invalid rewrites: ${issuesText(spec.error)}`);
      return json(200, ctx.rewrites.set(spec.data));
    }
    case 'POST reset':
      await ctx.reset();
      return json(200, ctx.info());
    case 'POST datasets': {
      const parsed = parseJson(body);
      if (!parsed.ok) return controlError(400, `dataset body ${parsed.reason}`);
      const spec = AddDataset.safeParse(parsed.value);
      if (!spec.success) return controlError(400, `invalid dataset: ${issuesText(spec.error)}`);
      await ctx.addDataset(spec.data.slug, spec.data.columns);
      return json(201, ctx.info());
    }
    default:
      return controlError(404, `no control endpoint ${method} ${path}`);
  }
}
