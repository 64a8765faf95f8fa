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
 * - Every message is shown to a gate (gate.ts) before the SDK sees it; the
 *   gate may answer it with a protocol error instead.
 * - At the end of input, requests already handed to the SDK are answered
 *   first; then `onInputEnd` runs (the caller shuts down).
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
import { findDuplicateKey } from "../base/mod.ts";
import type { Logger } from "./log.ts";

/**
 * The largest input line accepted, in bytes: 80 MiB, so that a baseline
 * argument of up to its own limit (64 MiB) arrives with its envelope and is
 * refused by name when it is larger, not lost with the line.
 */
export const MAX_LINE_BYTES = 80 * 1024 * 1024;

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

  #writeLine(message: unknown): Promise<void> {
    const bytes = encoder.encode(JSON.stringify(message) + "\n");
    const next = this.#writes.then(() => this.#options.write(bytes));
    this.#writes = next.catch((error) => {
      this.#options.log.error(`writing stdout failed: ${describe(error)}`);
    });
    return next;
  }

  #replyError(id: string | number | null, error: RpcError): void {
    this.#writeLine({ jsonrpc: "2.0", id, error }).catch(() => {});
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

  #line(bytes: Uint8Array): void {
    if (this.#closed) return;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      this.#replyError(null, {
        code: -32700,
        message: "Parse error: the line is not UTF-8",
      });
      return;
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      this.#replyError(null, {
        code: -32700,
        message: `Parse error: ${describe(error)}`,
      });
      return;
    }
    const duplicate = findDuplicateKey(text);
    if (duplicate !== null) {
      const marked = markDuplicateBaseline(json, duplicate);
      if (marked === null) {
        this.#replyError(readableId(json), {
          code: duplicate.startsWith('$["params"]') ? -32602 : -32600,
          message: `Invalid ${
            duplicate.startsWith('$["params"]') ? "params" : "Request"
          }: the key at ${duplicate} is repeated; JSON.parse would keep only the last`,
        });
        return;
      }
    }
    let message: JSONRPCMessage;
    try {
      if (Array.isArray(json)) throw new Error("batches are not supported");
      message = parseJSONRPCMessage(json);
    } catch {
      this.#replyError(readableId(json), {
        code: -32600,
        message: Array.isArray(json)
          ? "Invalid Request: JSON-RPC batches are not accepted"
          : "Invalid Request: not a JSON-RPC 2.0 request, notification or response",
      });
      return;
    }
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
      if (requestId !== undefined) this.#replyError(requestId, verdict.error);
      else {this.#options.log.debug(
          `dropped a message: ${verdict.error.message}`,
        );}
      return;
    }
    if (verdict.kind === "drop") {
      this.#options.log.debug(`dropped a message: ${verdict.why}`);
      return;
    }
    if (requestId !== undefined) {
      const key = idKey(requestId);
      this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
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
    if (count <= 1) this.#pending.delete(key);
    else this.#pending.set(key, count - 1);
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

/**
 * Where a repeated key inside a tools/call's `baseline` argument is put, so
 * that nazm.semantic_delta refuses the baseline as `duplicate_key`, as the
 * seed asks, rather than comparing the copy JSON.parse kept. Only the raw
 * line shows a repeated key, and only the transport sees raw lines.
 */
export const DUPLICATE_KEY_MARKER = "$nazm:duplicate_key";

const BASELINE_PATH = '$["params"]["arguments"]["baseline"]';

/** Replaces a tools/call's baseline holding `duplicate` by a marker; null when the duplicate is elsewhere. */
function markDuplicateBaseline(json: unknown, duplicate: string): object | null {
  if (!duplicate.startsWith(BASELINE_PATH)) return null;
  const call = json as { method?: unknown; params?: { arguments?: Record<string, unknown> } };
  if (call.method !== "tools/call" || typeof call.params?.arguments !== "object") return null;
  call.params.arguments.baseline = {
    [DUPLICATE_KEY_MARKER]: "$" + duplicate.slice(BASELINE_PATH.length),
  };
  return call;
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
