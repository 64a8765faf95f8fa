/**
 * Property: on a generated program, renaming a random private definition or
 * local to a random fresh identifier — planned, checked on all three
 * freshness layers and applied in memory — gives a compilation with the same
 * diagnostics and the same semantic facts, read back through the rename.
 */
import fc from "fast-check";
import { assert, assertEquals } from "../support/assert.ts";
import { semanticFacts } from "../support/semantic_facts.ts";
import { generate } from "../../bench/gen.ts";
import { applyPatch, semanticPatchOf, snapshotDigest, snapshotOf } from "../../src/facts/mod.ts";
import { type Compilation, loadCompilation, type ParseCache } from "../../src/semantics/mod.ts";
import { blake3 } from "../../src/base/mod.ts";

const SOURCE_ROOT = "/generated";
const encoder = new TextEncoder();

function compile(files: ReadonlyMap<string, Uint8Array>, cache: ParseCache): Compilation {
  return loadCompilation(`${SOURCE_ROOT}/main.nz`, {
    sourceRoot: SOURCE_ROOT,
    cache,
    host: {
      readFile(path) {
        const bytes = files.get(path.slice(SOURCE_ROOT.length + 1));
        return bytes ?? { error: "not_found", message: "file not found" };
      },
    },
  });
}

/** The generator exports everything; make private each definition only its own module refers to. */
function withPrivateDefinitions(
  files: Map<string, Uint8Array>,
  cache: ParseCache,
): Map<string, Uint8Array> {
  const compilation = compile(files, cache);
  const out = new Map(files);
  for (const file of compilation.files) {
    let text = new TextDecoder().decode(file.bytes);
    for (const def of compilation.model.definitions) {
      if (def.file !== file.path || !def.exported) continue;
      const users = [...def.usedBy, ...def.calledBy].map((l) => l.key.split("::")[0]);
      if (users.some((module) => module !== def.module)) continue;
      text = text.replace(new RegExp(`\\bpub (fn|record|enum) ${def.name}\\b`), `$1 ${def.name}`);
    }
    out.set(file.path, encoder.encode(text));
  }
  return out;
}

Deno.test("property: random renames of private definitions and locals keep the generated program", () => {
  const cache: ParseCache = new Map();
  const program = generate({ lines: 2500, seed: 7 });
  const raw = new Map([...program.nazm].map(([path, text]) => [path, encoder.encode(text)]));
  const files = withPrivateDefinitions(raw, cache);
  const before = compile(files, cache);
  const targets: { file: string; offset: number; name: string }[] = [];
  for (const def of before.model.definitions) {
    if (!def.exported && def.name !== "main") {
      targets.push({ file: def.file, offset: def.nameSpan.start, name: def.name });
    }
    for (const b of def.bindings) {
      targets.push({ file: def.file, offset: b.declSpan.start, name: b.name });
    }
  }
  assert(targets.some((t) => /^[A-Z]/.test(t.name)), "private records or enums among the targets");
  assert(targets.length > 100, `${targets.length} targets`);
  const codes = (c: Compilation) => c.diagnostics.map((d) => `${d.code}@${d.severity}`).sort();
  const beforeFacts = semanticFacts(before);
  const beforeSnapshot = snapshotDigest(snapshotOf(before));
  let planned = 0;
  fc.assert(
    fc.property(
      fc.nat({ max: targets.length - 1 }),
      fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
      (index, suffix) => {
        const target = targets[index];
        const upper = /^[A-Z]/.test(target.name);
        const newName = upper ? `Z${suffix}` : `z_${suffix}`;
        const file = before.files.find((f) => f.path === target.file)!;
        const position = file.lineIndex.position(target.offset);
        const outcome = semanticPatchOf(before, {
          operation: "rename",
          file: target.file,
          position: { line: position.line, column: position.column },
          new_name: newName,
        });
        if (outcome.kind === "refusal") {
          assertEquals(outcome.value.reason, "name_conflict", outcome.value.message);
          return;
        }
        planned++;
        const patch = outcome.value;
        // The three freshness layers, as a careful client checks them.
        for (const { file: path, digest } of patch.files) {
          assertEquals(blake3(files.get(path)!), digest);
        }
        const applied = applyPatch(patch, {
          read: (path) => files.get(path)!,
          snapshot: beforeSnapshot,
        });
        if (typeof applied === "string") throw new Error(applied);
        const after = compile(new Map([...files, ...applied]), cache);
        assertEquals(codes(after), codes(before), `${target.name} -> ${newName}`);
        const back = new Map<string, string>([[newName, target.name]]);
        if (patch.target.kind === "definition") back.set(patch.target.new_key, patch.target.key);
        assertEquals(semanticFacts(after, back), beforeFacts, `${target.name} -> ${newName}`);
      },
    ),
    { numRuns: 60, seed: 20261130 },
  );
  assert(planned > 30, `only ${planned} of 60 renames were planned`);
});
