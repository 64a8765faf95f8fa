/**
 * The wire, as raw transcripts against the real server (`deno task mcp`
 * flags): revisions of both eras, every strictness case, and the end of input.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { assertValidAgainst } from "../support/schema.ts";
import {
  answerTo,
  envelope,
  legacyOpening,
  MODERN,
  modern,
  type Transcript,
  transcript,
} from "../support/server.ts";

function errorOf(t: Transcript, id: string | number | null) {
  const message = answerTo(t, id);
  assert(
    message.error,
    `expected an error for id ${id}, got ${JSON.stringify(message)}`,
  );
  return message.error as {
    code: number;
    message: string;
    data?: Record<string, unknown>;
  };
}

function resultOf(t: Transcript, id: string | number) {
  const message = answerTo(t, id);
  assert(
    message.result,
    `expected a result for id ${id}, got ${JSON.stringify(message)}`,
  );
  return message.result as Record<string, unknown>;
}

function assertCleanExit(t: Transcript) {
  assertEquals(t.code, 0, `exit status; stderr: ${t.stderr}`);
  for (const message of t.messages) assertEquals(message.jsonrpc, "2.0");
}

Deno.test("legacy initialize echoes the four legacy revisions and offers 2025-11-25 otherwise", async () => {
  const cases: [string, string][] = [
    ["2024-11-05", "2024-11-05"],
    ["2025-03-26", "2025-03-26"],
    ["2025-06-18", "2025-06-18"],
    ["2025-11-25", "2025-11-25"],
    ["2099-01-01", "2025-11-25"],
    ["2026-07-28", "2025-11-25"],
    ["2024-10-07", "2025-11-25"],
    ["banana", "2025-11-25"],
  ];
  await Promise.all(cases.map(async ([asked, answered]) => {
    const t = await transcript([...legacyOpening(asked, 1), {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
    }]);
    assertCleanExit(t);
    const init = resultOf(t, 1);
    assertEquals(init.protocolVersion, answered, `initialize ${asked}`);
    assertEquals((init.serverInfo as { name: string }).name, "nazm-mcp");
    assert(Array.isArray(resultOf(t, 2).tools));
  }));
});

Deno.test("modern: server/discover, then tools/list and tools/call carrying the envelope", async () => {
  const t = await transcript([
    modern(1, "server/discover"),
    modern(2, "tools/list"),
    modern(3, "tools/call", { name: "nazm.docs_index", arguments: {} }),
  ]);
  assertCleanExit(t);
  const discover = resultOf(t, 1);
  assertEquals(discover.supportedVersions, [MODERN]);
  assertEquals(
    (discover._meta as Record<string, { name: string }>)[
      "io.modelcontextprotocol/serverInfo"
    ].name,
    "nazm-mcp",
  );
  const names = (resultOf(t, 2).tools as { name: string }[]).map((tool) => tool.name);
  assert(names.includes("nazm.docs_index"));
  const call = resultOf(t, 3);
  assertEquals(call.content, []);
  assertEquals(call.isError, undefined);
  assertValidAgainst("nazm.docs-index-1.json", call.structuredContent);
});

Deno.test("modern: every request's revision is checked, not only the first", async () => {
  const t = await transcript([
    modern(1, "tools/list"),
    modern(2, "tools/list", {}, "2099-01-01"),
    modern(3, "tools/list", {}, "banana"),
    {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } },
    },
    { jsonrpc: "2.0", id: 5, method: "tools/list", params: { _meta: {} } },
    { jsonrpc: "2.0", id: 6, method: "tools/list" },
    {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name: "nazm.docs_index",
        arguments: {},
        _meta: { progressToken: 1 },
      },
    },
    modern(8, "tools/list"),
  ]);
  assertCleanExit(t);
  assert(Array.isArray(resultOf(t, 1).tools));
  for (const id of [2, 3, 4, 5, 6, 7]) {
    const error = errorOf(t, id);
    assertEquals(error.code, -32022, `id ${id}: ${error.message}`);
    assertEquals(error.data?.supported, [MODERN], `id ${id}`);
  }
  assertEquals(errorOf(t, 2).data?.requested, "2099-01-01");
  assert(
    Array.isArray(resultOf(t, 8).tools),
    "still serving after the rejections",
  );
});

Deno.test("modern: a malformed envelope is -32602", async () => {
  const bad = (id: number, meta: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/list",
    params: { _meta: meta },
  });
  const t = await transcript([
    modern(1, "server/discover"),
    bad(2, {
      "io.modelcontextprotocol/protocolVersion": 20260728,
      "io.modelcontextprotocol/clientCapabilities": {},
    }),
    bad(3, { "io.modelcontextprotocol/protocolVersion": MODERN }),
    bad(4, {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": [],
    }),
    bad(5, { ...envelope(), "io.modelcontextprotocol/clientInfo": "me" }),
    bad(6, { ...envelope(), "io.modelcontextprotocol/logLevel": "loud" }),
    modern(7, "tools/list"),
  ]);
  assertCleanExit(t);
  for (const id of [2, 3, 4, 5, 6]) {
    const error = errorOf(t, id);
    assertEquals(error.code, -32602, `id ${id}: ${error.message}`);
    assertMatch(error.message, /_meta envelope/);
  }
  assert(Array.isArray(resultOf(t, 7).tools));
});

Deno.test("modern: a claim-less request after server/discover does not flip the era; initialize may", async () => {
  const t = await transcript([
    modern(1, "server/discover"),
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ...legacyOpening("2025-06-18", 3),
    { jsonrpc: "2.0", id: 4, method: "tools/list" },
  ]);
  assertCleanExit(t);
  assertEquals(errorOf(t, 2).code, -32022);
  assertEquals(resultOf(t, 3).protocolVersion, "2025-06-18");
  assert(Array.isArray(resultOf(t, 4).tools));
});

Deno.test("a first request that names no era is -32022; ping is answered", async () => {
  const t = await transcript([
    { jsonrpc: "2.0", id: 1, method: "tools/list" },
    { jsonrpc: "2.0", id: 2, method: "ping" },
    ...legacyOpening("2025-11-25", 3),
    { jsonrpc: "2.0", id: 4, method: "tools/list" },
  ]);
  assertCleanExit(t);
  assertEquals(errorOf(t, 1).code, -32022);
  assertEquals(resultOf(t, 2), {});
  assert(Array.isArray(resultOf(t, 4).tools));
});

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`${era}: unknown tool, missing, mistyped and unknown arguments are -32602`, async () => {
    const call = (id: number, name: string, args?: unknown) =>
      era === "modern"
        ? modern(
          id,
          "tools/call",
          args === undefined ? { name } : { name, arguments: args },
        )
        : {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: args === undefined ? { name } : { name, arguments: args },
        };
    const opening = era === "modern"
      ? [modern(0, "server/discover")]
      : legacyOpening("2025-11-25", 0);
    const t = await transcript([
      ...opening,
      call(1, "nazm.no_such_tool", {}),
      call(2, "nazm.docs_section", { id: "readme" }),
      call(3, "nazm.docs_index", { document: 5 }),
      call(4, "nazm.docs_index", { document: "readme", path: "/etc/passwd" }),
      call(5, "nazm.docs_index", ["readme"]),
      call(6, "nazm.docs_index", { root: "/etc" }),
      call(7, "nazm.docs_index"),
    ]);
    assertCleanExit(t);
    for (const id of [1, 2, 3, 4, 5, 6]) {
      const error = errorOf(t, id);
      assertEquals(error.code, -32602, `id ${id}: ${JSON.stringify(error)}`);
    }
    assertStringIncludes(errorOf(t, 1).message, "nazm.no_such_tool");
    assertStringIncludes(errorOf(t, 2).message, "state");
    assertStringIncludes(errorOf(t, 4).message, "path");
    const ok = resultOf(t, 7);
    assertValidAgainst("nazm.docs-index-1.json", ok.structuredContent);
  });
}

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`${era}: resources, prompts and completions are not served: -32601, and not offered`, async () => {
    const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
      era === "modern" ? modern(id, method, params) : { jsonrpc: "2.0", id, method, params };
    const opening = era === "modern"
      ? [modern(0, "server/discover")]
      : legacyOpening("2025-11-25", 0);
    const t = await transcript([
      ...opening,
      request(1, "resources/list"),
      request(2, "resources/templates/list"),
      request(3, "resources/read", { uri: "file:///etc/passwd" }),
      request(4, "prompts/list"),
      request(5, "prompts/get", { name: "x" }),
      request(6, "completion/complete", {
        ref: { type: "ref/prompt", name: "x" },
        argument: { name: "a", value: "b" },
      }),
      request(7, "tools/list"),
    ]);
    assertCleanExit(t);
    for (const id of [1, 2, 3, 4, 5, 6]) {
      assertEquals(errorOf(t, id).code, -32601, `id ${id}: ${JSON.stringify(errorOf(t, id))}`);
    }
    assert(Array.isArray(resultOf(t, 7).tools), "serving goes on");
    const capabilities = resultOf(t, 0).capabilities as Record<string, unknown>;
    assertEquals(Object.keys(capabilities).filter((k) => k !== "tools" && k !== "logging"), []);
  });
}

Deno.test("lines that are not JSON-RPC get -32700 / -32600 and the server keeps serving", async () => {
  const t = await transcript([
    ...legacyOpening("2025-11-25", 0),
    "this is not json\n",
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"\n',
    '{"foo":1,"id":2}\n',
    '{"jsonrpc":"2.0","id":"three","method":5}\n',
    '{"jsonrpc":"1.0","id":4,"method":"tools/list"}\n',
    '[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]\n',
    "42\n",
    "\n",
    new Uint8Array([0xff, 0xfe, 0x7b, 0x0a]),
    { jsonrpc: "2.0", id: 6, method: "tools/list" },
  ]);
  assertCleanExit(t);
  const nulls = t.messages.filter((message) => message.id === null);
  const codes = nulls.map((message) => (message.error as { code: number }).code)
    .sort();
  // not json, truncated json, a batch, a bare number, bytes that are not UTF-8
  assertEquals(codes, [-32700, -32700, -32700, -32600, -32600].sort());
  assertEquals(errorOf(t, 2).code, -32600);
  assertEquals(errorOf(t, "three").code, -32600);
  assertEquals(errorOf(t, 4).code, -32600);
  assert(Array.isArray(resultOf(t, 6).tools));
});

Deno.test("a line over 80 MiB is answered with an error naming the limit; serving goes on", async () => {
  const big = new Uint8Array(80 * 1024 * 1024 + 16).fill(0x20);
  big[0] = 0x7b; // '{', then spaces, never closed
  big[big.length - 1] = 0x0a;
  const t = await transcript([
    ...legacyOpening("2025-11-25", 0),
    big,
    { jsonrpc: "2.0", id: 1, method: "tools/list" },
  ]);
  assertCleanExit(t);
  const error = errorOf(t, null);
  assertEquals(error.code, -32600);
  assertStringIncludes(error.message, "80 MiB");
  assertEquals(error.data?.limit, 80 * 1024 * 1024);
  assert(Array.isArray(resultOf(t, 1).tools));
});

Deno.test("at the end of input every pipelined call is answered, then exit 0", async () => {
  const calls = Array.from(
    { length: 40 },
    (_, i) => modern(i + 1, "tools/call", { name: "nazm.docs_index", arguments: {} }),
  );
  const t = await transcript([modern(0, "server/discover"), ...calls]);
  assertCleanExit(t);
  for (let id = 1; id <= 40; id++) {
    const result = resultOf(t, id);
    assertValidAgainst("nazm.docs-index-1.json", result.structuredContent);
  }
});

Deno.test("--text-content adds the same JSON as one text block", async () => {
  const t = await transcript([
    ...legacyOpening("2025-11-25", 0),
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "nazm.docs_index", arguments: {} },
    },
  ], { args: ["--root", "examples/shapes/main.nz", "--text-content"] });
  assertCleanExit(t);
  const result = resultOf(t, 1);
  const content = result.content as { type: string; text: string }[];
  assertEquals(content.length, 1);
  assertEquals(content[0].type, "text");
  assertEquals(JSON.parse(content[0].text), result.structuredContent);
});

Deno.test("stdout carries protocol messages only; logs go to stderr", async () => {
  const t = await transcript([
    ...legacyOpening("2025-11-25", 0),
    "not json\n",
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "nazm.docs_index", arguments: {} },
    },
  ], { env: { NAZM_LOG: "debug" } });
  assertCleanExit(t);
  for (const line of t.stdout.split("\n").filter((l) => l !== "")) {
    const message = JSON.parse(line);
    assert("result" in message || "error" in message, line.slice(0, 200));
  }
  assertStringIncludes(t.stderr, "nazm-mcp: debug:");
});

Deno.test("raw tools/list is byte-identical in both eras apart from the modern envelope fields", async () => {
  const [legacy, current] = await Promise.all([
    transcript([...legacyOpening("2025-11-25", 0), {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
    }]),
    transcript([modern(1, "tools/list")]),
  ]);
  const legacyResult = resultOf(legacy, 1);
  const { resultType, ttlMs: _ttl, cacheScope: _scope, _meta, ...modernResult } = resultOf(
    current,
    1,
  );
  assertEquals(resultType, "complete");
  assert(_meta, "modern results carry serverInfo in _meta");
  assertEquals(JSON.stringify(modernResult), JSON.stringify(legacyResult));
});
