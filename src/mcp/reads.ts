/**
 * The analysis' reads, made by the sandbox: the analysis worker asks, on a
 * channel of its own, and waits; the sandbox reads with the one confined
 * read (src/base/files.ts) under its own permission — the roots and the
 * server's code, nothing else — and answers.
 *
 * Why. The first analysis is a `node:worker_threads` worker started by the
 * main thread, because one started by a worker begins some 500 ms late
 * (docs/architecture.md §8.1). A node worker shares the main thread's
 * permissions, and main.ts revokes the process's read permission once the
 * analysis has loaded its code, before it is told the roots: so the
 * analysis can read nothing itself, and every byte it sees comes through
 * here.
 *
 * How. The analysis is synchronous (the loader reads as it parses), so a
 * request blocks its thread: it posts the request, waits on a shared flag
 * (`Atomics.wait`), and takes the answer off its port with
 * `receiveMessageOnPort`, which needs no turn of its event loop. The sandbox
 * answers in its message handler, then raises the flag.
 *
 * @module
 */
import { receiveMessageOnPort } from "node:worker_threads";
import {
  type BatchRead,
  type FileStamp,
  type KnownFiles,
  localRealPath,
  newReadSession,
  type ReadService,
  type ReadSession,
  type ServedRead,
  serveRead,
  serveReads as serveMany,
} from "../base/files.ts";
import type { ReadChannel } from "./read_channel.ts";

export { type ReadChannel, readChannel } from "./read_channel.ts";

type Request =
  | { readonly op: "realPath"; readonly path: string }
  | {
    readonly op: "read";
    readonly realRoot: string;
    readonly path: string;
    readonly limit: number;
    readonly session: number;
  }
  | {
    readonly op: "readMany";
    readonly realRoot: string;
    readonly files: readonly (readonly [string, FileStamp | null])[];
    readonly limit: number;
    readonly session: number;
  };

/**
 * How long the analysis waits for one answer. A read never blocks (a FIFO
 * or a device is refused unopened) and waits at most about a second for a
 * folder that just changed; far past that, the sandbox is gone.
 */
const ANSWER_TIMEOUT_MS = 60_000;

const RECEIVE_TRIES = 1000;

/** Sessions the sandbox keeps per client: a session is one call, so the last few suffice. */
const SESSIONS_KEPT = 64;

/**
 * Answers the reads asked on `channel` (in the sandbox), each with the
 * local function {@link ReadService} names, until the channel closes. The
 * first batch may be answered from `known` (the files the sandbox read for
 * its syntax check, each proved unchanged as a known file is), which is
 * then emptied.
 */
