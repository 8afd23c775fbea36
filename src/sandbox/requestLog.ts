import type { IncomingMessage } from 'node:http';
import { parseJson, type ReceivedBody } from './body';
import type { RecordedRequest } from './types';

// What the sandbox received, for tests to inspect (handle.requests, GET /__sandbox/requests). The sandbox
// runs in the editor's memory and a web page can send it requests, so the record is bounded: only
// requests carrying one of the sandbox's keys are recorded (the server decides), each body is cut to its
// first RECORDED_BODY_BYTES, and the records are capped in number and in bytes, oldest dropped first.

/** A body longer than this is recorded as its first bytes, as text. */
const RECORDED_BODY_BYTES = 4096;
/** Records kept at most. */
const MAX_RECORDED = 10_000;
/** Bytes of the listing (the records as a JSON array) at most. */
const MAX_RECORDED_BYTES = 8 * 1024 * 1024;

const REDACTED_HEADERS = new Set(['authorization', 'x-service-team', 'cookie', 'proxy-authorization']);

function redactedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name] = REDACTED_HEADERS.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of params) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** The first `limit` bytes as text, ending at the last whole character. */
function textPrefix(bytes: Buffer, limit: number): string {
  let end = Math.min(limit, bytes.length);
  // A continuation byte (10xxxxxx) at the cut means its character started before it.
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** Parsed JSON; the text when it is not JSON (or nested too deep to walk); the first bytes when long. */
function recordedBody(body: ReceivedBody): Pick<RecordedRequest, 'body' | 'bodyTruncated'> {
  if (body.size === 0) return { body: undefined, bodyTruncated: false };
  if (body.size > RECORDED_BODY_BYTES)
    return { body: textPrefix(body.bytes, RECORDED_BODY_BYTES), bodyTruncated: true };
  const parsed = parseJson(body.bytes);
  return { body: parsed.ok ? parsed.value : body.bytes.toString('utf8'), bodyTruncated: false };
}

/** Bytes a record adds to the listing: its JSON and the comma before the next. */
const listingBytes = (record: RecordedRequest): number => Buffer.byteLength(JSON.stringify(record)) + 1;

export class RequestLog {
  /** Oldest first. Handed out as `handle.requests`, so code holding it may clear or cut it. */
  readonly records: RecordedRequest[] = [];
  private readonly sizes = new WeakMap<RecordedRequest, number>();
  /** The listing's bytes: the records' and the brackets. Right while `records.length === counted`. */
  private bytes = 1;
  private counted = 0;

  record(req: IncomingMessage, url: URL, body: ReceivedBody, at: Date): void {
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: queryRecord(url.searchParams),
      headers: redactedHeaders(req),
      ...recordedBody(body),
      bodyBytes: body.size,
      at: at.toISOString(),
    };
    const size = listingBytes(record);
    this.recount();
    this.records.push(record);
    this.sizes.set(record, size);
    this.bytes += size;
    while (this.records.length > MAX_RECORDED || this.bytes > MAX_RECORDED_BYTES) {
      const dropped = this.records.shift();
      if (dropped === undefined) break;
      this.bytes -= this.sizeOf(dropped);
    }
    this.counted = this.records.length;
  }

  clear(): void {
    this.records.length = 0;
    this.bytes = 1;
    this.counted = 0;
  }

  /** After code holding the records changed their number, counts their bytes again. */
  private recount(): void {
    if (this.records.length === this.counted) return;
    this.bytes = 1;
    for (const r of this.records) this.bytes += this.sizeOf(r);
  }

  private sizeOf(record: RecordedRequest): number {
    return this.sizes.get(record) ?? listingBytes(record);
  }
}
