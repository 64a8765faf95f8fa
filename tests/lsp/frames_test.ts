/**
 * The frames before vscode-jsonrpc's reader: well-formed input passes in
 * step however it is cut into chunks; after a lying length, the next header
 * block is found again.
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { assertEquals } from "../support/assert.ts";
import { Frames } from "../../src/lsp/frames.ts";

async function through(chunks: readonly Uint8Array[]): Promise<string> {
  const frames = new Frames();
  const out: Buffer[] = [];
  frames.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => frames.on("end", resolve));
  for (const chunk of chunks) frames.write(chunk);
  frames.end();
  await ended;
  return Buffer.concat(out).toString("utf8");
}

function frame(body: string, headers = ""): Uint8Array {
  const bytes = Buffer.from(body, "utf8");
  return Buffer.concat([Buffer.from(`${headers}Content-Length: ${bytes.length}\r\n\r\n`), bytes]);
}

function cut(bytes: Uint8Array, at: readonly number[]): Uint8Array[] {
  const points = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    if (p > from) out.push(bytes.subarray(from, p));
    from = p;
  }
  return out;
}

Deno.test("frames: well-formed frames pass in step, cut anywhere", async () => {
  const body = fc.string({ unit: fc.constantFrom("a", "é", "😀", "\r\n", "{", ":", "\r") });
  await fc.assert(
    fc.asyncProperty(
      fc.array(body, { minLength: 1, maxLength: 6 }),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.boolean(),
      async (bodies, at, typed) => {
        const header = typed ? "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" : "";
        const bytes = Buffer.concat(bodies.map((b) => frame(b, header)));
        const expected = bodies.map((b) => Buffer.from(frame(b)).toString("utf8")).join("");
        assertEquals(await through(cut(bytes, at)), expected);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("frames: after a lying length, the next header block is read from its Content-Length", async () => {
  const next = frame('{"id":2}');
  const short = Buffer.concat([Buffer.from('Content-Length: 5\r\n\r\n{"id":1}'), next]);
  // Too short: the lying frame's last bytes (`:1}`) come before the next header, and go.
  assertEquals(
    await through([short]),
    'Content-Length: 5\r\n\r\n{"id"' + 'Content-Length: 8\r\n\r\n{"id":2}',
  );
  // A block without a length passes unchanged, for the reader to report and drop.
  assertEquals(await through([Buffer.from("junk\r\n\r\n")]), "junk\r\n\r\n");
});
