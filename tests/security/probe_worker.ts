/**
 * A test-only analysis that tries, where an analysis the sandbox starts
 * runs (after a failure of the first), every thing nazm-mcp's analysis must
 * not be able to do (probe_attempts.ts), and reports each outcome. Started
 * by worker_permissions_test.ts through the sandbox, with exactly the
 * options main.ts uses.
 */

import { type MessagePort, workerData } from "node:worker_threads";
import { type Targets, tryAll } from "./probe_attempts.ts";

// The probe runs where such an analysis runs: a node:worker_threads worker
// of the sandbox (src/mcp/sandbox.ts), which hears on the channel it is
// given and on globalThis, and answers through globalThis.
const channel = (workerData as { channel: MessagePort }).channel;
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<Targets>) => void) | null;
  postMessage(message: unknown): void;
};
const run = async (targets: Targets) => scope.postMessage(await tryAll(targets));
channel.on("message", run);
scope.onmessage = (event) => run(event.data);
scope.postMessage("ready");
