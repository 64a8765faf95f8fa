/**
 * Deep and wide JSON cannot take the server down. A delta's baseline nested
 * 5,000 (or a million) deep is `invalid_baseline` — as the first call, while
 * the worker is still starting (it used to crash the process in
 * `postMessage`), and later (it used to be `internal_error`, a stack
 * overflow). The baseline is cut out of its line unparsed and read by the
 * worker after a scan without recursion (src/facts/snapshot.ts). Anywhere
 * else in a message, nesting past 64 levels or more than 100,000 values is
 * -32600 before anything parses the line. The server serves on after each.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { envelope, transcript } from "../support/server.ts";

const META = JSON.stringify(envelope());

function deltaLine(id: number, baseline: string): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"nazm.semantic_delta","arguments":{"baseline":${baseline}},"_meta":${META}}}\n`;
}

const nested = (open: string, close: string, depth: number) =>
  open.repeat(depth) + close.repeat(depth);

/** Baselines that no snapshot is, each with the problem its refusal names. */
const BASELINES: [string, string, string][] = [
  ["arrays 5,000 deep", nested("[", "]", 5_000), "not_a_snapshot"],
  ["objects 5,000 deep", nested('{"a":', "}", 5_000).replace(/:}/, ":1}"), "not_a_snapshot"],
  ["arrays a million deep", nested("[", "]", 1_000_000), "not_a_snapshot"],
  [
    "deep inside a definition",
    `{"schema":"nazm.snapshot/3","root":"main","compiler":"nazm 0.1.0","definitions":{"main::f":${
      nested("[", "]", 5_000)
    }}}`,
    "not_a_snapshot",
  ],
  ["5 million empty objects", `[${"{},".repeat(5_000_000)}{}]`, "too_large"],
  ["a repeated key, deep down", `{"a":{"b":{"c":1,"c":2}}}`, "duplicate_key"],
  ["not JSON inside balanced brackets", `[1,,2]`, "not_a_snapshot"],
];

Deno.test("security: a deep or wide baseline is invalid_baseline, first call or later", async () => {
  const lines = BASELINES.map(([, baseline], i) => deltaLine(i + 1, baseline));
  // The same again, once the worker is surely up; and a plain call after all.
  const again = BASELINES.map(([, baseline], i) => deltaLine(i + 101, baseline));
  const t = await transcript([
    ...lines,
    ...again,
    `{"jsonrpc":"2.0","id":999,"method":"tools/call","params":{"name":"nazm.docs_index","arguments":{"document":"goals"},"_meta":${META}}}\n`,
  ]);
  assertEquals(t.code, 0, t.stderr);
  let right = 0;
  for (const [i, [name, , problem]] of BASELINES.entries()) {
    for (const id of [i + 1, i + 101]) {
      const answer = t.messages.find((m) => m.id === id);
      const content = (answer?.result as { structuredContent?: Record<string, unknown> })
        ?.structuredContent;
      const ok = content?.reason === "invalid_baseline" && content.problem === problem;
      assert(ok, `${name} (id ${id}): ${JSON.stringify(answer)?.slice(0, 300)}`);
      right++;
    }
  }
  const last = t.messages.find((m) => m.id === 999)?.result as { isError?: boolean };
  assert(last !== undefined && last.isError === undefined, "served on");
  console.log(`deep baselines: ${BASELINES.length * 2} tried, ${right} refused invalid_baseline`);
});

Deno.test("security: a deep or wide message elsewhere is -32600 before it is parsed", async () => {
  const cases: [string, string][] = [
    [
      "_meta 5,000 deep",
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":${
        nested("[", "]", 5_000)
      }}}}`,
    ],
    [
      "a request 40 million deep (80 MB)",
      `{"jsonrpc":"2.0","id":2,"method":"ping","params":${nested("[", "]", 40_000_000)}}`,
    ],
    [
      "an argument 100 deep",
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nazm.docs_index","arguments":{"document":${
        nested("[", "]", 100)
      }},"_meta":${META}}}`,
    ],
    [
      "200,000 values",
      `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"x":[${
        "0,".repeat(200_000)
      }0]}}}`,
    ],
  ];
  const started = performance.now();
  const t = await transcript([
    ...cases.map(([, line]) => line + "\n"),
    `{"jsonrpc":"2.0","id":5,"method":"ping"}\n`,
  ]);
  assertEquals(t.code, 0, t.stderr);
  let right = 0;
  for (const [i, [name]] of cases.entries()) {
    const error = t.messages.find((m) => m.id === i + 1)?.error as { code?: number } | undefined;
    assert(error?.code === -32600, `${name}: ${JSON.stringify(error)}`);
    right++;
  }
  assert(t.messages.some((m) => m.id === 5 && "result" in m), "served on");
  console.log(
    `deep messages: ${cases.length} tried, ${right} refused -32600, in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
});
