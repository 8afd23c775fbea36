// `obs mcp`'s transport on its input and output: one JSON-RPC message a line, as the MCP SDK's stdio transport,
// but for a message over the limit, and for hidden characters, written escaped (structured content carries the
// service's text as values, not as the text answers' escaped JSON). On one of those the SDK's transport closed, and obs exited 0 saying
// nothing; this one skips the line (holding no more than the limit of it), answers an error (to the request,
// when its id can be read), has it reported, and reads the next line.
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { jsonText } from '../agentTools/answer';
import { RequestIdScanner } from './mcpRequestId';

/** The longest message read, in bytes without its line end: the SDK's own limit. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const LIMIT_TEXT = `${MAX_MESSAGE_BYTES} bytes (10 MiB)`;
const LF = 0x0a;

/** A message refused for its size. */
export interface Refusal {
  bytes: number;
  id: RequestId | undefined;
  /** Whether the input ended before the message did (then `bytes` is what came). */
  unfinished: boolean;
}

/** The line `obs mcp` writes on stderr for a refusal. */
export function refusalText(r: Refusal): string {
  const size = r.unfinished ? `at least ${r.bytes} bytes, unfinished when the input ended` : `${r.bytes} bytes`;
  const to = r.id === undefined ? 'without an id (none could be read)' : `to request ${JSON.stringify(r.id)}`;
  const after = r.unfinished ? '' : '; reading on';
  return `mcp: refused a message of ${size}, over the limit of ${LIMIT_TEXT}: answered error ${ErrorCode.InvalidRequest} ${to}${after}`;
}

/** The error answered for a refusal; without an id when none could be read, as MCP's schema has it (not null). */
function refusalAnswer(r: Refusal): JSONRPCMessage {
  const error = {
    code: ErrorCode.InvalidRequest,
    message: `the message is ${r.unfinished ? 'at least ' : ''}${r.bytes} bytes, over the limit of ${LIMIT_TEXT}: it was not read`,
    data: { bytes: r.bytes, limit: MAX_MESSAGE_BYTES },
  };
  return r.id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id: r.id, error };
}

type Framed = { line: string } | { refused: Refusal };

/** A line over the limit being skipped: its length so far and the scan for its id. */
interface Skipped {
  bytes: number;
  ids: RequestIdScanner;
}

/** The input cut into lines; of a line over the limit nothing is kept past the limit but its length and its id. */
class LineReader {
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private skipped: Skipped | undefined;

  /** The lines (and refusals) that a chunk ends. */
  push(chunk: Buffer): Framed[] {
    const out: Framed[] = [];
    let from = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, from)) {
      this.take(chunk.subarray(from, lf));
      out.push(this.lineEnd());
      from = lf + 1;
    }
    this.take(chunk.subarray(from));
    return out;
  }

  /** At the end of the input, the refusal of a message over the limit that it cut; a shorter one is dropped, as the SDK did. */
  end(): Refusal | undefined {
    return this.skipped === undefined ? undefined : this.refusal(this.skipped, true);
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.skipped === undefined && this.keptBytes + part.length <= MAX_MESSAGE_BYTES) {
      this.kept.push(part);
      this.keptBytes += part.length;
      return;
    }
    if (this.skipped === undefined) {
      // Over the limit: what was kept goes through the id scan and is let go.
      this.skipped = { bytes: this.keptBytes, ids: new RequestIdScanner() };
      for (const k of this.kept) this.skipped.ids.push(k);
      this.kept = [];
      this.keptBytes = 0;
    }
    this.skipped.bytes += part.length;
    this.skipped.ids.push(part);
  }

  private lineEnd(): Framed {
    if (this.skipped !== undefined) return { refused: this.refusal(this.skipped, false) };
    const line = Buffer.concat(this.kept, this.keptBytes).toString('utf8').replace(/\r$/, '');
    this.kept = [];
    this.keptBytes = 0;
    return { line };
  }

  private refusal(skipped: Skipped, unfinished: boolean): Refusal {
    this.skipped = undefined;
    return { bytes: skipped.bytes, id: skipped.ids.id, unfinished };
  }
}

/** The MCP server's transport: messages read from `input` a line each, sent on `output` the same way. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly lines = new LineReader();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly onRefused: (refusal: Refusal) => void,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onError);
  }

  /** One line of JSON, with hidden characters (bidi controls, zero-width characters) as \uXXXX escapes, as the answers' texts. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.output.write(`${jsonText(message)}\n`)) return;
    await new Promise<void>((resolve) => this.output.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    for (const framed of this.lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
      if ('refused' in framed) this.refuse(framed.refused);
      else this.read(framed.line);
    }
  };

  private readonly onEnd = (): void => {
    const refusal = this.lines.end();
    if (refusal !== undefined) this.refuse(refusal);
  };

  private readonly onError = (error: Error): void => {
    this.onerror?.(error);
  };

  private read(line: string): void {
    try {
      this.onmessage?.(deserializeMessage(line));
    } catch (e) {
      // As the SDK's transport: a line that is not a message is an error of the transport, and reading goes on.
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  private refuse(refusal: Refusal): void {
    this.onRefused(refusal);
    this.send(refusalAnswer(refusal)).catch((e: unknown) =>
      this.onerror?.(e instanceof Error ? e : new Error(String(e))),
    );
  }
}
