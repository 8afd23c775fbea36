// The documents the figures are measured on: trigger files as people and the service write them,
// and the inputs that used to take quadratic time or crash. Deterministic; written once per run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A trigger as a user writes it; `listed` adds the read-only members the service lists it with. */
export function trigger(i: number, listed: boolean): Record<string, unknown> {
  return {
    ...(listed ? { id: `t${i}` } : {}),
    dataset_slug: 'api',
    name: `Slow checkout requests ${i}`,
    description: 'P99 latency of the checkout route, paging the payments on-call engineer.',
    tags: [{ key: 'team', value: 'payments' }],
    threshold: { op: '>', value: 1500, exceeded_limit: 2 },
    frequency: 300,
    alert_type: 'on_change',
    disabled: false,
    recipients: [{ id: 'rcp_4f2a' }],
    evaluation_schedule_type: 'frequency',
    query: {
      calculations: [{ op: 'P99', column: 'duration_ms' }],
      filters: [{ column: 'route', op: '=', value: '/checkout' }],
      breakdowns: ['service'],
      time_range: 1200,
    },
  };
}

export const triggers = (n: number, listed: boolean): string =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => trigger(i, listed)),
    null,
    2,
  );

/**
 * A trigger as the service lists it (the shapes of test/fixtures/service/triggers-listed.json): its id, the
 * members the service sets (triggered, created_at, updated_at), null where a member is unset, recipients
 * with their type and target. Linted as a file to write, it draws three infos, one per member the service sets.
 */
export function listedByService(i: number): Record<string, unknown> {
  const { recipients: _given, ...t } = trigger(i, true);
  const day = String(1 + (i % 28)).padStart(2, '0');
  return {
    ...t,
    triggered: i % 7 === 0,
    recipients: [{ id: 'rcp_4f2a', type: 'email', target: 'payments-oncall@example.com' }],
    evaluation_schedule: null,
    baseline_details: null,
    created_at: `2025-06-${day}T10:00:00Z`,
    updated_at: `2025-07-${day}T10:00:00Z`,
  };
}

export const serviceListed = (n: number): string =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => listedByService(i)),
    null,
    2,
  );

/** One trigger with n unknown members (the quadratic case of the issue: 100,000, and 1,000,000 that crashed). */
export function unknownMembers(n: number): string {
  const base = JSON.stringify(trigger(0, false), null, 2).replace(/\n}$/, '');
  const parts = [base];
  for (let i = 0; i < n; i++) parts.push(`,\n  "x${i}": ${i}`);
  parts.push('\n}\n');
  return parts.join('');
}

/** An array of triggers of about `bytes` characters; `broken` leaves out the final `]`. */
export function bigArray(bytes: number, broken: boolean): string {
  const parts = ['[\n'];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const t = (i === 0 ? '' : ',\n') + JSON.stringify(trigger(i, true), null, 2);
    parts.push(t);
    size += t.length;
  }
  parts.push(broken ? '\n' : '\n]\n');
  return parts.join('');
}

/**
 * The ways a large array of triggers is broken, each a figure: where JSON.parse gives up (at the end, half
 * way, near the end) decides what it built before refusing the text.
 */
export const BROKEN_SHAPES = {
  broken50mb: 'missing its final ]',
  comma50: 'missing a comma between triggers half way',
  comma95: 'missing a comma between triggers at 95%',
  string50: 'a string not closed half way',
  stray50: 'a stray token half way',
} as const;

/** The valid array `text` broken one way, at about `at` (0 to 1) of its length. */
function brokenAt(text: string, shape: Exclude<keyof typeof BROKEN_SHAPES, 'broken50mb'>, at: number): string {
  const from = Math.floor(text.length * at);
  if (shape === 'comma50' || shape === 'comma95') {
    const i = text.indexOf('},\n{', from);
    return `${text.slice(0, i + 1)}${text.slice(i + 2)}`;
  }
  if (shape === 'string50') {
    // The closing quote of a trigger's name left out: the string runs to the end of its line.
    const open = text.indexOf('"name": "', from) + '"name": '.length;
    const close = text.indexOf('"', open + 1);
    return `${text.slice(0, close)}${text.slice(close + 1)}`;
  }
  const i = text.indexOf('"frequency"', from);
  return `${text.slice(0, i)}@ ${text.slice(i)}`;
}

/** A trigger whose query has n calculations and a having (each extra aggregate's message used to list them all). */
export function manyCalculations(n: number): string {
  const t = trigger(0, false);
  t.query = {
    calculations: Array.from({ length: n }, (_, i) => ({ op: 'SUM', column: `c${i}` })),
    havings: [{ calculate_op: 'SUM', column: 'c0', op: '>', value: 1 }],
    time_range: 1200,
  };
  return JSON.stringify(t, null, 2);
}

/** Writes the inputs of a run; the scale (1 for the full run, smaller for --quick) shrinks every size. */
export function writeInputs(dir: string, scale: number): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const n = (x: number) => Math.max(1, Math.round(x * scale));
  const files: Record<string, string> = {
    clean: triggers(n(10_000), false),
    withIds: triggers(n(10_000), true),
    serviceListed: serviceListed(n(10_000)),
    unknown100k: unknownMembers(n(100_000)),
    unknown1m: unknownMembers(n(1_000_000)),
    valid50mb: bigArray(n(50_000_000), false),
    broken50mb: bigArray(n(50_000_000), true),
  };
  const valid = files.valid50mb ?? '';
  files.comma50 = brokenAt(valid, 'comma50', 0.5);
  files.comma95 = brokenAt(valid, 'comma95', 0.95);
  files.string50 = brokenAt(valid, 'string50', 0.5);
  files.stray50 = brokenAt(valid, 'stray50', 0.5);
  const paths: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) {
    paths[name] = join(dir, `${name}.json`);
    writeFileSync(paths[name], text);
  }
  return paths;
}
