/**
 * An analysis the sandbox starts hears on two ways (src/mcp/sandbox.ts): the
 * channel given at its start, and its own postMessage for messages that may
 * be too large for the channel. The two keep no order between them, so a call can
 * overtake the init message; the worker host holds such a call until its
 * context exists, and answers it then, as if it had come second.
 *
 * Its preparing steps (the server's: parse, then the whole analysis) give
 * way to the calls waiting when each is due, and only to those.
 */
import { MessageChannel, Worker as NodeWorker } from "node:worker_threads";
import { assert, assertEquals } from "../support/assert.ts";
import type { ServerPaths } from "../../src/mcp/mod.ts";
import { readChannel } from "../../src/mcp/read_channel.ts";

const FIXTURE_WORKER = new URL("./fixtures/worker.ts", import.meta.url);
const PREPARING_WORKER = new URL("./fixtures/preparing_worker.ts", import.meta.url);

const NO_PATHS: ServerPaths = {
  root: "/nonexistent/main.nz",
  sourceRoot: "/nonexistent",
  docsRoot: "/nonexistent",
};

function nextMessage(port: { once(event: "message", f: (m: unknown) => void): unknown }) {
  return new Promise<unknown>((resolve) => port.once("message", resolve));
}

/**
 * A worker of `module` started as the sandbox starts an analysis (with a
 * channel, and a read channel no one serves: these tools read nothing),
 * once it said it is ready; messages go to `onMessage`.
 */
async function readyWorker(module: URL, onMessage: (message: unknown) => void) {
  const { port1: channel, port2: workerEnd } = new MessageChannel();
  const reads = readChannel().client;
  const worker = new NodeWorker(module, {
    workerData: { channel: workerEnd, reads },
    transferList: [workerEnd, reads.port],
  });
  assertEquals(await nextMessage(worker), { kind: "ready" });
  worker.on("message", onMessage);
  return {
    worker,
    channel,
    async stop() {
      await worker.terminate();
      channel.close();
    },
  };
}

Deno.test("worker host: a call that overtakes the init message is answered after it", async () => {
  const replies: unknown[] = [];
  let bothReplies!: () => void;
  const both = new Promise<void>((resolve) => bothReplies = resolve);
  const { worker, channel, stop } = await readyWorker(FIXTURE_WORKER, (message) => {
    replies.push(message);
    if (replies.length === 2) bothReplies();
  });
  try {
    // The call goes the worker's own way, the init message the channel's, later.
    worker.postMessage({ kind: "call", id: 7, tool: "test.echo", args: { text: "overtook" } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assertEquals(replies, [], "nothing runs before the context");
    channel.postMessage({ kind: "init", paths: NO_PATHS, prepare: false });
    await both;
    assertEquals(replies, [
      { kind: "started", id: 7 },
      { id: 7, kind: "answer", value: { text: "overtook" } },
    ]);
  } finally {
    await stop();
  }
});

/**
 * Starts the preparing worker, sends `init` with a call right after it, and
 * `more` calls while its first step runs; resolves with every message, in
 * order, once `count` have come.
 */
async function preparing(
  more: number,
  count: number,
  spacing = 0,
  busy = 0,
): Promise<unknown[]> {
  const messages: unknown[] = [];
  let allCame!: () => void;
  const all = new Promise<void>((resolve) => allCame = resolve);
  const { channel, stop } = await readyWorker(PREPARING_WORKER, (message) => {
    messages.push(message);
    if (messages.length === count) allCame();
  });
  try {
    channel.postMessage({ kind: "init", paths: NO_PATHS, prepare: true });
    channel.postMessage({ kind: "call", id: 1, tool: "test.echo", args: { text: "first" } });
    for (let id = 2; id < 2 + more; id++) {
      await new Promise((resolve) => setTimeout(resolve, spacing));
      const call = busy > 0
        ? { tool: "test.busy", args: { text: `${id}`, ms: busy } }
        : { tool: "test.echo", args: { text: `${id}` } };
      channel.postMessage({ kind: "call", id, ...call });
    }
    await all;
    return messages;
  } finally {
    await stop();
  }
}

/** Where a message of this kind (and step, or call id) is in `messages`. */
function at(messages: readonly unknown[], kind: string, which: number): number {
  const index = messages.findIndex((m) => {
    const message = m as { kind: string; step?: number; id?: number };
    return message.kind === kind && (message.step ?? message.id) === which;
  });
  if (index < 0) throw new Error(`no ${kind} ${which} in ${JSON.stringify(messages)}`);
  return index;
}

Deno.test("worker host: a call sent with the init message comes before the second step", async () => {
  const messages = await preparing(0, 4);
  assert(at(messages, "answer", 1) < at(messages, "step", 1), JSON.stringify(messages));
});

Deno.test("worker host: the calls the init message announces come before the first step, however late", async () => {
  // As the bridge flushes what it held while the worker started: the init
  // message and, some turns later here, the call it announces. The first
  // step (300 ms) must not start in between.
  const messages: unknown[] = [];
  let allCame!: () => void;
  const all = new Promise<void>((resolve) => allCame = resolve);
  const { channel, stop } = await readyWorker(PREPARING_WORKER, (message) => {
    messages.push(message);
    if (messages.length === 4) allCame();
  });
  try {
    channel.postMessage({ kind: "init", paths: NO_PATHS, prepare: true, calls: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    channel.postMessage({ kind: "call", id: 1, tool: "test.echo", args: { text: "first" } });
    await all;
    assert(at(messages, "answer", 1) < at(messages, "step", 0), JSON.stringify(messages));
  } finally {
    await stop();
  }
});

Deno.test("worker host: a call that came during a step is answered before the next", async () => {
  // Sent while the first step is busy: it waits for that step, not the next.
  const messages = await preparing(1, 6, 100);
  assert(at(messages, "step", 0) < at(messages, "answer", 2), JSON.stringify(messages));
  assert(at(messages, "answer", 2) < at(messages, "step", 1), JSON.stringify(messages));
});

Deno.test("worker host: calls that never stop coming do not keep the last step from running", async () => {
  // Sixty calls of 30 ms each, one sent every 10 ms from the start: some
  // always wait, and about half have come when the 300 ms first step ends.
  // The second step waits for those waiting when it was due, not the last.
  const calls = 60;
  const messages = await preparing(calls, 2 + 2 * (1 + calls), 10, 30);
  assert(at(messages, "step", 1) < at(messages, "answer", 1 + calls), JSON.stringify(messages));
});
