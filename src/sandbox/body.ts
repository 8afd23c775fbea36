import type { IncomingMessage } from 'node:http';
import type { Outcome } from '../result';

// Request bodies: read with a size limit, and parsed as JSON only when not nested too deep. Everything
// that walks a parsed body (the schemas, the query engine, the listing of recorded requests) recurses,
// so depth is checked on the text first, in one pass without recursion, whatever the depth.

/** Request bodies over this many bytes answer 413 (service-facts note). */
export const MAX_BODY_BYTES = 100_000;
/**
 * Bodies nesting arrays and objects deeper than this answer 400. No body of the service's endpoints
 * comes near it (the deepest, a burn alert's recipient variables, has 6 levels).
 */
const MAX_JSON_DEPTH = 64;

export interface ReceivedBody {
  /** The body's first MAX_BODY_BYTES bytes; empty when it was not kept. */
  bytes: Buffer;
  /** Its length as received. */
  size: number;
  tooLarge: boolean;
}

/**
 * Reads a body to its end, keeping up to MAX_BODY_BYTES when `keep` (nothing otherwise); the rest is read
 * and dropped, so a body of any size gets an answer instead of a dropped connection. Node's
 * requestTimeout bounds how long that takes. Undefined when the request failed.
 */
export function readBody(req: IncomingMessage, keep: boolean): Promise<ReceivedBody | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      const room = keep ? MAX_BODY_BYTES - size : 0;
      if (room > 0) chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
      size += chunk.length;
    });
    req.on('end', () => resolve({ bytes: Buffer.concat(chunks), size, tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', () => resolve(undefined));
  });
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * True when the JSON text opens more than `limit` arrays or objects inside one another. Brackets inside
 * strings do not count. Bytes of a multi-byte UTF-8 character are never ASCII, so scanning bytes is exact.
 * Text that is not JSON may be counted loosely; it is refused as unparseable either way.
 */
function nestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (OPENERS.has(b)) {
      if (++depth > limit) return true;
    } else if (CLOSERS.has(b)) {
      depth--;
    }
  }
  return false;
}

export type ParsedJson = Outcome<{ value: unknown }>;

/** The JSON value of a body, or why it has none ("request body" + problem). */
export function parseJson(bytes: Buffer): ParsedJson {
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) {
    return { ok: false, reason: `is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` };
  }
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch (err) {
    return { ok: false, reason: `is not valid JSON: ${(err as Error).message}` };
  }
}

/** A Content-Type's media type and parameters, lower-cased. */
export function mediaType(header: string | undefined): { type: string; params: string[] } {
  const [type = '', ...params] = (header ?? '').split(';').map((p) => p.trim().toLowerCase());
  return { type, params: params.filter((p) => p !== '') };
}
