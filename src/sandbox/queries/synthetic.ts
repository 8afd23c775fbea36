// Deterministic synthetic events for the sandbox's queries: per dataset, a daily shape (quiet at 03:00 UTC,
// busiest at 15:00), noise, and a few incidents a day (error bursts, slow spells, traffic surges, a hot
// host), so that the demo triggers visibly fire in a preview. Nothing is stored: the events of a minute
// are computed from the dataset's slug and the minute, and are the same on every call and every machine.

export type EventValue = string | number | boolean;
export type SyntheticEvent = Record<string, EventValue>;

const MINUTE = 60;
const DAY = 86_400;

/** 32-bit FNV-1a of a string. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, fast, seedable generator in [0, 1). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** 0.35 at 03:00 UTC rising to 1 at 15:00 UTC. */
function dailyShape(epochSeconds: number): number {
  const hour = (epochSeconds % DAY) / 3600;
  return 0.35 + 0.65 * (0.5 - 0.5 * Math.cos((2 * Math.PI * (hour - 3)) / 24));
}

const isWeekend = (epochSeconds: number): boolean => {
  const day = new Date(epochSeconds * 1000).getUTCDay();
  return day === 0 || day === 6;
};

/** Roughly normal, mean 0 and deviation 1 (sum of uniforms). */
function gauss(r: () => number): number {
  return r() + r() + r() + r() - 2;
}

function pick<T>(r: () => number, items: readonly (readonly [T, number])[]): T {
  let x = r() * items.reduce((s, [, w]) => s + w, 0);
  for (const [item, w] of items) {
    x -= w;
    if (x <= 0) return item;
  }
  return (items[items.length - 1] as readonly [T, number])[0];
}

/** Events in this minute from a rate per minute: the whole part always, the fraction by chance. */
function countFor(rate: number, r: () => number): number {
  const noisy = rate * (1 + 0.3 * (r() - 0.5));
  const whole = Math.floor(noisy);
  return whole + (r() < noisy - whole ? 1 : 0);
}

export interface Incident {
  kind: 'errors' | 'slow' | 'surge' | 'hot-host' | 'payments-failing';
  /** Epoch seconds, start inclusive, end exclusive. */
  start: number;
  end: number;
  /** The route, host or other thing hit; '' when it is the whole dataset. */
  target: string;
}

const GATEWAY_ROUTES = [
  ['/api/checkout', 0.18, 180, 'POST', 'edge-proxy'],
  ['/api/cart', 0.22, 90, 'GET', 'edge-proxy'],
  ['/api/search', 0.25, 140, 'GET', 'catalog'],
  ['/api/login', 0.1, 110, 'POST', 'auth'],
  ['/api/products', 0.2, 70, 'GET', 'catalog'],
  ['/health', 0.05, 5, 'GET', 'edge-proxy'],
] as const;
const HOSTS = ['host-01', 'host-02', 'host-03', 'host-04', 'host-05', 'host-06', 'host-07', 'host-08'];

/**
 * The incidents of one UTC day of a dataset, from its slug and the day alone. The kinds a demo trigger watches
 * (error bursts, failed payments, a hot host) come once in each half of the day, each ending before its half
 * does: any 24 h window holds a whole half of some day, so it holds a whole incident of each kind, whatever
 * the time of day. (Whether a trigger fires on it is the trigger's business: "High error rate" always does.)
 */
export function incidentsOfDay(slug: string, day: number): Incident[] {
  const r = rng(hash(`${slug}/incidents/${day}`));
  const at = (fromHour: number, toHour: number, minMinutes: number, maxMinutes: number) => {
    const start = day * DAY + Math.floor(((fromHour + r() * (toHour - fromHour)) * 3600) / MINUTE) * MINUTE;
    return { start, end: start + (minMinutes + Math.floor(r() * (maxMinutes - minMinutes))) * MINUTE };
  };
  /** One incident in each half day, starting early enough in it to end (at most maxMinutes later) before it ends. */
  const twice = (minMinutes: number, maxMinutes: number) =>
    [0, 12].map((half) => at(half, half + 12 - maxMinutes / 60, minMinutes, maxMinutes));
  const out: Incident[] = [];
  if (slug === 'api-gateway') {
    for (const span of twice(25, 70))
      out.push({ kind: 'errors', ...span, target: GATEWAY_ROUTES[Math.floor(r() * 5)]?.[0] ?? '/api/cart' });
    out.push({ kind: 'slow', ...at(6, 20, 40, 90), target: '' });
    if (r() < 0.5) out.push({ kind: 'surge', ...at(8, 20, 60, 120), target: '' });
  } else if (slug === 'checkout-service') {
    for (const span of twice(30, 60)) out.push({ kind: 'payments-failing', ...span, target: '' });
  } else if (slug === 'metrics-hosts') {
    for (const span of twice(45, 120))
      out.push({ kind: 'hot-host', ...span, target: HOSTS[Math.floor(r() * HOSTS.length)] ?? 'host-01' });
  }
  return out;
}

function activeAt(incidents: readonly Incident[], t: number, kind: Incident['kind']): Incident | undefined {
  return incidents.find((i) => i.kind === kind && i.start <= t && t < i.end);
}

function hex(r: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += Math.floor(r() * 16).toString(16);
  return s;
}

