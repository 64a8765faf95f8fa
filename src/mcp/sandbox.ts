/**
 * The analysis sandbox: a Web Worker started by bridge.ts with only the
 * read permission it needs (`analysisWorkerOptions`), for the server's
 * whole life. It makes every read of the analysis, and starts the analyses
 * the main thread no longer can.
 *
 * The first analysis is a `node:worker_threads` worker started by the main
 * thread: a worker started by a worker begins some 500 ms late (measured on
 * Deno 2.9.6; 2.9.0 took 36 ms), and that wait was most of a cold start.
 * Only a node worker can be given a heap limit (`resourceLimits`; a Web
 * Worker or the process that runs out of heap takes the whole process
 * down: "Fatal JavaScript out of memory", exit 133), and a node worker
 * shares its parent's permissions. So main.ts revokes the process's read
 * permission once that analysis has loaded its code, and this worker reads
 * for it (reads.ts): the analysis itself can read nothing.
 *
 * After that the main thread can start no worker that reads its code. When
 * an analysis fails (out of memory, stuck, crashed), the next is started
 * here, as a node worker of this one: it shares this worker's permission,
 * begins some 500 ms late, reads through this worker too, and its messages
 * go both ways through here, tagged with its generation so that a late
 * word of a stopped one is not taken for the new one's.
 *
 * While the first analysis loads, this worker checks the root's syntax: it
 * parses each file the root reaches, keeping no tree (facts/clean.ts), and
 * gives the bridge the files found clean when it asks (before the
 * analysis' init message), having checked the rest first, for at most
 * `finishMs` (bridge.ts `CHECK_FINISH_MS`: its parser is warm by then, the
 * analysis' cold); the analysis then reads those it needs no bodies of
 * from skims (their declarations alone, the bodies unlexed) for
 * its first answers. Only a hint: the analysis uses a verdict only for
 * bytes with the digest it read itself. The check holds one file's parse at
 * a time, of at most 1 MiB, and the bytes it read, up to 64 MiB, until the
 * first analysis' first reads are answered from them (this worker has no
 * heap limit).
 *
 * Nothing this module loads before its message handler is set may await at
 * its top level (base/mod.ts does, for hash-wasm): a worker dispatches the
 * messages that come meanwhile to no handler, and they are lost (seen:
 * the bridge's first message, the read channel, was).
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { MessageChannel, type MessagePort } from "node:worker_threads";
import type { CleanVerdict } from "../facts/clean.ts";
import {
  type AnalysisMessage,
  type AnalysisWorker,
  type CallMessage,
  type FailedMessage,
  type InitMessage,
  movedBuffers,
  type NoteMessage,
  type RelayedMessage,
  type SandboxRequest,
  type SandboxSetup,
  startAnalysisWorker,
  type VerdictsMessage,
} from "./protocol.ts";
import { readChannel, serveReads } from "./reads.ts";
import { BATCH_BYTES, type KnownFile, type KnownFiles } from "../base/files.ts";

const setup: SandboxSetup = JSON.parse(self.name);

/** The analysis this worker started, while it is the current one. */
interface Started {
  readonly generation: number;
  readonly analysis: AnalysisWorker;
  /** The way down that delivers at once (below). */
  readonly channel: MessagePort;
  /** This worker's end of the analysis' read channel. */
  readonly reads: MessagePort;
}

let current: Started | null = null;

function post(message: RelayedMessage | FailedMessage | VerdictsMessage | NoteMessage): void {
  self.postMessage(message);
}

function spawn(generation: number): void {
  stop(current?.generation ?? -1);
  const reads = readChannel();
  serveReads(reads.server);
  // Two ways down, both measured on Deno 2.9.6. A node worker's own
  // postMessage delivers the first message a worker started by a worker
  // receives some 500 ms late (every later one at once); a channel given
  // at the start delivers at once, but silently drops a message of 16 MiB
  // or more. So a message goes down the channel unless it may be that
  // large (a baseline's bytes, a huge argument), and then the worker's own
  // way. Everything comes back up the worker's own way, which carries
  // answers of any size.
  const { port1: channel, port2: analysisEnd } = new MessageChannel();
  const analysis = startAnalysisWorker(
    new URL(setup.module),
    setup.heapMb,
    { channel: analysisEnd, reads: reads.client },
    [analysisEnd, reads.client.port],
    (outOfMemory, message) => post({ kind: "failed", generation, outOfMemory, message }),
  );
  const started: Started = { generation, analysis, channel, reads: reads.server.port };
  current = started;
  analysis.worker.on("message", (message: AnalysisMessage) => {
    if (current === started) post({ kind: "relayed", generation, message });
  });
}