export function serveReads(channel: ReadChannel, known: KnownFiles | null = null): void {
  const flag = new Int32Array(channel.flag);
  const sessions = new Map<number, ReadSession>();
  const sessionOf = (number: number): ReadSession => {
    let session = sessions.get(number);
    if (session === undefined) {
      sessions.set(number, session = newReadSession());
      if (sessions.size > SESSIONS_KEPT) sessions.delete(sessions.keys().next().value!);
    }
    return session;
  };
  const answer = (request: Request): unknown => {
    switch (request.op) {
      case "realPath":
        return localRealPath(request.path);
      case "read":
        return serveRead(request.realRoot, request.path, request.limit, sessionOf(request.session));
      case "readMany": {
        // The first batch only: these bytes were read before any call.
        const reads = serveMany(
          request.realRoot,
          request.files,
          request.limit,
          sessionOf(request.session),
          known ?? undefined,
        );
        known?.clear();
        known = null;
        return reads;
      }
    }
  };
  // The port came by postMessage (a web port) or from this thread's
  // node:worker_threads channel, which in Deno is a web port too.
  const port = channel.port as unknown as globalThis.MessagePort;
  port.onmessage = (event: MessageEvent<Request>) => {
    let reply: unknown;
    try {
      reply = answer(event.data);
    } catch (error) {
      // A bug here: the analysis throws it as its own, and the call fails as an internal error.
      reply = { failed: error instanceof Error ? error.stack ?? error.message : String(error) };
    }
    port.postMessage(pack(reply));
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
}

/** An answer as it crosses: its reads' bytes moved into one shared buffer. */
interface Packed {
  readonly reply: unknown;
  readonly shared: SharedArrayBuffer | null;
}

/** A read's bytes in {@link Packed.shared}: where they start and how many. */
type Placed = readonly [number, number];

/**
 * The reads of an answer (one read, or a batch's), with their bytes moved
 * into one SharedArrayBuffer. Why: `receiveMessageOnPort` takes some 100 ms
 * a MiB to receive the bytes of a typed array (measured on Deno 2.9.6: 200
 * arrays of 13 KB, 170 to 300 ms, with or without transferring their
 * buffers; one array of 2.6 MB, 250 to 470 ms), and about 10 ms for a
 * shared buffer of the same 2.6 MB, copied out.
 */
function pack(reply: unknown): Packed {
  const reads = (Array.isArray(reply) ? reply : [reply]) as { bytes?: unknown }[];
  let total = 0;
  for (const read of reads) if (read?.bytes instanceof Uint8Array) total += read.bytes.length;
  if (total === 0) return { reply, shared: null };
  const shared = new SharedArrayBuffer(total);
  const view = new Uint8Array(shared);
  let at = 0;
  const placed = reads.map((read) => {
    if (!(read?.bytes instanceof Uint8Array)) return read;
    view.set(read.bytes, at);
    const where: Placed = [at, read.bytes.length];
    at += read.bytes.length;
    return { ...read, bytes: where };
  });
  return { reply: Array.isArray(reply) ? placed : placed[0], shared };
}

/** The answer {@link pack} packed, each read's bytes copied out into its own buffer. */
function unpack({ reply, shared }: Packed): unknown {
  if (shared === null) return reply;
  const place = (read: unknown) => {
    const bytes = (read as { bytes?: unknown } | null)?.bytes;
    if (!Array.isArray(bytes)) return read;
    const [at, length] = bytes as unknown as Placed;
    return { ...read as object, bytes: new Uint8Array(shared, at, length).slice() };
  };
  return Array.isArray(reply) ? reply.map(place) : place(reply);
}

/** The reads of this thread, asked on `channel` (in the analysis); see the module comment. */
export function readsThrough(channel: ReadChannel): ReadService {
  const flag = new Int32Array(channel.flag);
  const ask = <T>(request: Request): T => {
    channel.port.postMessage(request);
    if (Atomics.wait(flag, 0, 0, ANSWER_TIMEOUT_MS) === "timed-out") {
      throw new Error(`the sandbox did not answer a read within ${ANSWER_TIMEOUT_MS / 1000} s`);
    }
    Atomics.store(flag, 0, 0);
    // The answer was posted before the flag was raised, so it is on the port;
    // a few tries of a millisecond cost nothing if it is not yet.
    let received = receiveMessageOnPort(channel.port);
    for (let tries = 0; received === undefined && tries < RECEIVE_TRIES; tries++) {
      Atomics.wait(flag, 1, 0, 1);
      received = receiveMessageOnPort(channel.port);
    }
    if (received === undefined) throw new Error("the sandbox raised its flag without an answer");
    const reply = unpack(received.message as Packed) as T | { failed: string };
    if (typeof reply === "object" && reply !== null && "failed" in reply) {
      throw new Error(`the sandbox failed to read: ${reply.failed}`);
    }
    return reply as T;
  };
  return {
    realPath: (path) => ask({ op: "realPath", path }),
    read: (realRoot, path, limit, session) =>
      ask<ServedRead>({ op: "read", realRoot, path, limit, session }),
    readMany: (realRoot, files, limit, session) =>
      ask<BatchRead[]>({ op: "readMany", realRoot, files, limit, session }),
  };
}