function gatewayMinute(t: number, r: () => number, incidents: readonly Incident[], scale: number): SyntheticEvent[] {
  const surge = activeAt(incidents, t, 'surge') ? 1.9 : 1;
  const rate = 20 * dailyShape(t) * (isWeekend(t) ? 0.7 : 1) * surge * scale;
  const n = countFor(rate, r);
  const burst = activeAt(incidents, t, 'errors');
  const slow = activeAt(incidents, t, 'slow');
  const out: SyntheticEvent[] = [];
  const burstRow = GATEWAY_ROUTES.find((row) => row[0] === burst?.target);
  // In a burst, the first event of each minute (the first `scale`, at `scale` times the traffic) is a failure
  // of its route: however quiet the hour, each minute of a burst has one, so the demo's error trigger (more
  // than 5 in 20 minutes, or 20 at four times the traffic) fires in each burst.
  const forcedFailures = burstRow ? Math.max(1, Math.round(scale)) : 0;
  for (let i = 0; i < Math.max(n, forcedFailures); i++) {
    const forced = i < forcedFailures ? burstRow : undefined;
    const [route, , latency, method, service] =
      forced ??
      pick(
        r,
        GATEWAY_ROUTES.map((row) => [row, row[1]] as const),
      );
    const failing = forced ? 1 : burst !== undefined && burst.target === route ? 0.6 : 0.004;
    const status = r() < failing ? (r() < 0.8 ? 500 : 503) : r() < 0.02 ? 404 : method === 'POST' ? 201 : 200;
    const duration = Math.max(1, latency * Math.exp(0.45 * gauss(r)) * (slow ? 3.5 : 1) * (status >= 500 ? 2 : 1));
    out.push({
      'trace.trace_id': hex(r, 16),
      'trace.span_id': hex(r, 8),
      name: `${method} ${route}`,
      'service.name': service,
      duration_ms: Math.round(duration * 10) / 10,
      'span.kind': 'server',
      status_code: status,
      error: status >= 500,
      'http.route': route,
      'http.method': method,
      'user.id': `u${Math.floor(r() * 400)}`,
      'request.body_bytes': method === 'POST' ? Math.floor(200 + r() * 1800) : 0,
      'retry.ratio': Math.round(r() * 0.05 * 1000) / 1000,
    });
  }
  return out;
}

function checkoutMinute(t: number, r: () => number, incidents: readonly Incident[], scale: number): SyntheticEvent[] {
  const n = countFor(6 * dailyShape(t) * scale, r);
  const failing = activeAt(incidents, t, 'payments-failing') ? 0.3 : 0.02;
  const out: SyntheticEvent[] = [];
  for (let i = 0; i < n; i++) {
    const x = r();
    const status = x < failing ? 'failed' : x < failing + 0.01 ? 'pending' : 'succeeded';
    out.push({
      'payment.status': status,
      'payment.amount': Math.round(45 * Math.exp(0.6 * gauss(r)) * 100) / 100,
      'cart.items': 1 + Math.floor(r() * 8),
      'customer.vip': r() < 0.1,
      duration_ms: Math.round(250 * Math.exp(0.4 * gauss(r)) * 10) / 10,
      error: status === 'failed',
    });
  }
  return out;
}

function metricsMinute(t: number, r: () => number, incidents: readonly Incident[]): SyntheticEvent[] {
  const hot = activeAt(incidents, t, 'hot-host');
  return HOSTS.map((host, i) => {
    const base = 0.22 + 0.38 * dailyShape(t + i * 900) + 0.04 * gauss(r);
    const cpu = hot?.target === host ? 0.93 + 0.05 * r() : Math.min(0.85, Math.max(0.02, base));
    return {
      'host.name': host,
      'system.cpu.utilization': Math.round(cpu * 1000) / 1000,
      'system.memory.usage': Math.floor(2_000_000_000 + cpu * 4_000_000_000 + r() * 100_000_000),
      'http.server.duration': Math.round(40 * Math.exp(0.5 * gauss(r)) * 10) / 10,
      'disk.full': false,
    };
  });
}

/** The events of one minute; `scale` multiplies the rate of requests (the host metrics' one sample a minute stays). */
type MinuteGenerator = (t: number, r: () => number, incidents: readonly Incident[], scale: number) => SyntheticEvent[];

const GENERATORS: Record<string, MinuteGenerator> = {
  'api-gateway': gatewayMinute,
  'checkout-service': checkoutMinute,
  'metrics-hosts': metricsMinute,
};

/**
 * Calls `visit` with each event of the dataset in [from, to) (epoch seconds, whole minutes), with its time;
 * `scale` times the dataset's usual traffic (the demo's production environment has more).
 */
export function forEachEvent(
  slug: string,
  from: number,
  to: number,
  visit: (e: SyntheticEvent, t: number) => void,
  scale = 1,
): number {
  const generate = GENERATORS[slug];
  if (!generate) return 0;
  let seen = 0;
  let day = Number.NaN;
  let incidents: Incident[] = [];
  const seed = hash(slug);
  for (let t = Math.ceil(from / MINUTE) * MINUTE; t < to; t += MINUTE) {
    const d = Math.floor(t / DAY);
    // An incident of a day ends within it today; the day before's are kept in view should that ever change.
    if (d !== day) {
      day = d;
      incidents = [...incidentsOfDay(slug, d - 1), ...incidentsOfDay(slug, d)];
    }
    const r = rng(seed ^ Math.imul(t / MINUTE, 0x9e3779b1));
    const events = generate(t, r, incidents, scale);
    // Spread over the minute, so sub-minute buckets are not all empty but one.
    events.forEach((e, i) => visit(e, t + Math.floor((i * MINUTE) / Math.max(1, events.length))));
    seen += events.length;
  }
  return seen;
}
