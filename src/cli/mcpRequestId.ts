// The id of a JSON-RPC message too large to read, found in one pass over its bytes as they stream by, keeping
// only the id's own bytes: so `obs mcp` can refuse an oversized request with an answer to that request (the
// MCP SDK's client writes the id after the params, so it is often the last member). Only a top-level "id"
// written plainly counts, the last one as JSON.parse would take; anything else (a batch, an escaped name, a
// value that is not a string or a whole number) leaves the id unknown.
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const I = 0x69;
const D = 0x64;
// No client sends a longer id; the bytes kept stay bounded.
const MAX_ID_BYTES = 256;

export class RequestIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private finished = false;
  /** In the top-level object, whether the next string is a member's name. */
  private nameNext = false;
  /** The first bytes (at most 3) of the top-level member name being read. */
  private name: number[] | undefined;
  /** Whether the last top-level name read was "id", until its colon. */
  private idNamed = false;
  /** The bytes of the id's value being read (at most one over the cap). */
  private value: number[] | undefined;
  private found: RequestId | undefined;

  /** The id read so far. */
  get id(): RequestId | undefined {
    return this.found;
  }

  push(bytes: Uint8Array): void {
    for (const b of bytes) {
      if (this.finished) return;
      if (this.value !== undefined) this.valueByte(b);
      if (this.inString) this.stringByte(b);
      else this.structureByte(b);
    }
  }

  private valueByte(b: number): void {
    if (!this.inString && this.depth === 1 && (b === COMMA || b === CLOSE_OBJECT)) this.endValue();
    else if (this.value !== undefined && this.value.length <= MAX_ID_BYTES) this.value.push(b);
  }

  private stringByte(b: number): void {
    if (this.escaped) {
      this.escaped = false;
    } else if (b === BACKSLASH) {
      this.escaped = true;
    } else if (b === QUOTE) {
      this.inString = false;
      this.endName();
      return;
    }
    // A name holding an escape keeps its backslash here, so it is never taken for "id".
    if (this.name !== undefined && this.name.length < 3) this.name.push(b);
  }

  private structureByte(b: number): void {
    if (b === QUOTE) {
      this.inString = true;
      if (this.depth === 1 && this.nameNext) this.name = [];
      this.nameNext = false;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (this.depth === 0 && b === OPEN_ARRAY) this.finished = true;
      this.depth++;
      this.nameNext = this.depth === 1;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      this.depth--;
      if (this.depth <= 0) this.finished = true;
    } else if (b === COLON && this.depth === 1) {
      if (this.idNamed) this.value = [];
      this.idNamed = false;
    } else if (b === COMMA && this.depth === 1) {
      this.nameNext = true;
    } else if (this.depth === 0 && !WHITESPACE.has(b)) {
      this.finished = true;
    }
  }

  private endName(): void {
    if (this.name === undefined) return;
    this.idNamed = this.name.length === 2 && this.name[0] === I && this.name[1] === D;
    this.name = undefined;
  }

  private endValue(): void {
    const raw = this.value;
    this.value = undefined;
    this.found =
      raw === undefined || raw.length > MAX_ID_BYTES ? undefined : requestId(Buffer.from(raw).toString('utf8'));
  }
}

/** The id a value's JSON text holds, if it is one (a string or a whole number). */
function requestId(text: string): RequestId | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))) return value;
  } catch {
    // Not JSON: no id.
  }
  return undefined;
}
