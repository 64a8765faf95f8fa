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
 * This module only relays: every message from the bridge goes to the
 * analysis and back, transfers included.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { Worker as NodeWorker } from "node:worker_threads";
import type { FailedMessage, SandboxSetup } from "./protocol.ts";

const setup: SandboxSetup = JSON.parse(self.name);

const analysis = new NodeWorker(new URL(setup.module), {
  resourceLimits: { maxOldGenerationSizeMb: setup.heapMb },
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
self.onmessage = (event: MessageEvent) => {
  analysis.postMessage(event.data, transfers(event.data));
};
