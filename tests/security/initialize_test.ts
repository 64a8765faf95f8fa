/**
 * A malformed `initialize` is -32602 with one sentence naming the field,
 * never -32603 with a validator's multi-line dump; the connection stays open
 * and a well-formed `initialize` afterwards is served.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { answerTo, transcript } from "../support/server.ts";

const CLIENT = { name: "raw", version: "0" };

/** Malformed params, each with the field its error must name. */
const CASES: [unknown, string][] = [
  [{ protocolVersion: 123, capabilities: {}, clientInfo: CLIENT }, "params.protocolVersion"],
  [{ capabilities: {}, clientInfo: CLIENT }, "params.protocolVersion"],
  [{ protocolVersion: null, capabilities: {}, clientInfo: CLIENT }, "params.protocolVersion"],
  [
    { protocolVersion: ["2025-11-25"], capabilities: {}, clientInfo: CLIENT },
    "params.protocolVersion",
  ],
  [undefined, "params.protocolVersion"],
  [{ protocolVersion: "2025-11-25", clientInfo: CLIENT }, "params.capabilities"],
  [{ protocolVersion: "2025-11-25", capabilities: [], clientInfo: CLIENT }, "params.capabilities"],
  [{ protocolVersion: "2025-11-25", capabilities: {} }, "params.clientInfo"],
  [
    { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x" } },
    "params.clientInfo.version",
  ],
];

Deno.test("security: a malformed initialize is -32602 in one sentence; a good one is then served", async () => {
  const t = await transcript([
    ...CASES.map(([params], i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "initialize",
      ...(params === undefined ? {} : { params }),
    })),
    {
      jsonrpc: "2.0",
      id: 100,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT },
    },
  ]);
  assertEquals(t.code, 0, t.stderr);
  let right = 0;
  for (const [i, [, field]] of CASES.entries()) {
    const error = answerTo(t, i + 1).error as { code: number; message: string };
    const ok = error?.code === -32602 && !error.message.includes("\n") &&
      error.message.includes(field) && error.message.length < 200;
    if (ok) right++;
    assert(ok, `case ${i + 1}: ${JSON.stringify(error)}`);
  }
  console.log(
    `initialize: ${CASES.length} malformed tried, ${right} answered -32602 in one sentence`,
  );
  const served = answerTo(t, 100).result as { protocolVersion: string };
  assertEquals(served.protocolVersion, "2025-11-25");
});
