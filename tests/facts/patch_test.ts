/**
 * N29 through the facts layer: every rename planned on examples/, checked and
 * applied in memory, gives a compilation with the same diagnostics and a
 * snapshot equal to the old one but for the renamed key; every fix offered
 * on a planted error removes it and adds none; every refusal has its reason.
 */
import { join, resolve } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { semanticFacts } from "../support/semantic_facts.ts";
import { REPO } from "../support/fixtures.ts";
import {
  applyPatch,
  compileRoot,
  indexOf,
  type Outcome,
  type Patch,
  type PatchRequest,
  type RootConfig,
  semanticPatchOf,
  snapshotDigest,
  snapshotOf,
  sourceState,
} from "../../src/facts/mod.ts";
import {
  type Compilation,
  loadCompilation,
  type ParseCache,
  type SourceHost,
} from "../../src/semantics/mod.ts";

function exampleConfig(example: string): RootConfig {
  const dir = join(REPO, "examples", example);
  return { root: join(dir, "main.nz"), sourceRoot: dir };
}

/** Reads the disk, except for files replaced in memory. */
function overlay(sourceRoot: string, files: ReadonlyMap<string, Uint8Array>): SourceHost {
  return {
    readFile(path) {
      for (const [rel, bytes] of files) if (resolve(sourceRoot, rel) === path) return bytes;
      try {
        return Deno.readFileSync(path);
      } catch {
        return { error: "not_found", message: "file not found" };
      }
    },
  };
}

// Parse results reused by file digest: answers are identical without it, and
// the rename sweep recompiles the ledger a few hundred times.
const cache: ParseCache = new Map();

function compileWith(config: RootConfig, files: ReadonlyMap<string, Uint8Array>): Compilation {
  return loadCompilation(config.root, {
    sourceRoot: config.sourceRoot,
    host: overlay(config.sourceRoot, files),
    cache,
  });
}

const planOn: (c: Compilation, r: PatchRequest) => Outcome<Patch> = semanticPatchOf;

function applied(compilation: Compilation, patch: Patch): Map<string, Uint8Array> {
  const bytes = new Map(compilation.files.map((f) => [f.path, f.bytes]));
  const result = applyPatch(patch, {
    read: (file) => bytes.get(file)!,
    snapshot: snapshotDigest(snapshotOf(compilation)),
  });
  if (typeof result === "string") throw new Error(result);
  return result;
}

function codes(compilation: Compilation): string[] {
  return compilation.diagnostics.map((d) => `${d.code} ${d.severity}`).sort();
}

for (const example of ["shapes", "ledger"]) {
  Deno.test(`rename: every private definition and local of examples/${example}, applied, keeps the program`, () => {
    const config = exampleConfig(example);
    const before = compileRoot(config);
    const snapshotBefore = snapshotOf(before);
    let planned = 0;
    const targets: { file: string; offset: number; name: string }[] = [];
    for (const def of before.model.definitions) {
      if (!def.exported && def.key !== "main::main") {
        targets.push({ file: def.file, offset: def.nameSpan.start, name: def.name });
      }
      for (const b of def.bindings) {
        if (b.name.startsWith("_")) continue;
        targets.push({ file: def.file, offset: b.declSpan.start, name: b.name });
      }
    }
    for (const target of targets) {
      const file = before.files.find((f) => f.path === target.file)!;
      const position = file.lineIndex.position(target.offset);
      const upper = /^[A-Z]/.test(target.name);
      const newName = upper ? `${target.name}Renamed` : `${target.name}_renamed`;
      const outcome = planOn(before, {
        operation: "rename",
        file: target.file,
        position: { line: position.line, column: position.column },
        new_name: newName,
      });
      if (outcome.kind === "refusal") {
        // A conflict is a legitimate answer; anything else is a bug here.
        assertEquals(
          outcome.value.reason,
          "name_conflict",
          `${target.name}: ${outcome.value.message}`,
        );
        continue;
      }
      planned++;
      const patch = outcome.value;
      assertEquals(patch.baseline.snapshot.length, 64);
      const after = compileWith(config, applied(before, patch));
      assertEquals(codes(after), codes(before), `${target.name} -> ${newName}: diagnostics`);
      const snapshotAfter = snapshotOf(after);
      if (patch.target.kind === "definition") {
        // Equal to the old model but for the renamed key: every relation,
        // shape and diagnostic, read back through the rename.
        const { key, new_key, name } = patch.target;
        const back = new Map([[new_key, key], [newName, name]]);
        assertEquals(
          semanticFacts(after, back),
          semanticFacts(before),
          `${key} -> ${newName}`,
        );
        assert(new_key in snapshotAfter.definitions && !(key in snapshotAfter.definitions));
      } else if (patch.target.kind === "local") {
        const owner = patch.target.owner;
        for (const [key, def] of Object.entries(snapshotAfter.definitions)) {
          const old = snapshotBefore.definitions[key];
          for (const [section, digest] of Object.entries(def.digests)) {
            if (key === owner && section === "source") continue;
            assertEquals(
              digest,
              old.digests[section as keyof typeof old.digests],
              `${target.name}: ${key} ${section}`,
            );
          }
        }
      }
    }
    assert(planned > 5, `only ${planned} renames planned`);
  });
}

