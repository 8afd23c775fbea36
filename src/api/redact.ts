export const REDACTED = '[redacted]';

// Fragments shorter than this are not treated as secrets: redacting them would mangle ordinary text.
const MIN_SECRET_LENGTH = 4;

/** Removes every known secret (and its URL-encoded form) from text before it reaches an error or a log. */
export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: ReadonlyArray<string | undefined>) {
    const all = new Set<string>();
    for (const s of secrets) {
      if (s === undefined || s.length < MIN_SECRET_LENGTH) continue;
      all.add(s);
      all.add(encodeURIComponent(s));
    }
    // Longest first, so a whole key is replaced before any part of it.
    this.secrets = [...all].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string;
  redact(text: string | undefined): string | undefined;
  redact(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    let out = text;
    for (const s of this.secrets) {
      if (out.includes(s)) out = out.split(s).join(REDACTED);
    }
    return out;
  }
}

/** The secret parts of the client's credentials and proxy URL. */
export function secretsOf(opts: { configKey?: string; managementKey?: string; proxy?: string }): string[] {
  const out: string[] = [];
  if (opts.configKey) out.push(opts.configKey);
  if (opts.managementKey) {
    out.push(opts.managementKey);
    const colon = opts.managementKey.indexOf(':');
    if (colon > 0) out.push(opts.managementKey.slice(0, colon), opts.managementKey.slice(colon + 1));
  }
  for (const proxy of [opts.proxy, ...proxyEnvValues()]) {
    if (!proxy) continue;
    try {
      const url = new URL(proxy);
      if (url.password) out.push(url.password, decodeURIComponent(url.password));
      if (url.username) out.push(url.username, decodeURIComponent(url.username));
    } catch {
      // An unparseable proxy URL is reported by the transport without echoing it.
    }
  }
  return out;
}

function proxyEnvValues(): string[] {
  const names = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
  return names.map((n) => process.env[n]).filter((v): v is string => typeof v === 'string' && v !== '');
}
