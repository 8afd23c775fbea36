import * as z from 'zod';
import { DatasetRecord } from './state';
import { FaultSpec, type FaultInjector } from './faults';
import { json, type Reply } from './responses';
import type { RecordedRequest, SandboxInfo } from './types';

// Control endpoints under /__sandbox/ for end-to-end tests: no service auth, loopback only, no rate limit,
// not recorded and never subject to faults.

export const CONTROL_PREFIX = '/__sandbox/';

export interface ControlContext {
  faults: FaultInjector;
  requests: RecordedRequest[];
  info(): SandboxInfo;
  /** Back to the starting data (demo or empty); clears faults, recorded requests and rate-limit windows. */
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

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(body)'}: ${i.message}`).join('; ');
}

export async function handleControl(ctx: ControlContext, method: string, path: string, bodyText: string): Promise<Reply> {
  const route = `${method} ${path.slice(CONTROL_PREFIX.length)}`;
  switch (route) {
    case 'GET info':
      return json(200, ctx.info());
    case 'GET requests':
      return json(200, ctx.requests);
    case 'DELETE requests':
      ctx.requests.length = 0;
      return json(200, { cleared: true });
    case 'GET faults':
      return json(200, { latencyMs: ctx.faults.latencyMs, pending: ctx.faults.pending() });
    case 'POST faults': {
      const body = parseJson(bodyText);
      if (!body.ok) return controlError(400, 'fault body is not valid JSON');
      const spec = FaultSpec.safeParse(body.value);
      if (!spec.success) return controlError(400, `invalid fault: ${issuesText(spec.error)}`);
      ctx.faults.apply(spec.data);
      return json(200, { latencyMs: ctx.faults.latencyMs, pending: ctx.faults.pending() });
    }
    case 'POST reset':
      await ctx.reset();
      return json(200, ctx.info());
    case 'POST datasets': {
      const body = parseJson(bodyText);
      if (!body.ok) return controlError(400, 'dataset body is not valid JSON');
      const spec = AddDataset.safeParse(body.value);
      if (!spec.success) return controlError(400, `invalid dataset: ${issuesText(spec.error)}`);
      await ctx.addDataset(spec.data.slug, spec.data.columns);
      return json(201, ctx.info());
    }
    default:
      return controlError(404, `no control endpoint ${method} ${path}`);
  }
}
