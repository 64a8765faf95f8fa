/**
 * Verification (src/facts/verify.ts, architecture §7.31): a plan is applied
 * in memory and the edited compilation compared with the current one. Plans
 * the conflict checks pass but that would break the program are refused
 * `would_break`; edits that would re-bind a name or change other facts
 * (given to verifyPlan directly, as no planner makes them) are refused
 * `would_change_meaning`; a passing plan says what was checked.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { loadCase, splitCase } from "../semantics/_support.ts";
import {
  indexOf,
  type Outcome,
  type Patch,
  type PlannedChange,
  type PlannedEdit,
  semanticPatchOf,
  sourceState,
  verifyPlan,
} from "../../src/facts/mod.ts";
import type { Compilation } from "../../src/semantics/mod.ts";

const encoder = new TextEncoder();

function compile(source: string): Compilation {
  return loadCase(splitCase(encoder.encode(source)));
}

/** The span of the `nth` (0-based) occurrence of `needle` as a word, in bytes. */
function spanOf(source: string, needle: string, nth = 0): { start: number; end: number } {
  const re = new RegExp(`(?<![A-Za-z0-9_])${needle}(?![A-Za-z0-9_])`, "g");
  let m: RegExpExecArray | null = null;
  for (let i = 0; i <= nth; i++) {
    m = re.exec(source);
    if (m === null) throw new Error(`no occurrence ${nth} of ${needle}`);
  }
  const start = encoder.encode(source.slice(0, m!.index)).length;
  return { start, end: start + encoder.encode(needle).length };
}

function positionOf(source: string, needle: string, nth = 0) {
  const { start } = spanOf(source, needle, nth);
  const before = new TextDecoder().decode(encoder.encode(source).subarray(0, start));
  return { line: before.split("\n").length, column: [...before.split("\n").at(-1)!].length + 1 };
}

function refusal(outcome: Outcome<Patch>) {
  if (outcome.kind !== "refusal") throw new Error(`planned: ${JSON.stringify(outcome.value)}`);
  return outcome.value;
}

Deno.test("verify: a passing rename says what was checked", () => {
  const source = `fn twice(n: Int) -> Int { let doubled = n * 2; doubled }

fn main() -> Unit { print(to_string(twice(2))) }
`;
  const compilation = compile(source);
  const outcome = semanticPatchOf(compilation, {
    operation: "rename",
    file: "main.nz",
    position: positionOf(source, "doubled"),
    new_name: "result",
  });
  if (outcome.kind !== "answer") throw new Error(outcome.value.message);
  const v = outcome.value.verification!;
  assertEquals([v.files_analysed, v.files_edited], [1, 1]);
  assertEquals(v.diagnostics_compared, 0);
  assertEquals(v.definitions_compared, 2);
  // twice, n (declaration and use), doubled (declaration and use), the prelude's print and
  // to_string, main, and the call of twice.
  assert(v.references_compared >= 8, `${v.references_compared} references`);
});

Deno.test("verify: a rename that would add a diagnostic is refused would_break, with its place", () => {
  // `_spare` is exempt from N0401; renamed to `spare` it would be an unused parameter.
  const source = `fn f(_spare: Int) -> Int { 1 }

fn main() -> Unit { print(to_string(f(2))) }
`;
  const value = refusal(semanticPatchOf(compile(source), {
    operation: "rename",
    file: "main.nz",
    position: { line: 1, column: 6 },
    new_name: "spare",
  }));
  assertEquals(value.reason, "would_break");
  assertEquals(value.problem, {
    kind: "adds_diagnostic",
    code: "N0401",
    severity: "warning",
    message: "unused parameter `spare`",
    place: {
      file: "main.nz",
      start: { offset: 5, line: 1, column: 6 },
      end: { offset: 11, line: 1, column: 12 },
    },
  });
  assertEquals(
    value.message,
    "applied, the plan would add warning N0401 at main.nz:1:6: unused parameter `spare`",
  );
});

Deno.test("verify: a fix whose closest name has another type is refused would_break", () => {
  const source = `fn f(count: String) -> Int { coutn + 1 }

fn main() -> Unit { print(to_string(f("a"))) }
`;
  const compilation = compile(source);
  const index = indexOf(compilation);
  const unknown = index.diagnostics.find((d) => d.code === "N0201")!;
  const value = refusal(semanticPatchOf(compilation, {
    operation: "fix",
    diagnostic: unknown.id,
    fix: 0,
    state: sourceState(compilation),
  }));
  assertEquals(value.reason, "would_break");
  const problem = value.problem as { kind: string; code: string; place: { start: unknown } };
  assertEquals([problem.kind, problem.code], ["adds_diagnostic", "N0310"]);
  // The place is in the file as it is now: the `+` after the name the fix replaces.
  assertEquals(problem.place.start, { offset: 35, line: 1, column: 36 });
});

const CAPTURE = `fn f(x: Int) -> Int { let y = x; x + y }

fn main() -> Unit { print(to_string(f(2))) }
`;

