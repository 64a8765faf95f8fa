/**
 * The stdio transport in-process: framing across arbitrary chunk
 * boundaries, CRLF, UTF-8 split between chunks, the line limit, and the end
 * of input waiting for answers.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { createLogger } from "../../src/mcp/log.ts";
import { LineTransport } from "../../src/mcp/transport.ts";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";

const encoder = new TextEncoder();

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

function run(
  chunks: Uint8Array[],
  options: { maxLineBytes?: number; answer?: boolean } = {},
) {
  const received: JSONRPCMessage[] = [];
  const written: unknown[] = [];
  let ended!: () => void;
  const done = new Promise<void>((resolve) => ended = resolve);
  const transport = new LineTransport({
    input: streamOf(chunks),
    write: (bytes) => {
      for (const line of new TextDecoder().decode(bytes).split("\n")) {
        if (line) written.push(JSON.parse(line));
      }
      return Promise.resolve();
    },
    gate: () => ({ kind: "forward" }),
    onInputEnd: () => ended(),
    log: createLogger("error"),
    maxLineBytes: options.maxLineBytes,
  });
  transport.onmessage = (message) => {
    received.push(message);
    const id = (message as { id?: string | number }).id;
    if (options.answer !== false && id !== undefined) {
      setTimeout(() => transport.send({ jsonrpc: "2.0", id, result: {} }), 20);
    }
  };
  transport.start();
  return { received, written, done, transport };
}

function splitEvery(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    out.push(bytes.slice(at, at + size));
  }
  return out;
}

Deno.test("transport: messages split at every byte boundary, CRLF and UTF-8 across chunks", async () => {
  const text = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"n":"é—😀"}}}\r\n' +
    '{"jsonrpc":"2.0","method":"notifications/x"}\n\n' +
    '{"jsonrpc":"2.0","id":"two","method":"ping"}';
  for (const size of [1, 2, 3, 7, 1000]) {
    const { received, written, done } = run(
      splitEvery(encoder.encode(text), size),
    );
    await done;
    assertEquals(received.length, 3, `chunk size ${size}`);
    assertEquals(
      (received[0] as unknown as { params: { _meta: { n: string } } }).params
        ._meta.n,
      "é—😀",
    );
    assertEquals(written.length, 2, "both requests answered before the end");
  }
});

Deno.test("transport: a line over the limit is answered and skipped; the next line is served", async () => {
  const long = '{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":"' +
    "a".repeat(300) +
    '"}}\n';
  const short = '{"jsonrpc":"2.0","id":10,"method":"ping"}\n';
  const { received, written, done } = run(
    splitEvery(encoder.encode(long + short), 64),
    {
      maxLineBytes: 100,
    },
  );
  await done;
  assertEquals(
    received.map((message) => (message as unknown as { id: number }).id),
    [10],
  );
  const error = written.find((message) => (message as { id: unknown }).id === null) as {
    error: { code: number; message: string; data: { limit: number } };
  };
  assertEquals(error.error.code, -32600);
  assertEquals(error.error.data.limit, 100);
});

Deno.test("transport: the end of input waits for every forwarded request's answer", async () => {
  const lines = Array.from(
    { length: 5 },
    (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`,
  ).join("");
  const { written, done, transport } = run([encoder.encode(lines)]);
  await done;
  assertEquals(written.length, 5);
  assertEquals(transport.inFlight, 0);
  assert(true);
});
