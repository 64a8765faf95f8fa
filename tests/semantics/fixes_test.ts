/**
 * Every fix of every golden case, applied in memory: an automatic fix makes
 * its diagnostic go away and adds no new one; a needs_review fix removes
 * its diagnostic and adds no error.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { goldenCases } from "../support/golden.ts";
import type { Diagnostic, Fix } from "../../src/base/mod.ts";
import { type CaseFiles, loadCase, splitCase } from "./_support.ts";

function applyFix(c: CaseFiles, fix: Fix): CaseFiles {
  const files = new Map(c.files);
  const byFile = Map.groupBy(fix.edits, (e) => e.file);
  for (const [file, edits] of byFile) {
    let bytes = files.get(file)!;
    for (const e of [...edits].sort((a, b) => b.span.start - a.span.start)) {
      const replacement = new TextEncoder().encode(e.replacement);
      const next = new Uint8Array(bytes.length - (e.span.end - e.span.start) + replacement.length);
      next.set(bytes.subarray(0, e.span.start), 0);
      next.set(replacement, e.span.start);
      next.set(bytes.subarray(e.span.end), e.span.start + replacement.length);
      bytes = next;
    }
    files.set(file, bytes);
  }
  return { ...c, files };
}

const summary = (d: Diagnostic) => `${d.code} ${d.message}`;

function without(list: string[], item: string): string[] {
  const i = list.indexOf(item);
  return i < 0 ? list : [...list.slice(0, i), ...list.slice(i + 1)];
}

const DIRS = ["tests/golden/semantics", "tests/golden/syntax"];

Deno.test("fixes: each automatic fix removes its diagnostic and adds none", async (t) => {
  let applied = 0;
  for (const dir of DIRS) {
    for (const path of goldenCases(dir, ".nz")) {
      if (path.includes("N0603")) continue; // 10,000 generated files: no fix there
      const c = splitCase(Deno.readFileSync(path));
      const before = loadCase(c).diagnostics;
      for (const d of before) {
        for (const fix of d.fixes) {
          if (fix.applicability !== "automatic") continue;
          await t.step(`${path}: ${d.code} ${fix.title}`, () => {
            const after = loadCase(applyFix(c, fix)).diagnostics.map(summary);
            assertEquals(after.sort(), without(before.map(summary), summary(d)).sort());
          });
          applied++;
        }
      }
    }
  }
  assert(applied >= 10, `only ${applied} automatic fixes exercised`);
});

Deno.test("fixes: each needs_review fix removes its diagnostic and adds no error", async (t) => {
  let applied = 0;
  for (const dir of DIRS) {
    for (const path of goldenCases(dir, ".nz")) {
      if (path.includes("N0603")) continue;
      const c = splitCase(Deno.readFileSync(path));
      const before = loadCase(c).diagnostics;
      const errors = before.filter((d) => d.severity === "error").map(summary);
      for (const d of before) {
        for (const fix of d.fixes) {
          if (fix.applicability !== "needs_review") continue;
          await t.step(`${path}: ${d.code} ${fix.title}`, () => {
            const after = loadCase(applyFix(c, fix)).diagnostics;
            const afterErrors = after.filter((x) => x.severity === "error").map(summary);
            for (const e of afterErrors) {
              assert(without(errors, summary(d)).includes(e), `new error after the fix: ${e}`);
            }
            assert(afterErrors.length < errors.length, "the fixed error is gone");
          });
          applied++;
        }
      }
    }
  }
  assert(applied >= 5, `only ${applied} needs_review fixes exercised`);
});
