/**
 * The stdio transport: newline-delimited JSON-RPC over a byte stream,
 * implementing the SDK's `Transport` interface, strict where the SDK's own
 * stdio transport is lenient.
 *
 * - A line that is not JSON is answered -32700 with id null.
 * - JSON that is not a JSON-RPC request, notification or response (a batch
 *   included) is answered -32600, with the id when one is readable.
 * - A line longer than the limit (80 MiB) is discarded unread and answered
 *   -32600 naming the limit.
 * - Before anything parses a line, one linear scan of its bytes
 *   (src/base/json.ts) refuses nesting deeper than 64 levels or more than
 *   100,000 values (-32600; JSON.parse would build them, and every recursive
 *   step after it would overflow), finds repeated keys, and notes the exact
 *   text of the ids.
 * - A delta's `baseline` (the only large argument) is cut out of its line
 *   unparsed and handed to the analysis worker as bytes, which reads it as
 *   `nazm delta` reads a file (src/facts/snapshot.ts, readBaseline): this
 *   thread never builds, walks or clones it (see {@link takeRaw}).
 * - An id is echoed exactly as the client wrote it: a number that is not a
 *   safe integer written plainly (`9007199254740993`, `1e400`, `1.0`, `1.5`)
 *   travels through the SDK as a private string and is written back as its
 *   original text.
 * - Every message is shown to a gate (gate.ts) before the SDK sees it; the
 *   gate may answer it with a protocol error instead.
 * - At the end of input, requests already handed to the SDK are answered
 *   first; a request the client cancelled (`notifications/cancelled`) is not
 *   waited for, since the SDK never answers it. Then `onInputEnd` runs (the
 *   caller shuts down and abandons cancelled work).
 *
 * The server keeps serving after each error. Nothing but protocol messages
 * is ever written to the output.
 *
 * @module
 */
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import { scanJson } from "../base/launch.ts";
import type { Logger } from "./log.ts";

/**
 * The largest input line accepted, in bytes: 80 MiB, so that a baseline
 * argument of up to its own limit (64 MiB) arrives with its envelope and is
 * refused by name when it is larger, not lost with the line.
 */
export const MAX_LINE_BYTES = 80 * 1024 * 1024;

/** The deepest nesting a message may have, outside a delta's baseline. */
export const MAX_MESSAGE_DEPTH = 64;

/** The most JSON values a message may hold, outside a delta's baseline. */
export const MAX_MESSAGE_VALUES = 100_000;

/** Where a delta's baseline sits in a `tools/call` line. */
const BASELINE_PATH = "params.arguments.baseline";

/**
 * The key of the small object that stands, in the parsed message, for an
 * argument cut out of its line unparsed: `{ "$nazm:raw": n }`. A client can
 * never place one where it is read: whatever is at the baseline's path is
 * always cut out and replaced.
 */
export const RAW_ARGUMENT_KEY = "$nazm:raw";

/** A JSON-RPC error object. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** The gate's decision on one well-formed message. */
export type GateVerdict = { kind: "forward" } | {
  kind: "reject";
  error: RpcError;
} | {
  kind: "drop";
  why: string;
};

/** Options of {@link LineTransport}. */
export interface LineTransportOptions {
  /** The input bytes (stdin). */
  input: ReadableStream<Uint8Array>;
  /** Writes all of these bytes to the output (stdout). */
  write: (bytes: Uint8Array) => Promise<void>;
  /** Judges each well-formed message before the SDK sees it. */
  gate: (message: JSONRPCMessage) => GateVerdict;
  /** Runs once, when the input has ended and every forwarded request is answered. */
  onInputEnd: () => void;
  log: Logger;
  /** Overrides {@link MAX_LINE_BYTES} (tests). */
  maxLineBytes?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Newline-delimited JSON-RPC over byte streams, with a gate in front of the SDK. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #options: LineTransportOptions;
  #maxLine: number;
  #pending = new Map<string, number>();
  /** Arguments cut out of their lines, by token, with the request holding them. */
  #raw = new Map<number, { bytes: Uint8Array; request: string | null }>();
  #nextRaw = 1;
  /** Ids written as text a double cannot hold: private string → the client's text. */
  #exactIds = new Map<string, string>();
  /** The same, the other way: the client's text → its private string. */
  #idByText = new Map<string, string>();
  #idPrefix = `\u0000nazm-id:${crypto.randomUUID()}:`;
  #nextId = 1;
  #inputEnded = false;
  #ended = false;
  #closed = false;
  #writes: Promise<void> = Promise.resolve();

