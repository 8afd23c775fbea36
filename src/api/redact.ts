const REDACTED = '[redacted]';

// Fragments shorter than this are not treated as secrets: redacting them would mangle ordinary text.
const MIN_SECRET_LENGTH = 4;
// A base64 fragment of a secret is matched wherever it appears, so a short one could hit an ordinary word.
const MIN_FRAGMENT_LENGTH = 8;

/**
 * Removes every known secret from text before it reaches an error or a log. A secret is found as given,
 * URL-encoded, JSON-pointer-escaped, in any case, and base64-encoded: in the standard or the URL alphabet,
 * padded or not, alone or inside a longer base64 text (`Basic` credentials).
 */
export class Redactor {
  /** Every form of every secret, longest first, matched in any case; none when there is no secret. */
  private readonly pattern: RegExp | undefined;

  constructor(secrets: ReadonlyArray<string | undefined>) {
    const forms = new Set<string>();
    for (const s of secrets) {
      if (s === undefined || s.length < MIN_SECRET_LENGTH) continue;
      // Upper- and lower-cased forms for the letters whose case changes their length (ß, İ).
      for (const form of [
        s,
        encodeURIComponent(s),
        pointerEscaped(s),
        s.toUpperCase(),
        s.toLowerCase(),
        ...base64Forms(s),
      ])
        forms.add(form);
    }
    const alternatives = [...forms]
      .sort((a, b) => b.length - a.length)
      .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    // Literals only, no repetition: the time is linear in the text for a given set of secrets.
    this.pattern = alternatives.length === 0 ? undefined : new RegExp(alternatives.join('|'), 'gi');
  }

  redact(text: string): string;
  redact(text: string | undefined): string | undefined;
  redact(text: string | undefined): string | undefined {
    if (text === undefined || this.pattern === undefined) return text;
    let out = '';
    let done = 0;
    for (const [start, end] of spans(text, this.pattern)) {
      out += text.slice(done, start) + REDACTED;
      done = end;
    }
    return out + text.slice(done);
  }
}

/** Where `pattern` matches in `text`, in order, matches that overlap or touch joined into one span. */
function spans(text: string, pattern: RegExp): [start: number, end: number][] {
  const out: [start: number, end: number][] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    // On from the next character, not from the match's end, so a form that starts inside this one is found too.
    pattern.lastIndex = m.index + 1;
    const last = out[out.length - 1];
    if (last !== undefined && m.index <= last[1]) last[1] = Math.max(last[1], m.index + m[0].length);
    else out.push([m.index, m.index + m[0].length]);
  }
  return out;
}

/**
 * A secret as a JSON pointer segment holds it (RFC 6901: `~` as `~0`, `/` as `~1`), the way a JSON:API
 * error's `source.pointer` echoes it: unescaping gives the secret back in the field path made from the
 * pointer, but the pointer itself is kept too, as the service wrote it.
 */
function pointerEscaped(secret: string): string {
  return secret.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The base64 forms of a secret, in both alphabets: the secret encoded alone (padded and not), and, for each
 * of the three places it can start within a 3-byte group of a longer text, the characters that encode its
 * bytes alone (when 8 or more). Of such a longer text, what stays is at most one character at each end of
 * the secret, shared with the neighbouring bytes and holding at most 4 bits of it.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const alone = bytes.toString('base64');
  const fragments = [0, 1, 2].map((offset) => inside(bytes, offset)).filter((f) => f.length >= MIN_FRAGMENT_LENGTH);
  const forms = [alone, alone.replace(/=+$/, ''), ...fragments];
  return forms.flatMap((f) => [f, f.replace(/\+/g, '-').replace(/\//g, '_')]);
}

/** The characters of any base64 text holding `bytes` at `offset` (0 to 2) of a 3-byte group that depend on those bytes alone. */
function inside(bytes: Buffer, offset: number): string {
  const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  // Each character holds 6 bits: skip those that hold any bit of the offset, stop before one that holds a bit after the secret.
  return text.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
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
      // The pair a proxy's Basic credentials encode.
      if (url.username || url.password)
        out.push(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`);
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
