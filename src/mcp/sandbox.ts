/**
 * The analysis sandbox: a Web Worker started by bridge.ts with only the
 * read permission it needs (`analysisWorkerOptions`), holding the analysis
 * itself in a `node:worker_threads` worker whose heap is capped.
 *
 * Why two workers. Only a Web Worker can be given narrower permissions than
 * the process; only a `node:worker_threads` worker can be given a heap limit
 * (`resourceLimits`), and a Web Worker or the process that runs out of heap
 * takes the whole process down (measured on Deno 2.9.6: "Fatal JavaScript
 * out of memory", exit 133). A node worker started here inherits this
 * worker's permissions, and past its limit it alone stops: the error
 * `ERR_WORKER_OUT_OF_MEMORY` is reported here and passed on, and bridge.ts
 * starts a fresh sandbox for the next call.
 *
 * Besides relaying every message from the bridge to the analysis and back,
 * transfers included, the first sandbox checks the root's syntax while the
 * analysis starts: a worker started by a worker begins some 500 ms late
 * (measured on Deno 2.9.6; 2.9.0 took 36 ms), and this worker would sit
 * idle meanwhile. It parses each file the root reaches, keeping no tree
 * (facts/clean.ts), and adds the files found clean to the init message; the
 * analysis then reads those it needs no bodies of from skims (their
 * declarations alone, the bodies unlexed) for its first answers. Only a
 * hint: the analysis uses a verdict only for bytes with the digest it read
 * itself, and the check ends when the init message comes, however far it
 * got. It reads through the
 * same confined read and permissions as the analysis, and holds one file's
 * parse at a time, of at most 1 MiB (this worker has no heap limit).
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { MessageChannel, Worker as NodeWorker } from "node:worker_threads";
import type { CleanVerdict } from "../facts/clean.ts";
import type { FailedMessage, InitMessage, NoteMessage, SandboxSetup } from "./protocol.ts";

const setup: SandboxSetup = JSON.parse(self.name);

// Two ways down to the analysis, both measured on Deno 2.9.6. The worker's
// own postMessage delivers the first message a worker started by a worker
// receives some 500 ms late (every later one at once), and the first call
// of every server would wait for it; a channel given at the start delivers
// at once, but silently drops a message of 16 MiB or more. So a message
// goes down the channel unless it may be that large (a baseline's bytes, a
// huge argument), and then the worker's own way. Everything comes back up
// the worker's own way, which carries answers of any size.
const { port1: channel, port2: analysisEnd } = new MessageChannel();
// A young generation of 32 MiB: the first analysis builds some 100 MiB that
// lives on, and a worker's default, sized from its heap limit, collects
// and copies it too often (measured on the generated 100,000-line program:
// its first analysis took 1.43 s instead of 1.63, median of 4 each, against
// 1.45 s at 16 MiB and 1.51 s at 48 MiB).
const YOUNG_GENERATION_MB = 32;
const analysis = new NodeWorker(new URL(setup.module), {
  resourceLimits: {
    maxOldGenerationSizeMb: setup.heapMb,
    maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
  },
  workerData: { channel: analysisEnd },
  transferList: [analysisEnd],
});

/** Buffers of the byte arrays among a message's arguments, to move rather than copy. */
function transfers(message: unknown): ArrayBuffer[] {
  const args = (message as { args?: Record<string, unknown> } | null)?.args;
  if (args === undefined || args === null || typeof args !== "object") return [];
  const out: ArrayBuffer[] = [];
  for (const value of Object.values(args)) {
    if (value instanceof Uint8Array && value.buffer instanceof ArrayBuffer) out.push(value.buffer);
  }
  return out;
}

let failed = false;
function fail(message: FailedMessage): void {
  if (failed) return;
  failed = true;
  self.postMessage(message);
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

analysis.on("message", (message: unknown) => self.postMessage(message));
analysis.on("error", (error: Error & { code?: string }) => {
  fail({
    kind: "failed",
    outOfMemory: error.code === "ERR_WORKER_OUT_OF_MEMORY",
    message: error.message,
  });
});
analysis.on("exit", (code: number) => {
  fail({ kind: "failed", outOfMemory: false, message: `the analysis stopped (exit ${code})` });
});
// The syntax check, begun once the analysis is on its way, in slices of
// 20 ms: a slice is all the init message may wait.
const CHECK_SLICE_MS = 20;
const clean: CleanVerdict[] = [];
let checking = setup.check !== null;
if (setup.check !== null) void checkSyntax(setup.check);

/**
 * Runs the check in slices, giving way between them so that the bridge's
 * init message, the end of the check, is not kept waiting behind it.
 */
async function checkSyntax(config: { root: string; sourceRoot: string }): Promise<void> {
  try {
    const { checkRootSyntax } = await import("../facts/clean.ts");
    const steps = checkRootSyntax(config);
    while (checking) {
      const until = performance.now() + CHECK_SLICE_MS;
      while (checking && performance.now() < until) {
        const step = steps.next();
        if (step.done) checking = false;
        else if (step.value !== null) clean.push(step.value);
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } catch (error) {
    // A bug in the check: the analysis parses every file itself, as it would without one.
    checking = false;
    clean.length = 0;
    const note: NoteMessage = {
      kind: "note",
      message: `the sandbox's syntax check failed: ${error}`,
    };
    self.postMessage(note);
  }
}

self.onmessage = (event: MessageEvent) => {
  let message = event.data;
  if ((message as InitMessage | null)?.kind === "init") {
    checking = false;
    message = { ...message, clean: clean.splice(0) } satisfies InitMessage;
  }
  const transfer = transfers(message);
  if (fitsChannel(message, transfer)) channel.postMessage(message, transfer);
  else analysis.postMessage(message, transfer);
};