  constructor(options: LineTransportOptions) {
    this.#options = options;
    this.#maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  /** Starts reading input; returns at once. */
  start(): Promise<void> {
    this.#read().catch((error) => {
      this.#options.log.error(`reading stdin failed: ${describe(error)}`);
      this.#endOfInput();
    });
    return Promise.resolve();
  }

  /** Writes one message as one line. Responses settle their request as answered. */
  send(message: JSONRPCMessage): Promise<void> {
    const done = this.#writeLine(message);
    if ("id" in message && ("result" in message || "error" in message)) {
      done.finally(() => this.#settle(message.id)).catch(() => {});
    }
    return done;
  }

  /** Stops delivering messages. Pending writes still complete. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.onclose?.();
    }
    return this.#writes;
  }

  /** Number of forwarded requests not yet answered. */
  get inFlight(): number {
    let total = 0;
    for (const count of this.#pending.values()) total += count;
    return total;
  }

  /** Resolves when every write issued so far has reached the output. */
  flushed(): Promise<void> {
    return this.#writes;
  }

  /**
   * The bytes an argument was cut out as, for the call it belongs to, once
   * (the store forgets it): `token` is the `{ "$nazm:raw": n }` object found
   * where the argument was. Undefined for anything else.
   */
  takeRaw(token: unknown): Uint8Array | undefined {
    if (token === null || typeof token !== "object") return undefined;
    const n = (token as Record<string, unknown>)[RAW_ARGUMENT_KEY];
    if (typeof n !== "number") return undefined;
    const entry = this.#raw.get(n);
    this.#raw.delete(n);
    return entry?.bytes;
  }

  #writeLine(message: unknown): Promise<void> {
    const bytes = encoder.encode(this.#serialize(message) + "\n");
    const next = this.#writes.then(() => this.#options.write(bytes));
    this.#writes = next.catch((error) => {
      this.#options.log.error(`writing stdout failed: ${describe(error)}`);
    });
    return next;
  }

  /** JSON text of a message, its id written exactly as the client wrote it. */
  #serialize(message: unknown): string {
    const id = (message as { id?: unknown } | null)?.id;
    const exact = typeof id === "string" ? this.#exactIds.get(id) : undefined;
    if (exact === undefined) return JSON.stringify(message);
    const rest = JSON.stringify({ ...(message as object), id: undefined });
    return `{"id":${exact},${rest.slice(1)}`;
  }

  #replyError(id: string | number | null, error: RpcError): void {
    this.#writeLine({ jsonrpc: "2.0", id, error }).catch(() => {});
    // Another request in flight may carry the same id.
    if (id !== null && !this.#pending.has(idKey(id))) this.#forgetId(id);
  }

  /**
   * The id to use for the value at `span` of a line: the parsed value, or,
   * when a double cannot hold the client's text exactly, a private string
   * that stands for that text until the request is answered.
   */
  #exactId(bytes: Uint8Array, span: readonly [number, number] | undefined, parsed: unknown) {
    if (span === undefined || typeof parsed !== "number") return parsed;
    const text = decoder.decode(bytes.subarray(span[0], span[1]));
    // The SDK takes safe integers only; any other number travels as text.
    if (Number.isSafeInteger(parsed) && JSON.stringify(parsed) === text) return parsed;
    let id = this.#idByText.get(text);
    if (id === undefined) {
      id = `${this.#idPrefix}${this.#nextId++}`;
      this.#idByText.set(text, id);
      this.#exactIds.set(id, text);
    }
    return id;
  }

  #forgetId(id: unknown): void {
    if (typeof id !== "string") return;
    const text = this.#exactIds.get(id);
    if (text === undefined) return;
    this.#exactIds.delete(id);
    this.#idByText.delete(text);
  }

  async #read(): Promise<void> {
    const reader = this.#options.input.getReader();
    let parts: Uint8Array[] = [];
    let size = 0;
    let discarding = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let from = 0;
      while (from < value.length) {
        const newline = value.indexOf(10, from);
        const end = newline === -1 ? value.length : newline;
        const piece = value.subarray(from, end);
        if (!discarding) {
          if (size + piece.length > this.#maxLine) {
            discarding = true;
            parts = [];
            size = 0;
          } else if (piece.length > 0) {
            parts.push(piece.slice());
            size += piece.length;
          }
        }
        if (newline === -1) break;
        from = newline + 1;
        if (discarding) {
          this.#oversized();
          discarding = false;
        } else {
          const line = concat(parts, size);
          parts = [];
          size = 0;
          this.#line(line);
        }
      }
    }
    if (discarding) this.#oversized();
    else if (size > 0) this.#line(concat(parts, size));
    this.#endOfInput();
  }

  #oversized(): void {
    const mib = this.#maxLine / (1024 * 1024);
    this.#options.log.warn(`discarded an input line over the ${mib} MiB limit`);
    this.#replyError(null, {
      code: -32600,
      message:
        `Invalid Request: a message line exceeds the ${mib} MiB limit (${this.#maxLine} bytes)`,
      data: { limit: this.#maxLine },
    });
  }

  /** One input line: read as a message (or answered as an error), then admitted. */
  #line(raw: Uint8Array): void {
    if (this.#closed) return;
    const read = this.#messageOf(raw);
    if (read !== null) this.#admit(read.message, read.token);
  }

  /**
   * The baseline of a line, cut out unparsed and kept under a token that
   * stands in its place; the line unchanged when it holds none.
   */
  #cutBaseline(
    line: Uint8Array,
    span: readonly [number, number] | undefined,
  ): { readonly bytes: Uint8Array; readonly token: number | null } {
    if (span === undefined) return { bytes: line, token: null };
    const token = this.#nextRaw++;
    const [start, end] = span;
    const stand = encoder.encode(JSON.stringify({ [RAW_ARGUMENT_KEY]: token }));
    // A view, not a copy: the line's buffer moves to the worker with it.
    this.#raw.set(token, { bytes: line.subarray(start, end), request: null });
    const spliced = new Uint8Array(start + stand.length + line.length - end);
    spliced.set(line.subarray(0, start));
    spliced.set(stand, start);
    spliced.set(line.subarray(end), start + stand.length);
    return { bytes: spliced, token };
  }

  /**
   * The JSON-RPC message a line holds, its ids exact, with the token of its
   * cut-out baseline; or null, when the line was blank or is answered here
   * as an error (over a limit, not UTF-8, not JSON, a repeated key, not
   * JSON-RPC).
   */
  #messageOf(
    raw: Uint8Array,
  ): { readonly message: JSONRPCMessage; readonly token: number | null } | null {
    // The line as read: the scan's spans are offsets into it.
    const line = raw.length > 0 && raw[raw.length - 1] === 13 ? raw.subarray(0, -1) : raw;
    const scan = scanJson(line, {
      maxDepth: MAX_MESSAGE_DEPTH,
      maxValues: MAX_MESSAGE_VALUES,
      spans: ["id", "params.requestId", BASELINE_PATH],
      opaque: [BASELINE_PATH],
    });
    const { bytes, token } = this.#cutBaseline(line, scan.spans.get(BASELINE_PATH));
    const dropRaw = () => {
      if (token !== null) this.#raw.delete(token);
    };
    const idText = (): string | number | null => {
      const span = scan.spans.get("id");
      if (span === undefined) return null;
      try {
        const id = JSON.parse(decoder.decode(line.subarray(span[0], span[1])));
        return typeof id === "string" || typeof id === "number"
          ? this.#exactId(line, span, id) as string | number
          : null;
      } catch {
        return null;
      }
    };
    if (scan.tooDeep !== null || scan.tooManyValues) {
      dropRaw();
      this.#replyError(idText(), {
        code: -32600,
        message: scan.tooDeep !== null
          ? `Invalid Request: the message nests deeper than ${MAX_MESSAGE_DEPTH} levels (at ${scan.tooDeep})`
          : `Invalid Request: the message holds more than ${MAX_MESSAGE_VALUES} JSON values`,
        data: scan.tooDeep !== null
          ? { limit: MAX_MESSAGE_DEPTH, path: scan.tooDeep }
          : { limit: MAX_MESSAGE_VALUES },
      });
      return null;
    }
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      dropRaw();
      this.#replyError(null, {
        code: -32700,
        message: "Parse error: the line is not UTF-8",
      });
      return null;
    }
    if (text.trim() === "") return null;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      dropRaw();
      this.#replyError(null, {
        code: -32700,
        message: `Parse error: ${describe(error)}`,
      });
      return null;
    }
    if (json !== null && typeof json === "object" && !Array.isArray(json)) {
      const record = json as Record<string, unknown>;
      if ("id" in record) record.id = this.#exactId(line, scan.spans.get("id"), record.id);
      const params = record.params as Record<string, unknown> | undefined;
      if (params !== null && typeof params === "object" && "requestId" in params) {
        params.requestId = this.#exactId(
          bytes,
          scan.spans.get("params.requestId"),
          params.requestId,
        );
      }
    }
    if (scan.duplicateKey !== null) {
      const duplicate = scan.duplicateKey;
      dropRaw();
      const inParams = duplicate.startsWith('$["params"]');
      this.#replyError(readableId(json), {
        code: inParams ? -32602 : -32600,
        message: `Invalid ${
          inParams ? "params" : "Request"
        }: the key at ${duplicate} is repeated; JSON.parse would keep only the last`,
      });
      return null;
    }
    let message: JSONRPCMessage;
    try {
      if (Array.isArray(json)) throw new Error("batches are not supported");
      message = parseJSONRPCMessage(json);
    } catch {
      dropRaw();
      this.#replyError(readableId(json), {
        code: -32600,
        message: Array.isArray(json)
          ? "Invalid Request: JSON-RPC batches are not accepted"
          : "Invalid Request: not a JSON-RPC 2.0 request, notification or response",
      });
      return null;
    }
    return { message, token };
  }

  /**
   * A message the gate judges: rejected (answered), dropped, or counted as
   * pending until answered and handed to the SDK.
   */
  #admit(message: JSONRPCMessage, token: number | null): void {
    const dropRaw = () => {
      if (token !== null) this.#raw.delete(token);
    };
    let verdict: GateVerdict;
    try {
      verdict = this.#options.gate(message);
    } catch (error) {
      this.#options.log.error(`the protocol gate failed: ${describe(error)}`);
      verdict = {
        kind: "reject",
        error: { code: -32603, message: "Internal error" },
      };
    }
    const requestId = "method" in message && "id" in message
      ? (message as { id: string | number }).id
      : undefined;
    if (verdict.kind === "reject") {
      dropRaw();
      if (requestId !== undefined) this.#replyError(requestId, verdict.error);
      else {this.#options.log.debug(
          `dropped a message: ${verdict.error.message}`,
        );}
      return;
    }
    if (verdict.kind === "drop") {
      dropRaw();
      this.#options.log.debug(`dropped a message: ${verdict.why}`);
      return;
    }
    if (requestId !== undefined) {
      const key = idKey(requestId);
      this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
      if (token !== null) this.#raw.get(token)!.request = key;
    } else {
      dropRaw();
    }
    if ("method" in message && message.method === "notifications/cancelled") {
      // The SDK aborts a cancelled request and never answers it: it is not
      // waited for at the end of input.
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof cancelled === "string" || typeof cancelled === "number") {
        this.#settle(cancelled);
      }
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.#options.log.error(`handling a message failed: ${describe(error)}`);
    }
  }

  #settle(id: string | number | undefined): void {
    if (id === undefined) return;
    const key = idKey(id);
    const count = this.#pending.get(key);
    if (count === undefined) return;
    if (count <= 1) {
      this.#pending.delete(key);
      this.#forgetId(id);
      for (const [token, entry] of this.#raw) if (entry.request === key) this.#raw.delete(token);
    } else this.#pending.set(key, count - 1);
    this.#maybeEnd();
  }

  #endOfInput(): void {
    this.#inputEnded = true;
    this.#options.log.debug(
      `end of input; ${this.inFlight} request(s) in flight`,
    );
    this.#maybeEnd();
  }

  #maybeEnd(): void {
    if (!this.#inputEnded || this.#ended || this.#pending.size > 0) return;
    this.#ended = true;
    this.#writes.then(() => this.#options.onInputEnd());
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function idKey(id: string | number): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

function readableId(json: unknown): string | number | null {
  if (json !== null && typeof json === "object" && !Array.isArray(json)) {
    const id = (json as Record<string, unknown>).id;
    if (
      typeof id === "string" || (typeof id === "number" && Number.isFinite(id))
    ) return id;
  }
  return null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Writes all bytes to a Deno writer (stdout), looping over partial writes. */
export function writerOf(target: { write(p: Uint8Array): Promise<number> }) {
  return async (bytes: Uint8Array): Promise<void> => {
    let at = 0;
    while (at < bytes.length) at += await target.write(bytes.subarray(at));
  };
}
