/**
 * The analysis worker hears on two ways (src/mcp/sandbox.ts): the channel
 * given at its start, and its own postMessage for messages that may be too
 * large for the channel. The two keep no order between them, so a call can
 * overtake the init message; the worker host holds such a call until its
 * context exists, and answers it then, as if it had come second.
 */
import { MessageChannel, Worker as NodeWorker } from "node:worker_threads";
import { assertEquals } from "../support/assert.ts";
import type { ServerPaths } from "../../src/mcp/mod.ts";

const FIXTURE_WORKER = new URL("./fixtures/worker.ts", import.meta.url);

function nextMessage(port: { once(event: "message", f: (m: unknown) => void): unknown }) {
  return new Promise<unknown>((resolve) => port.once("message", resolve));
}

Deno.test("worker host: a call that overtakes the init message is answered after it", async () => {
  const { port1: channel, port2: workerEnd } = new MessageChannel();
  const worker = new NodeWorker(FIXTURE_WORKER, {
    workerData: { channel: workerEnd },
    transferList: [workerEnd],
  });
  try {
    assertEquals(await nextMessage(worker), { kind: "ready" });
    // The call goes the worker's own way, the init message the channel's, later.
    const replies: unknown[] = [];
    const bothReplies = new Promise<void>((resolve) => {
      worker.on("message", (message: unknown) => {
        replies.push(message);
        if (replies.length === 2) resolve();
      });
    });
    worker.postMessage({ kind: "call", id: 7, tool: "test.echo", args: { text: "overtook" } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assertEquals(replies, [], "nothing runs before the context");
    const paths: ServerPaths = {
      root: "/nonexistent/main.nz",
      sourceRoot: "/nonexistent",
      docsRoot: "/nonexistent",
    };
    channel.postMessage({ kind: "init", paths, prepare: false });
    await bothReplies;
    assertEquals(replies, [
      { kind: "started", id: 7 },
      { id: 7, kind: "answer", value: { text: "overtook" } },
    ]);
  } finally {
    await worker.terminate();
    channel.close();
  }
});