Deno.test("verify: edits that would re-bind a name are refused would_change_meaning", () => {
  // `y` renamed to `x`, as no planner would: `let x = x; x + x` still checks, but the first
  // `x` of the sum would read the local instead of the parameter.
  const before = compile(CAPTURE);
  const edits: PlannedEdit[] = [
    { file: "main.nz", span: spanOf(CAPTURE, "y", 0), replacement: "x" },
    { file: "main.nz", span: spanOf(CAPTURE, "y", 1), replacement: "x" },
  ];
  const verdict = verifyPlan(before, { kind: "local", owner: "main::f", name: "y" }, edits);
  if (verdict.ok) throw new Error("verified");
  assertEquals(verdict.problem.reason, "would_change_meaning");
  const problem = verdict.problem.problem;
  assert(problem.kind === "rebinds_reference");
  assertEquals(problem.name, "x");
  assertEquals(problem.place.start, { offset: 33, line: 1, column: 34 });
  assertEquals(problem.before.kind, "local");
  assertEquals(problem.after.kind, "local");
  assert(problem.before.kind === "local" && problem.after.kind === "local");
  assertEquals([problem.before.name, problem.before.place.start.column], ["x", 6]);
  assertEquals([problem.after.name, problem.after.place.start.column], ["y", 27]);
  // The planner itself refuses it earlier, by its conflict checks.
  const planned = refusal(semanticPatchOf(before, {
    operation: "rename",
    file: "main.nz",
    position: { line: 1, column: 27 },
    new_name: "x",
  }));
  assertEquals(planned.reason, "name_conflict");
});

Deno.test("verify: a name that would start to resolve is a change of meaning after a rename", () => {
  const source = `fn f(n: Int) -> Int { n + missing }

fn main() -> Unit { print(to_string(f(2))) }
`;
  const edits: PlannedEdit[] = [
    { file: "main.nz", span: spanOf(source, "n", 0), replacement: "missing" },
    { file: "main.nz", span: spanOf(source, "n", 1), replacement: "missing" },
  ];
  const verdict = verifyPlan(
    compile(source),
    { kind: "local", owner: "main::f", name: "n" },
    edits,
  );
  if (verdict.ok) throw new Error("verified");
  const problem = verdict.problem.problem;
  assert(problem.kind === "rebinds_reference");
  assertEquals(problem.before, { kind: "not_a_definition", name: "missing" });
  assertEquals(problem.after.kind, "local");
});

Deno.test("verify: edits that change a definition's facts, and nothing else, are refused", () => {
  // Made public, `helper` keeps every name's meaning but changes its shape.
  const source = `fn helper() -> Int { 1 }

fn main() -> Unit { print(to_string(helper())) }
`;
  const change: PlannedChange = { kind: "local", owner: "main::helper", name: "x" };
  const edits: PlannedEdit[] = [{
    file: "main.nz",
    span: { start: 0, end: 0 },
    replacement: "pub ",
  }];
  const verdict = verifyPlan(compile(source), change, edits);
  if (verdict.ok) throw new Error("verified");
  assertEquals(verdict.problem.reason, "would_change_meaning");
  assertEquals(verdict.problem.problem, {
    kind: "changes_facts",
    key: "main::helper",
    sections: ["shape"],
  });
});

Deno.test("verify: a fix that leaves its own diagnostic is refused would_break", () => {
  const source = `fn f(x: Int) -> Int { 1 }

fn main() -> Unit { print(to_string(f(2))) }
`;
  const compilation = compile(source);
  const unused = compilation.diagnostics.find((d) => d.code === "N0401")!;
  // An edit that does not fix it: a comment after the function.
  const edits: PlannedEdit[] = [{
    file: "main.nz",
    span: { start: 26, end: 26 },
    replacement: "\n// later",
  }];
  const verdict = verifyPlan(compilation, { kind: "fix", diagnostic: unused }, edits);
  if (verdict.ok) throw new Error("verified");
  assertEquals(verdict.problem.reason, "would_break");
  assertEquals(verdict.problem.problem.kind, "keeps_diagnostic");
});

Deno.test("verify: places and offsets are exact after multi-byte text", () => {
  // Two-, three- and four-byte characters before and between the renamed names.
  const source =
    `fn f(n: Int) -> String { let s = "ünïcödé ✓ 🎉"; let count = n; s + to_string(count) } // ✓ 🎉

fn main() -> Unit { print(f(1)) }
`;
  const compilation = compile(source);
  assertEquals(compilation.diagnostics.map((d) => d.message), []);
  const ok = semanticPatchOf(compilation, {
    operation: "rename",
    file: "main.nz",
    position: positionOf(source, "count"),
    new_name: "total",
  });
  if (ok.kind !== "answer") throw new Error(ok.value.message);
  assertEquals(ok.value.edits.map((e) => e.start.column), [53, 78]);
  const conflict = refusal(semanticPatchOf(compilation, {
    operation: "rename",
    file: "main.nz",
    position: positionOf(source, "count"),
    new_name: "n",
  }));
  assertEquals(conflict.reason, "name_conflict");
});
