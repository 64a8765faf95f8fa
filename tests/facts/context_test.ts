/**
 * N27: the packet of a function, a record and an enum of examples/, asked at
 * the declaration and at a use, equals its golden file (rendered as
 * annotated source, tests/golden/context/<case>.context.txt); and what has no
 * packet is refused with the right reason, without reading anything else.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { copyExample, REPO } from "../support/fixtures.ts";
import { goldenTest } from "../support/golden.ts";
import { renderContext } from "../support/render_context.ts";
import {
  compileRoot,
  contextOf,
  type ContextRequest,
  newFactCache,
  semanticContext,
  semanticDelta,
  semanticSnapshot,
} from "../../src/facts/mod.ts";

const GOLDEN = join(REPO, "tests/golden/context");

interface ContextCase {
  /** examples/<example>, or `program`: a folder of the repository with its root main.nz. */
  readonly example?: string;
  readonly program?: string;
  readonly declaration: ContextRequest;
  readonly use: ContextRequest;
}

function exampleConfig(example: string) {
  const dir = join(REPO, "examples", example);
  return { root: join(dir, "main.nz"), sourceRoot: dir };
}

goldenTest(
  "context: golden packets, the same at the declaration and at a use",
  GOLDEN,
  ".request.json",
  (_path, text) => {
    const request: ContextCase = JSON.parse(text);
    const dir = join(REPO, request.program ?? join("examples", request.example!));
    const config = { root: join(dir, "main.nz"), sourceRoot: dir };
    const atDeclaration = semanticContext(config, request.declaration);
    const atUse = semanticContext(config, request.use);
    if (atDeclaration.kind !== "answer") throw new Error(atDeclaration.value.reason);
    assertEquals(atUse, atDeclaration);
    return renderContext(atDeclaration.value, compileRoot(config).files);
  },
  { expectation: ".context.txt" },
);

Deno.test("context: on every definition of ledger, each link points at its definition's name", () => {
  const config = exampleConfig("ledger");
  const compilation = compileRoot(config);
  assertEquals(compilation.model.definitions.length > 20, true);
  const text = (place: { file: string; start: { offset: number }; end: { offset: number } }) => {
    const file = compilation.files.find((f) => f.path === place.file)!;
    return new TextDecoder().decode(file.bytes.subarray(place.start.offset, place.end.offset));
  };
  for (const def of compilation.model.definitions) {
    const file = compilation.files.find((f) => f.path === def.file)!;
    const { line, column } = file.lineIndex.position(def.nameSpan.start);
    const outcome = contextOf(compilation, { file: def.file, position: { line, column } });
    if (outcome.kind !== "answer") throw new Error(`${def.key}: ${outcome.value.reason}`);
    const packet = outcome.value;
    assertEquals(packet.target.key, def.key);
    assertEquals(text(packet.target.name_place), def.name);
    for (
      const section of [packet.uses, packet.types, packet.used_by, packet.calls, packet.called_by]
    ) {
      const keys = section.map((l) => l.key);
      assertEquals(keys, [...keys].sort(), `${def.key}: links sorted by key`);
      assertEquals(new Set(keys).size, keys.length, `${def.key}: each link once`);
      for (const link of section) {
        assertEquals(text(link.place), link.name, `${def.key} -> ${link.key}`);
        assertEquals(link.key.endsWith(`::${link.name}`), true);
      }
    }
  }
});