function stop(generation: number): void {
  if (current === null || current.generation !== generation) return;
  const { analysis, channel, reads } = current;
  current = null;
  analysis.stop();
  channel.close();
  reads.close();
}

/**
 * Whether a message is surely under the channel's limit: without bytes to
 * move, and with JSON text short enough that its structured copy (at most
 * two bytes a character) stays far below 16 MiB.
 */
function fitsChannel(message: unknown, transfer: readonly ArrayBuffer[]): boolean {
  return transfer.length === 0 && JSON.stringify(message).length <= CHANNEL_MAX_CHARS;
}

const CHANNEL_MAX_CHARS = 2 * 1024 * 1024;

function relay(generation: number, message: InitMessage | CallMessage): void {
  if (current === null || current.generation !== generation) return;
  const transfer = movedBuffers(message);
  if (fitsChannel(message, transfer)) current.channel.postMessage(message, transfer);
  else current.analysis.worker.postMessage(message, transfer);
}

self.onmessage = (event: MessageEvent<SandboxRequest>) => {
  const request = event.data;
  switch (request.kind) {
    case "serve":
      // The files the check read are answered from memory while unchanged.
      serveReads(request.reads, checked);
      return;
    case "verdicts":
      // The rest of the check first, on this warm parser: the analysis
      // would parse a file without a verdict in full, on a cold one, some
      // three times slower (measured: 13 to 53 of the generated program's
      // 201 files, 50 to 200 ms). A request that comes before the check
      // has loaded waits for it.
      void checkLoaded.then(() => {
        if (checking) checkFor(setup.check?.finishMs ?? 0);
        checking = false;
        post({ kind: "verdicts", clean: clean.splice(0), reached: reached.splice(0) });
      });
      return;
    case "spawn":
      checking = false;
      checked.clear();
      spawn(request.generation);
      return;
    case "relay":
      relay(request.generation, request.message);
      return;
    case "stop":
      stop(request.generation);
      return;
  }
};

// The syntax check, in slices of 20 ms: a slice is all a request to this
// worker may wait while it runs, but for the bridge's request for the
// verdicts, which the rest of the check delays by at most `finishMs`.
const CHECK_SLICE_MS = 20;
const clean: CleanVerdict[] = [];
const reached: string[] = [];
/**
 * The files the check read, up to {@link BATCH_BYTES} in all: the first
 * analysis' first reads are answered from them while unchanged. The budget
 * bounds what this worker, which has no heap limit, holds at once; a file
 * past it is not kept, and the analysis reads it again.
 */
class CheckedFiles extends Map<string, KnownFile> {
  #bytes = 0;

  override set(path: string, file: KnownFile): this {
    const before = this.get(path)?.bytes.length ?? 0;
    if (this.#bytes - before + file.bytes.length > BATCH_BYTES) return this;
    this.#bytes += file.bytes.length - before;
    return super.set(path, file);
  }

  override delete(path: string): boolean {
    this.#bytes -= this.get(path)?.bytes.length ?? 0;
    return super.delete(path);
  }

  override clear(): void {
    this.#bytes = 0;
    super.clear();
  }
}
const checked: KnownFiles = new CheckedFiles();
let checking = setup.check !== null;
/** The check's steps, once its module has loaded. */
let steps: Generator<CleanVerdict | null> | null = null;
const checkLoaded = setup.check === null ? Promise.resolve() : loadCheck(setup.check);
void checkLoaded.then(checkInSlices);

async function loadCheck(config: { root: string; sourceRoot: string }): Promise<void> {
  try {
    const { checkRootSyntax } = await import("../facts/clean.ts");
    steps = checkRootSyntax(config, reached, checked);
  } catch (error) {
    checkFailed(error);
  }
}

/** Runs the check in slices, giving way between them to the bridge's requests. */
async function checkInSlices(): Promise<void> {
  while (checking) {
    checkFor(CHECK_SLICE_MS);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** Checks files for about `ms`, or until the check is done. */
function checkFor(ms: number): void {
  if (steps === null) return;
  const until = performance.now() + ms;
  try {
    while (checking && performance.now() < until) {
      const step = steps.next();
      if (step.done) checking = false;
      else if (step.value !== null) clean.push(step.value);
    }
  } catch (error) {
    checkFailed(error);
  }
}

/** A bug in the check: the analysis parses every file itself, as it would without one. */
function checkFailed(error: unknown): void {
  checking = false;
  clean.length = 0;
  reached.length = 0;
  post({ kind: "note", message: `the sandbox's syntax check failed: ${error}` });
}
