/**
 * `nazm check`: exit statuses, the human layout, `--json` in the
 * nazm.diagnostic/2 shape, usage errors. Runs the command in-process
 * through the same entry the binary uses.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { main } from "../../src/cli/main.ts";

function run(...args: string[]): { status: number; out: string; err: string } {
  let out = "";
  let err = "";
  const status = main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  if (typeof status !== "number") throw new Error("`nazm check` answers synchronously");
  return { status, out, err };
}

Deno.test("cli check: a clean example exits 0", () => {
  const r = run("check", "examples/shapes/main.nz");
  assertEquals(r.status, 0);
  assertEquals(r.out, "no errors, no warnings\n");
});

Deno.test("cli check: errors exit 1 with rustc-like text", () => {
  const r = run("check", "tests/golden/semantics/N0301_mismatch.nz");
  assertEquals(r.status, 1);
  assertStringIncludes(r.out, "error[N0301]: mismatched types: expected `Int`, found `String`\n");
  assertStringIncludes(r.out, " --> N0301_mismatch.nz:2:3\n");
  assertStringIncludes(r.out, "^^^^^");
  assertStringIncludes(r.out, "expected `Int` because of this");
  assert(r.out.endsWith("4 errors, 0 warnings\n"));
});

Deno.test("cli check: warnings alone exit 0", () => {
  const r = run("check", "tests/golden/semantics/N0401_unused_local.nz");
  assertEquals(r.status, 0);
  assertStringIncludes(r.out, "warning[N0401]");
  assertStringIncludes(r.out, "= fix (automatic): rename to `_unused`");
  assertStringIncludes(r.out, "= docs: diagnostics/lints-n04xx/n0401");
});

Deno.test("cli check --json: nazm.diagnostic/2 objects with places and expected text", () => {
  const r = run("check", "tests/golden/semantics/N0201_unknown_name.nz", "--json");
  assertEquals(r.status, 1);
  const list = JSON.parse(r.out);
  const d = list.find((x: { code: string }) => x.code === "N0201");
  assertEquals(d.schema, "nazm.diagnostic/2");
  assertEquals(d.docs_section, "diagnostics/resolution-n02xx/n0201");
  assertEquals(d.place.start, { offset: 54, line: 3, column: 9 });
  assertEquals(d.fixes[0].edits[0].expected, "greting");
  assertEquals(d.fixes[0].edits[0].replacement, "greeting");
  assertEquals(d.fixes[0].precondition, { kind: "intended_name", name: "greeting" });
});

Deno.test("cli: usage errors exit 2", () => {
  assertEquals(run().status, 2);
  assertEquals(run("nope").status, 2);
  assertEquals(run("check").status, 2);
  assertEquals(run("check", "a.nz", "b.nz").status, 2);
  assertEquals(run("check", "a.nz", "--bogus").status, 2);
  const both = run("check", "examples/shapes/main.nz", "--json", "--summary-json");
  assertEquals(both.status, 2);
  assertStringIncludes(both.err, "exclude each other");
  const missing = run("check", "does/not/exist.nz");
  assertEquals(missing.status, 2);
  assertStringIncludes(missing.err, "cannot read");
});

Deno.test("cli check --source-root: imports resolve under it", () => {
  const r = run("check", "examples/shapes/main.nz", "--source-root", "examples/shapes");
  assertEquals(r.status, 0);
  const wrong = run("check", "examples/shapes/main.nz", "--source-root", "examples");
  assertEquals(wrong.status, 1);
  assertStringIncludes(wrong.out, "N0202");
});
