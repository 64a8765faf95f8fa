/**
 * N30/N31 through the facts layer: ids, owners and fix counts of the index,
 * the detail's fix requests, the summary's program-level entries, and a
 * state that covers every file read — parsed or rejected.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { copyExample } from "../support/fixtures.ts";
import {
  commandSummary,
  diagnosticDetail,
  diagnosticsIndex,
  type Outcome,
} from "../../src/facts/mod.ts";

function answerOf<T>(outcome: Outcome<T>): T {
  if (outcome.kind !== "answer") throw new Error(`refused: ${JSON.stringify(outcome.value)}`);
  return outcome.value;
}

Deno.test("diagnostics: ids, owners and fix counts; the detail plans each fix", () => {
  const copy = copyExample("shapes");
  try {
    const config = { root: copy.root, sourceRoot: copy.dir };
    copy.edit(
      "main.nz",
      "fn describe(n: Int) -> String {",
      "fn describe(n: Int, spare: Int) -> String {",
    );
    copy.edit("main.nz", "describe(total(all))", "describe(total(all), 0)");
    copy.edit(
      "main.nz",
      "Err(e) => print(e),",
      'Err(e) => print(e),\n    Err(_) => print("again"),',
    );
    const index = answerOf(diagnosticsIndex(config));
    const codes = index.diagnostics.map((d) => [d.code, d.owner, d.fixes]);
    assertEquals(codes, [
      ["N0401", "main::describe", { automatic: 1, needs_review: 0 }],
      ["N0307", "main::main", { automatic: 0, needs_review: 0 }],
    ]);
    for (const entry of index.diagnostics) {
      assert(
        entry.id.startsWith(`${entry.code}@main.nz:${entry.start.offset}-${entry.end.offset}`),
      );
      const detail = answerOf(
        diagnosticDetail(config, { id: entry.id, state: index.state.source }),
      );
      assertEquals([detail.id, detail.code, detail.facts], [entry.id, entry.code, "unavailable"]);
      detail.fixes.forEach((fix, i) =>
        assertEquals(fix.request, {
          operation: "fix",
          diagnostic: entry.id,
          fix: i,
          state: index.state.source,
        })
      );
    }
  } finally {
    copy.dispose();
  }
});

Deno.test("summary: a missing main has no place and no id, and fails the check", () => {
  const copy = copyExample("shapes");
  try {
    copy.edit("main.nz", "fn main() -> Unit {", "fn start() -> Unit {");
    const summary = answerOf(commandSummary({ root: copy.root, sourceRoot: copy.dir }));
    assertEquals([summary.status, summary.exit_status], ["failed", 1]);
    const missing = summary.diagnostics.find((d) => d.code === "N0501");
    assertEquals([missing?.place, missing?.id], [null, null]);
    const index = answerOf(diagnosticsIndex({ root: copy.root, sourceRoot: copy.dir }));
    assertEquals(index.diagnostics.some((d) => d.code === "N0501"), false);
  } finally {
    copy.dispose();
  }
});

Deno.test("state: a rejected (not UTF-8) file has real places and is part of the state", () => {
  const copy = copyExample("shapes");
  try {
    const config = { root: copy.root, sourceRoot: copy.dir };
    const path = join(copy.dir, "util/numbers.nz");
    const bytes = Deno.readFileSync(path);
    const broken = new Uint8Array([...bytes.subarray(0, 60), 0xff, ...bytes.subarray(60)]);
    Deno.writeFileSync(path, broken);
    const first = answerOf(diagnosticsIndex(config));
    const invalid = first.diagnostics.find((d) => d.code === "N0601")!;
    assertEquals(invalid.file, "util/numbers.nz");
    assertEquals(invalid.start.offset, 60);
    assert(invalid.start.line > 1, "the place is a real line, not line 1");
    // An edit of the rejected file elsewhere changes the state: an old id is stale, not lost.
    Deno.writeFileSync(path, new Uint8Array([...broken, 0x0a]));
    const stale = diagnosticDetail(config, { id: invalid.id, state: first.state.source });
    assertEquals(stale.kind === "refusal" && stale.value.reason, "stale_state");
  } finally {
    copy.dispose();
  }
});

Deno.test("detail: no fix request where nazm.semantic_patch would refuse it (syntax, recovery)", () => {
  const copy = copyExample("shapes");
  try {
    const config = { root: copy.root, sourceRoot: copy.dir };
    // A semantic diagnostic with a fix (an unused parameter) and, in another file, a syntax error.
    copy.edit(
      "main.nz",
      "fn describe(n: Int) -> String {",
      "fn describe(n: Int, spare: Int) -> String {",
    );
    copy.edit("main.nz", "describe(total(all))", "describe(total(all), 0)");
    copy.edit("util/numbers.nz", "pub fn square", "pub fn square(");
    const index = answerOf(diagnosticsIndex(config));
    const state = index.state.source;
    const semantic = index.diagnostics.find((d) => d.code === "N0401")!;
    const syntax = index.diagnostics.find((d) =>
      d.code.startsWith("N01") && d.fixes.automatic +
            d.fixes.needs_review > 0
    );
    assert(semantic.fixes.automatic === 1, "the unused parameter has its fix");
    const detail = answerOf(diagnosticDetail(config, { id: semantic.id, state }));
    assertEquals(detail.fixes.map((f) => f.request), [null]);
    if (syntax !== undefined) {
      const syntaxDetail = answerOf(diagnosticDetail(config, { id: syntax.id, state }));
      assert(syntaxDetail.fixes.length > 0 && syntaxDetail.fixes.every((f) => f.request === null));
    }
  } finally {
    copy.dispose();
  }
});

Deno.test("detail: a syntax diagnostic's fix has no request, even alone", () => {
  const copy = copyExample("shapes");
  try {
    const config = { root: copy.root, sourceRoot: copy.dir };
    copy.edit("main.nz", "fn main() -> Unit {", "fn main() -> Unit {{");
    const index = answerOf(diagnosticsIndex(config));
    const syntax = index.diagnostics.filter((d) =>
      d.code.startsWith("N01") && d.fixes.automatic + d.fixes.needs_review > 0
    );
    assert(syntax.length > 0, "a syntax diagnostic with a fix");
    for (const entry of syntax) {
      const detail = answerOf(
        diagnosticDetail(config, { id: entry.id, state: index.state.source }),
      );
      assert(detail.fixes.length > 0);
      assertEquals(detail.fixes.map((f) => f.request), detail.fixes.map(() => null));
    }
  } finally {
    copy.dispose();
  }
});
