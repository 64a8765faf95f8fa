/**
 * The compiler's facts through the real server over stdio (the SDK Client,
 * spawned with the user's flags): context packets render to their golden files,
 * every tool answers alike in both eras, deltas follow edits made between
 * two calls, every refusal of N28–N31 comes back with its reason, and
 * command_summary is byte for byte `nazm check --summary-json`.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { copyExample, type ExampleCopy, tempProgram } from "../support/fixtures.ts";
import { expectationPath, goldenCases } from "../support/golden.ts";
import { renderContext } from "../support/render_context.ts";
import { assertValidAgainst } from "../support/schema.ts";
import {
  answerTo,
  connectClient,
  type Connected,
  legacyOpening,
  REPO,
  transcript,
} from "../support/server.ts";
import { TOOLS } from "../../src/mcp/mod.ts";
import { main as cli } from "../../src/cli/main.ts";
import { compileRoot, contextOf, type ContextRequest } from "../../src/facts/mod.ts";
import { generate } from "../../bench/gen.ts";
import type { ContextPacket } from "../../src/contracts/mod.ts";

type Structured = Record<string, unknown>;

interface Called {
  readonly isError: boolean;
  readonly value: Structured;
}

async function call(
  connected: Connected,
  name: string,
  args: Record<string, unknown>,
): Promise<Called> {
  const tool = TOOLS.find((t) => t.name === name);
  assert(tool !== undefined, name);
  const result = await connected.client.callTool({ name, arguments: args });
  assert(result.structuredContent !== undefined, `${name}: ${JSON.stringify(result.content)}`);
  assertValidAgainst(tool.outputSchema, result.structuredContent);
  return { isError: result.isError === true, value: result.structuredContent as Structured };
}

async function answer(connected: Connected, name: string, args: Record<string, unknown>) {
  const called = await call(connected, name, args);
  assert(!called.isError, `${name} refused: ${JSON.stringify(called.value)}`);
  return called.value;
}

async function refusal(connected: Connected, name: string, args: Record<string, unknown>) {
  const called = await call(connected, name, args);
  assert(called.isError, `${name} answered: ${JSON.stringify(called.value).slice(0, 300)}`);
  return called.value as { status: string; reason: string; problem?: string };
}

async function withServer<T>(
  root: string,
  body: (connected: Connected) => Promise<T>,
  era: "modern" | "legacy" = "modern",
): Promise<T> {
  const connected = await connectClient(era, ["--root", root]);
  try {
    return await body(connected);
  } finally {
    await connected.close();
  }
}

async function withCopy<T>(example: string, body: (copy: ExampleCopy, c: Connected) => Promise<T>) {
  const copy = copyExample(example);
  try {
    return await withServer(copy.root, (connected) => body(copy, connected));
  } finally {
    copy.dispose();
  }
}

const SHAPES = join(REPO, "examples/shapes/main.nz");
const GOLDEN = join(REPO, "tests/golden/context");

Deno.test("protocol: context packets at the declaration and at a use equal their golden files", async () => {
  const files = compileRoot({ root: SHAPES, sourceRoot: join(REPO, "examples/shapes") }).files;
  await withServer(SHAPES, async (connected) => {
    const cases = goldenCases(GOLDEN, ".request.json")
      .filter((path) => JSON.parse(Deno.readTextFileSync(path)).example === "shapes");
    assert(cases.length >= 3);
    for (const path of cases) {
      const request = JSON.parse(Deno.readTextFileSync(path));
      const expected = Deno.readTextFileSync(
        expectationPath(path, ".request.json", ".context.txt"),
      );
      for (const at of [request.declaration, request.use]) {
        const packet = await answer(connected, "nazm.semantic_context", at);
        assertEquals(renderContext(packet as unknown as ContextPacket, files), expected, path);
      }
    }
  });
});

Deno.test("protocol: the first packets, before the whole analysis, equal the later ones and nazm context's", async () => {
  // A program large enough that the calls sent at once reach the worker
  // before its whole analysis: they are answered from a focus (§3.6).
  const program = generate({ lines: 20_000, seed: 11 });
  const copy = tempProgram(Object.fromEntries(program.nazm));
  try {
    const config = { root: copy.root, sourceRoot: copy.dir };
    const compilation = compileRoot(config);
    const requests: ContextRequest[] = [];
    for (const file of compilation.files.filter((_, i) => i % 7 === 0)) {
      // The first name of the file (a declaration) and its last (a use, often of another module).
      const names = compilation.model.index[file.path];
      for (const entry of [names[0], names[names.length - 1]]) {
        const { line, column } = file.lineIndex.position(entry.start);
        requests.push({ file: file.path, position: { line, column } });
      }
    }
    assert(requests.length >= 10, `${requests.length} requests`);
    await withServer(copy.root, async (connected) => {
      const first = await Promise.all(
        requests.map((at) => answer(connected, "nazm.semantic_context", at)),
      );
      // Every tool but the packet's reads the whole analysis: after this, it is made.
      await answer(connected, "nazm.diagnostics", {});
      for (const [i, at] of requests.entries()) {
        const later = await answer(connected, "nazm.semantic_context", at);
        assertEquals(JSON.stringify(first[i]), JSON.stringify(later), JSON.stringify(at));
        const whole = contextOf(compilation, at);
        assert(whole.kind === "answer", JSON.stringify(whole));
        assertEquals(JSON.stringify(later), JSON.stringify(whole.value), JSON.stringify(at));
      }
    }, "legacy");
  } finally {
    copy.dispose();
  }
});

Deno.test("protocol: every tool answers the same in both eras", async () => {
  const calls: [string, Record<string, unknown>][] = [
    ["nazm.semantic_context", { file: "geometry/shapes.nz", position: { line: 15, column: 8 } }],
    ["nazm.semantic_snapshot", {}],
    ["nazm.semantic_patch", {
      operation: "rename",
      file: "main.nz",
      position: { line: 5, column: 4 },
      new_name: "label",
    }],
    ["nazm.diagnostics", {}],
    ["nazm.command_summary", {}],
    ["nazm.docs_index", { document: "goals" }],
    ["nazm.repository_map", {}],
  ];
  const run = (era: "modern" | "legacy") =>
    withServer(SHAPES, async (connected) => {
      const out: Structured[] = [];
      for (const [name, args] of calls) out.push(await answer(connected, name, args));
      const snapshot = out[1];
      out.push(await answer(connected, "nazm.semantic_delta", { baseline: snapshot }));
      const docs = out[5] as { state: string; documents: { sections: { id: string }[] }[] };
      out.push(
        await answer(connected, "nazm.docs_section", {
          id: docs.documents[0].sections[0].id,
          state: docs.state,
        }),
      );
      const map = out[6] as { state: string; entities: { id: string; kind: string }[] };
      const seed = map.entities.find((e) => e.kind === "definition")!.id;
      out.push(await answer(connected, "nazm.task_context", { seeds: [seed], state: map.state }));
      out.push(
        (await refusal(connected, "nazm.diagnostic_detail", {
          id: "N0201@main.nz:0-1",
          state: "0".repeat(64),
        })) as Structured,
      );
      return out;
    }, era);
  const modern = await run("modern");
  const legacy = await run("legacy");
  assertEquals(modern.length, calls.length + 4);
  assertEquals(legacy, modern);
});

Deno.test("protocol: deltas follow edits made between two calls", async () => {
  await withCopy("shapes", async (copy, connected) => {
    const baseline = await answer(connected, "nazm.semantic_snapshot", {});
    const delta = async () => {
      const d = await answer(connected, "nazm.semantic_delta", { baseline });
      return { added: d.added, removed: d.removed, changed: d.changed };
    };
    assertEquals(await delta(), { added: [], removed: [], changed: [] });
    copy.edit("main.nz", `  if n > 100 {`, `  // note\n  if n > 100 {`);
    assertEquals(await delta(), {
      added: [],
      removed: [],
      changed: [{ key: "main::describe", sections: ["source"] }],
    });
    copy.edit("main.nz", `"large"`, `"big"`);
    assertEquals(await delta(), {
      added: [],
      removed: [],
      changed: [{ key: "main::describe", sections: ["source"] }],
    });
    copy.edit("main.nz", "fn describe(", "fn describe_size(");
    copy.edit("main.nz", "print(describe(", "print(describe_size(");
    assertEquals(await delta(), {
      added: ["main::describe_size"],
      removed: ["main::describe"],
      changed: [{ key: "main::main", sections: ["source", "callees"] }],
    });
    copy.edit("util/numbers.nz", "n * n", "n * * n");
    assertEquals(
      (await refusal(connected, "nazm.semantic_delta", { baseline })).reason,
      "syntax_recovery",
    );
    assertEquals(
      (await refusal(connected, "nazm.semantic_snapshot", {})).reason,
      "syntax_recovery",
    );
  });
});

Deno.test("protocol: every hostile baseline is refused with its reason", async () => {
  await withServer(SHAPES, async (connected) => {
    const good = await answer(connected, "nazm.semantic_snapshot", {});
    const definitions = good.definitions as Record<string, { digests: Record<string, string> }>;
    const key = Object.keys(definitions)[0];
    const variant = (change: (b: Structured) => void) => {
      const b = structuredClone(good);
      change(b);
      return b;
    };
    const cases: [string, unknown, string][] = [
      ["a path", "/etc/passwd", "not_a_snapshot"],
      [
        "another root",
        variant((b) => b.root = { ...(b.root as object), module: "app.main" }),
        "other_root",
      ],
      ["another compiler", variant((b) => b.compiler = "nazm 0.0.9"), "other_compiler"],
      ["an unknown field", variant((b) => b.history = []), "unknown_field"],
      [
        "a malformed key",
        variant((b) => {
          (b.definitions as Record<string, unknown>)["/etc/passwd"] = definitions[key];
        }),
        "malformed_key",
      ],
      [
        "a bad digest",
        variant((b) => {
          (b.definitions as typeof definitions)[key].digests.source = "not-a-digest";
        }),
        "bad_digest",
      ],
    ];
    for (const [what, baseline, problem] of cases) {
      const refused = await refusal(connected, "nazm.semantic_delta", { baseline });
      assertEquals([refused.reason, refused.problem], ["invalid_baseline", problem], what);
    }
  });
});

Deno.test("protocol: a baseline with a repeated key is refused as duplicate_key, in both eras", async () => {
  const snapshot = JSON.parse(await cliOut(["snapshot", SHAPES]));
  const key = Object.keys(snapshot.definitions)[0];
  const entry = JSON.stringify(snapshot.definitions[key]);
  // JSON.parse would keep one of the two; only the raw line shows both.
  const baseline = JSON.stringify(snapshot).replace(
    `"definitions":{`,
    `"definitions":{${JSON.stringify(key)}:${entry},`,
  );
  const line = (id: number, meta: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"nazm.semantic_delta","arguments":{"baseline":${baseline}}${meta}}}\n`;
  const modernMeta =
    `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`;
  const modern = await transcript([line(1, modernMeta)], {
    args: ["--root", SHAPES],
    waitForLines: 1,
  });
  const legacy = await transcript([...legacyOpening(), line(1, "")], {
    args: ["--root", SHAPES],
    waitForLines: 2,
  });
  for (const t of [modern, legacy]) {
    const result = answerTo(t, 1).result as { isError: boolean; structuredContent: Structured };
    assertEquals(result.isError, true);
    assertValidAgainst("nazm.delta-2.json", result.structuredContent);
    assertEquals(result.structuredContent.problem, "duplicate_key");
    assertEquals(result.structuredContent.path, `$["definitions"][${JSON.stringify(key)}]`);
  }
});

Deno.test("protocol: file arguments outside the compilation are refused unopened", async () => {
  await withServer(SHAPES, async (connected) => {
    for (
      const file of [
        "/etc/passwd",
        "../x.nz",
        "/tmp/elsewhere/main.nz",
        "geometry/../main.nz",
        "main.nz\u0000",
      ]
    ) {
      const refused = await refusal(connected, "nazm.semantic_context", {
        file,
        position: { line: 1, column: 1 },
      });
      assertEquals(refused.reason, "file_not_in_compilation", file);
      const rename = await refusal(connected, "nazm.semantic_patch", {
        operation: "rename",
        file,
        position: { line: 1, column: 1 },
        new_name: "x",
      });
      assertEquals(rename.reason, "file_not_in_compilation", file);
    }
  });
});

Deno.test("protocol: every refusal of nazm.semantic_patch, with stale state after an edit", async () => {
  await withCopy("shapes", async (copy, connected) => {
    const rename = (line: number, column: number, new_name: string, file = "main.nz") =>
      refusal(connected, "nazm.semantic_patch", {
        operation: "rename",
        file,
        position: { line, column },
        new_name,
      });
    assertEquals(
      (await rename(15, 8, "surface", "geometry/shapes.nz")).reason,
      "exported_definition",
    );
    assertEquals((await rename(1, 1, "x")).reason, "not_a_definition");
    assertEquals((await rename(5, 4, "match")).reason, "invalid_name");
    assertEquals((await rename(5, 4, "parse_size")).reason, "name_conflict");
    // A warning with an automatic fix: an unused parameter.
    copy.edit(
      "main.nz",
      "fn describe(n: Int) -> String {",
      "fn describe(n: Int, spare: Int) -> String {",
    );
    copy.edit("main.nz", "describe(total(all))", "describe(total(all), 0)");
    const index = await answer(connected, "nazm.diagnostics", {});
    const state = (index.state as { source: string }).source;
    const unused =
      (index.diagnostics as { id: string; code: string; fixes: { automatic: number } }[])
        .find((d) => d.fixes.automatic > 0)!;
    const fix = (args: Record<string, unknown>) => ({
      operation: "fix",
      diagnostic: unused.id,
      fix: 0,
      state,
      ...args,
    });
    const plan = await answer(connected, "nazm.semantic_patch", fix({}));
    assertEquals(plan.applicability, "automatic");
    const detail = await answer(connected, "nazm.diagnostic_detail", { id: unused.id, state });
    const fixes = detail.fixes as { request: unknown }[];
    assertEquals(fixes[0].request, fix({}));
    assertEquals(detail.facts, "unavailable");
    assertEquals(
      (await refusal(connected, "nazm.semantic_patch", fix({ fix: 3 }))).reason,
      "no_such_fix",
    );
    assertEquals(
      (await refusal(connected, "nazm.semantic_patch", fix({ diagnostic: "N0301@main.nz:1-2" })))
        .reason,
      "no_current_diagnostic",
    );
    copy.edit("main.nz", `"large"`, `"big"`);
    assertEquals((await refusal(connected, "nazm.semantic_patch", fix({}))).reason, "stale_state");
    assertEquals(
      (await refusal(connected, "nazm.diagnostic_detail", { id: unused.id, state })).reason,
      "stale_state",
    );
    const fresh = await answer(connected, "nazm.diagnostics", {});
    const freshState = (fresh.state as { source: string }).source;
    assertEquals(
      (await refusal(connected, "nazm.diagnostic_detail", {
        id: "N0999@main.nz:0-1",
        state: freshState,
      })).reason,
      "not_found",
    );
    copy.edit("main.nz", "fn main() -> Unit {", "fn main() -> Unit {{");
    const broken = await answer(connected, "nazm.diagnostics", {});
    const syntax = (broken.diagnostics as { id: string; code: string }[]).find((d) =>
      d.code.startsWith("N01")
    )!;
    const brokenState = (broken.state as { source: string }).source;
    assertEquals(
      (await refusal(connected, "nazm.semantic_patch", {
        operation: "fix",
        diagnostic: syntax.id,
        fix: 0,
        state: brokenState,
      }))
        .reason,
      "syntax_diagnostic",
    );
    assertEquals((await rename(5, 4, "label")).reason, "syntax_recovery");
  });
});

Deno.test("protocol: nazm.semantic_patch input is strict", async () => {
  await withServer(SHAPES, async (connected) => {
    const bad = [
      { operation: "rename", file: "main.nz", position: { line: 5, column: 4 } },
      {
        operation: "rename",
        file: "main.nz",
        position: { line: 5, column: 4 },
        new_name: "x",
        state: "0".repeat(64),
      },
      { operation: "fix", diagnostic: "x", fix: 0 },
      { operation: "fix", diagnostic: "x", fix: 0, state: "0".repeat(64), root: "/etc" },
      {
        operation: "rename",
        file: "main.nz",
        position: { line: 5, column: 4 },
        new_name: "x",
        replacement: "y",
      },
      { operation: "apply", file: "main.nz" },
    ];
    for (const args of bad) {
      let code: number | undefined;
      try {
        await connected.client.callTool({ name: "nazm.semantic_patch", arguments: args });
      } catch (error) {
        code = (error as { code?: number }).code;
      }
      assertEquals(code, -32602, JSON.stringify(args));
    }
  });
});

async function cliOut(args: string[]): Promise<string> {
  let out = "";
  cli(args, { stdout: (text) => out += text, stderr: () => {} });
  return await Promise.resolve(out);
}

Deno.test("protocol: command_summary is byte for byte `nazm check --summary-json`", async () => {
  const compare = async (root: string) => {
    const expected = await cliOut(["check", root, "--summary-json"]);
    const connected = await connectClient("modern", ["--root", root, "--text-content"]);
    try {
      const result = await connected.client.callTool({
        name: "nazm.command_summary",
        arguments: {},
      });
      const content = result.content as { type: string; text: string }[];
      assertEquals(content.length, 1);
      assertEquals(content[0].text + "\n", expected, root);
      assertEquals(JSON.stringify(result.structuredContent) + "\n", expected, root);
      assertValidAgainst("nazm.command-summary-1.json", result.structuredContent);
      return JSON.parse(expected);
    } finally {
      await connected.close();
    }
  };
  assertEquals((await compare(SHAPES)).status, "ok");
  const ledger = copyExample("ledger");
  try {
    const planted: [string, string, string][] = [
      ["core/money.nz", "pub fn", "pub fn fn"],
      ["main.nz", "fn main() -> Int", "fn main() -> String"],
      ["main.nz", "fn main() -> Int", "fn start() -> Int"],
    ];
    for (const [file, from, to] of planted) {
      const original = ledger.read(file);
      ledger.write(file, original.replace(from, to));
      const summary = await compare(ledger.root);
      assertEquals(summary.status, "failed");
      assertEquals(summary.exit_status, 1);
      if (to.includes("start")) {
        const missing = summary.diagnostics.find((d: { code: string }) => d.code === "N0501");
        assert(missing !== undefined, "the missing main is reported");
        assertEquals([missing.place, missing.id], [null, null]);
      }
      ledger.write(file, original);
    }
  } finally {
    ledger.dispose();
  }
});

Deno.test("protocol: the v2 Client in auto-negotiation mode lists the tools and calls one", async () => {
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const { childEnv, serverArgs } = await import("../support/server.ts");
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: serverArgs(["--root", SHAPES]),
    env: childEnv(),
    cwd: REPO,
    stderr: "pipe",
  });
  const client = new Client({ name: "auto", version: "0" }, {
    versionNegotiation: { mode: "auto" },
  });
  await client.connect(transport);
  try {
    const listed = await client.listTools();
    assertEquals(listed.tools.map((t) => t.name).sort(), TOOLS.map((t) => t.name).sort());
    const result = await client.callTool({ name: "nazm.command_summary", arguments: {} });
    assertValidAgainst("nazm.command-summary-1.json", result.structuredContent);
    assertEquals((result.structuredContent as Structured).status, "ok");
  } finally {
    await client.close();
  }
});

Deno.test("protocol: the command line prints exactly what the tools answer", async () => {
  const copy = copyExample("shapes");
  try {
    await withServer(copy.root, async (connected) => {
      const same = async (cliArgs: string[], tool: string, args: Record<string, unknown>) => {
        const printed = JSON.parse(await cliOut(cliArgs));
        const called = await call(connected, tool, args);
        assertEquals(printed, called.value, `${cliArgs.join(" ")}`);
      };
      const root = ["--root", copy.root];
      await same(["context", "geometry/shapes.nz", "15:8", ...root], "nazm.semantic_context", {
        file: "geometry/shapes.nz",
        position: { line: 15, column: 8 },
      });
      await same(["context", "nope.nz", "1:1", ...root], "nazm.semantic_context", {
        file: "nope.nz",
        position: { line: 1, column: 1 },
      });
      await same(["snapshot", copy.root], "nazm.semantic_snapshot", {});
      const baseline = JSON.parse(await cliOut(["snapshot", copy.root]));
      copy.edit("main.nz", `"large"`, `"big"`);
      const path = join(copy.dir, "..", `${crypto.randomUUID()}.json`);
      Deno.writeTextFileSync(path, JSON.stringify(baseline));
      try {
        await same(["delta", path, ...root], "nazm.semantic_delta", { baseline });
      } finally {
        Deno.removeSync(path);
      }
      await same(["patch", "rename", "main.nz", "5:4", "label", ...root], "nazm.semantic_patch", {
        operation: "rename",
        file: "main.nz",
        position: { line: 5, column: 4 },
        new_name: "label",
      });
      await same(["diagnostics", copy.root], "nazm.diagnostics", {});
      await same(["check", copy.root, "--summary-json"], "nazm.command_summary", {});
    });
  } finally {
    copy.dispose();
  }
});

Deno.test("protocol: a baseline over 64 MiB is refused by name, and serving goes on", async () => {
  const pad = "x".repeat(64 * 1024 * 1024 + 1);
  const big =
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nazm.semantic_delta","arguments":{"baseline":{"schema":"nazm.snapshot/4","pad":"${pad}"}},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}\n`;
  const after = {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/list",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  };
  const t = await transcript([big, after], { args: ["--root", SHAPES], waitForLines: 2 });
  const result = answerTo(t, 1).result as { isError: boolean; structuredContent: Structured };
  assertEquals(result.isError, true);
  assertEquals([result.structuredContent.reason, result.structuredContent.problem], [
    "invalid_baseline",
    "too_large",
  ]);
  assert(String(result.structuredContent.message).includes("64 MiB"));
  assert(answerTo(t, 2).result !== undefined);
});