Deno.test("rename: the definition rename leaves every other definition's non-source digests alone", () => {
  const config = exampleConfig("shapes");
  const before = compileRoot(config);
  const file = before.files.find((f) => f.path === "main.nz")!;
  const def = before.model.definitions.find((d) => d.key === "main::describe")!;
  const at = file.lineIndex.position(def.nameSpan.start);
  const outcome = planOn(before, {
    operation: "rename",
    file: "main.nz",
    position: at,
    new_name: "label",
  });
  if (outcome.kind !== "answer") throw new Error(outcome.value.message);
  assertEquals(outcome.value.edits.map((e) => [e.file, e.expected, e.replacement]), [
    ["main.nz", "describe", "label"],
    ["main.nz", "describe", "label"],
  ]);
  const after = compileWith(config, applied(before, outcome.value));
  const a = snapshotOf(before).definitions;
  const b = snapshotOf(after).definitions;
  assertEquals(a["main::describe"].digests.shape === b["main::label"].digests.shape, false);
  for (
    const section of [
      "dependencies",
      "related_types",
      "references",
      "callers",
      "callees",
      "diagnostics",
    ] as const
  ) {
    assertEquals(b["main::label"].digests[section], a["main::describe"].digests[section], section);
  }
});

Deno.test("rename: refusals", () => {
  const config = exampleConfig("shapes");
  const compilation = compileRoot(config);
  const reason = (file: string, line: number, column: number, newName: string) => {
    const outcome = planOn(compilation, {
      operation: "rename",
      file,
      position: { line, column },
      new_name: newName,
    });
    return outcome.kind === "refusal" ? outcome.value.reason : "answer";
  };
  assertEquals(reason("geometry/shapes.nz", 15, 8, "surface"), "exported_definition");
  assertEquals(reason("main.nz", 1, 1, "x"), "not_a_definition");
  assertEquals(reason("main.nz", 5, 4, "match"), "invalid_name");
  assertEquals(reason("main.nz", 5, 4, "2x"), "invalid_name");
  assertEquals(reason("main.nz", 5, 4, "Describe"), "invalid_name");
  assertEquals(reason("main.nz", 5, 4, "describe"), "invalid_name");
  assertEquals(reason("main.nz", 5, 4, "parse_size"), "name_conflict");
  assertEquals(reason("main.nz", 5, 4, "total"), "name_conflict");
  assertEquals(reason("main.nz", 5, 4, "shapes"), "name_conflict");
  assertEquals(reason("main.nz", 5, 4, "print"), "name_conflict");
  // `let origin` in main: `corner` is declared in the same scope.
  assertEquals(reason("main.nz", 14, 7, "corner"), "name_conflict");
  assertEquals(reason("main.nz", 14, 7, "place"), "answer");
  assertEquals(reason("../x.nz", 5, 4, "y"), "file_not_in_compilation");
  assertEquals(reason("/etc/passwd", 5, 4, "y"), "file_not_in_compilation");
});