Deno.test("context: refusals say why, and name the request", () => {
  const config = exampleConfig("shapes");
  const reasonOf = (request: ContextRequest) => {
    const outcome = semanticContext(config, request);
    return outcome.kind === "refusal" ? outcome.value.reason : "answer";
  };
  const at = (line: number, column: number) => ({ line, column });
  const keyOf = (request: ContextRequest) => {
    const outcome = semanticContext(config, request);
    return outcome.kind === "answer" ? outcome.value.target.key : outcome.value.reason;
  };
  // Anywhere on a declaration — its doc comment, keywords, body — is that definition;
  // a name used inside it is the definition it names.
  assertEquals(keyOf({ file: "geometry/shapes.nz", position: at(15, 1) }), "geometry.shapes::area");
  assertEquals(keyOf({ file: "geometry/shapes.nz", position: at(14, 5) }), "geometry.shapes::area");
  assertEquals(keyOf({ file: "geometry/shapes.nz", position: at(18, 1) }), "geometry.shapes::area");
  assertEquals(keyOf({ file: "geometry/shapes.nz", position: at(17, 31) }), "util.numbers::square");
  assertEquals(keyOf({ file: "main.nz", position: at(19, 3) }), "main::main");
  // Outside every declaration: comments, imports, blank lines between definitions.
  assertEquals(reasonOf({ file: "main.nz", position: at(1, 1) }), "no_definition");
  assertEquals(reasonOf({ file: "main.nz", position: at(4, 1) }), "no_definition");
  assertEquals(reasonOf({ file: "main.nz", position: at(2, 3) }), "no_definition");
  assertEquals(reasonOf({ file: "main.nz", position: at(999, 1) }), "no_definition");
  assertEquals(reasonOf({ file: "main.nz", position: at(5, 999) }), "no_definition");
  for (
    const file of [
      "/etc/passwd",
      "../x.nz",
      "./main.nz",
      "geometry/../main.nz",
      "nope.nz",
      "main.nz\0",
    ]
  ) {
    assertEquals(reasonOf({ file, position: at(1, 1) }), "file_not_in_compilation", file);
  }
  assertEquals(
    reasonOf({ file: join(config.sourceRoot, "main.nz"), position: at(5, 4) }),
    "answer",
  );
});

Deno.test("context: a compilation that needed syntax recovery has no packet", () => {
  const copy = copyExample("shapes");
  try {
    copy.edit("util/numbers.nz", "n * n", "n * * n");
    const outcome = semanticContext(
      { root: copy.root, sourceRoot: copy.dir },
      { file: "main.nz", position: { line: 5, column: 4 } },
    );
    assertEquals(outcome.kind === "refusal" && outcome.value.reason, "syntax_recovery");
  } finally {
    copy.dispose();
  }
});

Deno.test("cache: answers are byte-identical with and without the cache, across edits", () => {
  const copy = copyExample("shapes");
  try {
    const config = { root: copy.root, sourceRoot: copy.dir };
    const cache = newFactCache();
    const request = { file: "main.nz", position: { line: 5, column: 4 } };
    const both = () => {
      const cached = JSON.stringify(semanticContext(config, request, { cache }));
      const fresh = JSON.stringify(semanticContext(config, request));
      assertEquals(cached, fresh);
      assertEquals(
        JSON.stringify(semanticSnapshot(config, { cache })),
        JSON.stringify(semanticSnapshot(config)),
      );
      return cached;
    };
    const first = both();
    assertEquals(both(), first);
    copy.edit("main.nz", `"large"`, `"huge"`);
    const second = both();
    assertEquals(second === first, false);
    copy.edit("util/numbers.nz", "n * n", "n * n * 1");
    both();
    // Only the parses of the current files are kept.
    assertEquals(cache.parses.size, 3);
  } finally {
    copy.dispose();
  }
});

Deno.test("context, snapshot and delta mark the seed's five facts unsupported, alike", () => {
  const five = [
    "effects",
    "capabilities",
    "tests",
    "semantic_history",
    "behavioural_equivalence",
  ] as const;
  const config = exampleConfig("shapes");
  const packet = semanticContext(config, { file: "main.nz", position: { line: 5, column: 4 } });
  const snapshot = semanticSnapshot(config);
  if (packet.kind !== "answer" || snapshot.kind !== "answer") throw new Error("refused");
  const delta = semanticDelta(config, snapshot.value);
  if (delta.kind !== "answer") throw new Error("refused");
  assertEquals(packet.value.unsupported, five);
  assertEquals(snapshot.value.unsupported, five);
  assertEquals(delta.value.unsupported, five);
});
