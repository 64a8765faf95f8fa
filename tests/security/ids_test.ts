/**
 * JSON-RPC ids are echoed exactly as the client wrote them. A number that a
 * double cannot hold — 2^53 + 1, 30 digits, 1e400 — or that a double holds
 * under another spelling (1.0, 1e2, -0) is answered with the client's own
 * text, never rounded into another id (9007199254740993 used to come back as
 * 9007199254740992, the id of another request) and never refused -32600.
 * A cancellation names such an id as exactly, and is honoured.
 */
import { assertEquals } from "../support/assert.ts";
import {
  envelope,
  FIXTURE_ENTRY,
  modern,
  openSession,
  transcript,
  within,
} from "../support/server.ts";

/** Ids as written on the wire. */
const IDS = [
  "9007199254740993",
  "9007199254740992",
  "-9007199254740993",
  "123456789012345678901234567890",
  "1e400",
  "1.0",
  "1e2",
  "-0",
  "1.5",
  "0.1",
  "7",
  '"7"',
  '"\\u0000nazm-id:looks-private:1"',
];

const ID = /"id":(-?[0-9][0-9.eE+-]*|"(?:[^"\\]|\\.)*"|null)/g;

/**
 * The id of each line of stdout, as text: the server writes it first (an id
 * it keeps as the client's text) or last (as JSON.stringify places it after
 * the result, whose documents have ids of their own).
 */
function echoedIds(stdout: string): string[] {
  return stdout.split("\n").filter((line) => line !== "").map((line) => {
    const all = [...line.matchAll(ID)];
    if (all.length === 0) return "none";
    return line.startsWith('{"id":') ? all[0][1] : all[all.length - 1][1];
  });
}

Deno.test("security: every id is echoed exactly as written, never rounded or refused", async () => {
  const tools = (id: string, i: number) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"nazm.docs_index","arguments":{"document":"goals"},"_meta":${
      JSON.stringify(envelope())
    }}}\n` +
    // and a protocol error, answered by the transport itself
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"nazm.nothing_${i}","_meta":${
      JSON.stringify(envelope())
    }}}\n` +
    // and the id after a baseline, which the transport cuts out of the line
    `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nazm.semantic_delta","arguments":{"baseline":{"x":[1,2,3]}},"_meta":${
      JSON.stringify(envelope())
    }},"id":${id}}\n`;
  const t = await transcript(IDS.map(tools));
  assertEquals(t.code, 0, t.stderr);
  const echoed = echoedIds(t.stdout).sort();
  const expected = IDS.flatMap((id) => [id, id, id]).sort();
  const right = IDS.filter((id) => echoed.filter((e) => e === id).length === 3);
  console.log(`ids: ${IDS.length} tried, ${right.length} echoed exactly (three times each)`);
  assertEquals(echoed, expected);
  for (const message of t.messages) {
    if ("result" in message) {
      // docs_index answers; the delta refuses its baseline.
      const result = message.result as {
        isError?: boolean;
        structuredContent: { reason?: string };
      };
      if (result.isError) assertEquals(result.structuredContent.reason, "invalid_baseline");
    } else {
      assertEquals((message.error as { code: number }).code, -32602, JSON.stringify(message));
    }
  }
});

Deno.test("security: a call with a huge id can be cancelled by that id", async () => {
  const s = openSession({ entry: FIXTURE_ENTRY, args: ["--call-timeout-ms", "60000"] });
  try {
    await s.send(modern(0, "server/discover"));
    const big = "123456789012345678901234567890";
    await s.send(
      `{"jsonrpc":"2.0","id":${big},"method":"tools/call","params":{"name":"test.echo","arguments":{"text":"slow","ms":10000},"_meta":${
        JSON.stringify(envelope())
      }}}\n`,
    );
    await s.send(
      `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${big},"_meta":${
        JSON.stringify(envelope())
      }}}\n`,
    );
    const started = performance.now();
    const end = await within(15_000, "exit", s.close());
    assertEquals(end.code, 0);
    assertEquals(end.messages.length, 1, "only server/discover is answered");
    if (performance.now() - started > 8_000) throw new Error("waited for the cancelled call");
  } finally {
    s.kill();
  }
});