Deno.test("rename: a local used in a record field shorthand keeps the field's name", () => {
  const config = exampleConfig("shapes");
  const text = Deno.readTextFileSync(join(config.sourceRoot, "main.nz"))
    .replace("let origin = Point { x: 0, y: 0 };", "let x = 0;\n  let origin = Point { x, y: 0 };");
  const files = new Map([["main.nz", new TextEncoder().encode(text)]]);
  const compilation = compileWith(config, files);
  assertEquals(codes(compilation), []);
  const outcome = planOn(compilation, {
    operation: "rename",
    file: "main.nz",
    position: { line: 14, column: 7 },
    new_name: "left",
  });
  if (outcome.kind !== "answer") throw new Error(outcome.value.message);
  assertEquals(outcome.value.edits.map((e) => e.replacement), ["left", "x: left"]);
  const after = compileWith(config, applied(compilation, outcome.value));
  assertEquals(codes(after), []);
});

Deno.test("fix: stale state, unknown id, no such fix, and a syntax diagnostic are refused", () => {
  const config = exampleConfig("shapes");
  const text = Deno.readTextFileSync(join(config.sourceRoot, "main.nz"))
    .replace("fn describe(n: Int) -> String {", "fn describe(n: Int, unused: Int) -> String {")
    .replace("describe(total(all))", "describe(total(all), 1)");
  const compilation = compileWith(config, new Map([["main.nz", new TextEncoder().encode(text)]]));
  const index = indexOf(compilation);
  const unused = index.diagnostics.find((d) => d.fixes.automatic > 0);
  assert(unused !== undefined, "a diagnostic with an automatic fix");
  const state = sourceState(compilation);
  const reason = (request: PatchRequest) => {
    const outcome = planOn(compilation, request);
    return outcome.kind === "refusal" ? outcome.value.reason : "answer";
  };
  assertEquals(reason({ operation: "fix", diagnostic: unused.id, fix: 0, state }), "answer");
  assertEquals(
    reason({ operation: "fix", diagnostic: unused.id, fix: 0, state: "0".repeat(64) }),
    "stale_state",
  );
  assertEquals(
    reason({ operation: "fix", diagnostic: "N0401@main.nz:1-2", fix: 0, state }),
    "no_current_diagnostic",
  );
  assertEquals(reason({ operation: "fix", diagnostic: unused.id, fix: 7, state }), "no_such_fix");
  const broken = compileWith(
    config,
    new Map([[
      "main.nz",
      new TextEncoder().encode(text.replace("fn main() -> Unit {", "fn main() -> Unit {{")),
    ]]),
  );
  const syntax = indexOf(broken).diagnostics.find((d) => d.code.startsWith("N01"))!;
  const refused = planOn(broken, {
    operation: "fix",
    diagnostic: syntax.id,
    fix: 0,
    state: sourceState(broken),
  });
  assertEquals(refused.kind === "refusal" && refused.value.reason, "syntax_diagnostic");
});

Deno.test("applyPatch checks all three freshness layers: the snapshot, the file, the bytes", () => {
  const config = exampleConfig("shapes");
  const before = compileRoot(config);
  const outcome = planOn(before, {
    operation: "rename",
    file: "main.nz",
    position: { line: 5, column: 4 },
    new_name: "label",
  });
  if (outcome.kind !== "answer") throw new Error(outcome.value.message);
  const patch = outcome.value;
  const bytes = new Map(before.files.map((f) => [f.path, f.bytes]));
  const snapshot = snapshotDigest(snapshotOf(before));
  const read = (file: string) => bytes.get(file)!;
  assert(typeof applyPatch(patch, { read, snapshot }) !== "string", "fresh: applied");
  // Another definition changed (its file not touched by the plan): the snapshot says so.
  assertEquals(
    applyPatch(patch, { read, snapshot: "0".repeat(64) }),
    "the program has changed since the plan: its snapshot is not baseline.snapshot",
  );
  const edited = new Map(bytes);
  const text = new TextDecoder().decode(bytes.get("main.nz")!);
  edited.set("main.nz", new TextEncoder().encode(text + "\n"));
  assertEquals(
    applyPatch(patch, { read: (file) => edited.get(file)!, snapshot }),
    "main.nz has changed since the plan",
  );
  const moved = { ...patch, files: [], edits: patch.edits.map((e) => ({ ...e, expected: "x" })) };
  assert(typeof applyPatch({ ...moved, files: patch.files }, { read, snapshot }) === "string");
});
