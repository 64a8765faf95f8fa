/**
 * Every fix offered on the diagnostic golden cases, planned through
 * nazm.semantic_patch (by the index's id and state), checked on all three
 * freshness layers and applied in memory, removes its diagnostic; an
 * automatic one adds none, a needs_review one adds no error. Syntax
 * diagnostics' fixes are refused as such.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { diagnosticById } from "../support/semantic_facts.ts";
import { goldenCases } from "../support/golden.ts";
import { type CaseFiles, loadCase, splitCase } from "../semantics/_support.ts";
import {
  applyPatch,
  indexOf,
  semanticPatchOf,
  snapshotDigest,
  snapshotOf,
  sourceState,
} from "../../src/facts/mod.ts";
import { blake3 } from "../../src/base/mod.ts";
import type { Compilation } from "../../src/semantics/mod.ts";

const summary = (c: Compilation) =>
  c.diagnostics.map((d) => `${d.code} ${d.severity} ${d.message}`).sort();

function without(list: string[], item: string): string[] {
  const i = list.indexOf(item);
  return i < 0 ? list : [...list.slice(0, i), ...list.slice(i + 1)];
}

Deno.test("fix plans: every fix of every golden case, planned and applied", async (t) => {
  let planned = 0;
  let refusedSyntax = 0;
  for (const dir of ["tests/golden/semantics", "tests/golden/syntax"]) {
    for (const path of goldenCases(dir, ".nz")) {
      if (path.includes("N0603")) continue; // 10,000 generated files and no fix
      const c: CaseFiles = splitCase(Deno.readFileSync(path));
      const before = loadCase(c);
      const index = indexOf(before);
      const state = sourceState(before);
      for (const entry of index.diagnostics) {
        const d = diagnosticById(before, entry.id);
        for (let fix = 0; fix < d.fixes.length; fix++) {
          await t.step(`${path}: ${entry.id} fix ${fix}`, () => {
            const outcome = semanticPatchOf(before, {
              operation: "fix",
              diagnostic: entry.id,
              fix,
              state,
            });
            if (entry.code.startsWith("N01")) {
              assertEquals(outcome.kind === "refusal" && outcome.value.reason, "syntax_diagnostic");
              refusedSyntax++;
              return;
            }
            if (before.needsSyntaxRecovery) {
              // A compilation with a syntax error has no snapshot to bind a plan to.
              assertEquals(outcome.kind === "refusal" && outcome.value.reason, "syntax_recovery");
              return;
            }
            if (outcome.kind !== "answer") throw new Error(outcome.value.message);
            const patch = outcome.value;
            assertEquals(patch.applicability, d.fixes[fix].applicability);
            assertEquals(patch.precondition, d.fixes[fix].precondition);
            assertEquals(patch.baseline.snapshot, snapshotDigest(snapshotOf(before)));
            for (const f of patch.files) assertEquals(f.digest, blake3(c.files.get(f.file)!));
            const applied = applyPatch(patch, {
              read: (file) => c.files.get(file)!,
              snapshot: snapshotDigest(snapshotOf(before)),
            });
            if (typeof applied === "string") throw new Error(applied);
            const after = loadCase({ ...c, files: new Map([...c.files, ...applied]) });
            const expected = without(summary(before), `${d.code} ${d.severity} ${d.message}`);
            if (patch.applicability === "automatic") {
              assertEquals(summary(after), expected);
            } else {
              const errors = (list: string[]) => list.filter((s) => s.includes(" error "));
              assert(
                !summary(after).includes(`${d.code} ${d.severity} ${d.message}`),
                "the diagnostic is gone",
              );
              for (const e of errors(summary(after))) {
                assert(errors(expected).includes(e), `new error: ${e}`);
              }
            }
            planned++;
          });
        }
      }
    }
  }
  assert(planned >= 15, `only ${planned} fixes planned`);
  assert(refusedSyntax >= 1, "a syntax fix is refused");
});
