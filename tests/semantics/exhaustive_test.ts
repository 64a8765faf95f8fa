/**
 * N0306 (§8.2): the message lists the missing patterns — at most 16, then
 * how many more — and the fix adds one arm for every missing pattern, so
 * that applying it once leaves an exhaustive match with no unreachable arm.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { Diagnostic } from "../../src/base/mod.ts";
import { type CaseFiles, loadCase, splitCase } from "./_support.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function load(source: string) {
  const c = splitCase(encoder.encode(source));
  return { c, compilation: loadCase(c) };
}

function nonExhaustive(source: string): { c: CaseFiles; d: Diagnostic } {
  const { c, compilation } = load(source);
  const found = compilation.diagnostics.filter((d) => d.code === "N0306");
  assertEquals(found.length, 1, compilation.diagnostics.map((d) => d.message).join("\n"));
  return { c, d: found[0] };
}

/** The source after the diagnostic's one fix. */
function fixed(c: CaseFiles, d: Diagnostic): string {
  assertEquals(d.fixes.length, 1);
  let text = decoder.decode(c.files.get("main.nz")!);
  const edits = [...d.fixes[0].edits].sort((a, b) => b.span.start - a.span.start);
  for (const e of edits) {
    const bytes = encoder.encode(text);
    text = decoder.decode(bytes.subarray(0, e.span.start)) + e.replacement +
      decoder.decode(bytes.subarray(e.span.end));
  }
  return text;
}

/** The fix, applied, leaves no N0306 and no N0307, and adds only arms. */
function assertFixComplete(source: string, arms: number): void {
  const { c, d } = nonExhaustive(source);
  assertEquals(d.fixes[0].precondition, { kind: "placeholders_to_complete", count: arms });
  const after = load(fixed(c, d)).compilation;
  const left = after.diagnostics.filter((x) => x.code === "N0306" || x.code === "N0307");
  assertEquals(left.map((x) => x.message), [], fixed(c, d));
  assertEquals(after.diagnostics.filter((x) => x.severity === "error").map((x) => x.message), []);
}

const variants = Array.from({ length: 19 }, (_, i) => `V${i}`);
const WIDE = `enum Wide { ${variants.join(", ")} }

fn f(w: Wide) -> Int {
  match w {
    Wide.V3 => 1,
  }
}

fn main() -> Unit { print(to_string(f(Wide.V0))) }
`;

Deno.test("N0306: more than 16 missing variants: 16 listed, then how many more", () => {
  const { d } = nonExhaustive(WIDE);
  const shown = variants.filter((v) => v !== "V3").slice(0, 16).map((v) => `\`Wide.${v}\``);
  assertEquals(d.message, `non-exhaustive match: ${shown.join(", ")} and 2 more not covered`);
});

Deno.test("N0306: the fix adds an arm for every missing variant, not only the listed ones", () => {
  assertFixComplete(WIDE, 18);
});

const LISTS = `fn f(xs: List[Option[Bool]]) -> Int {
  match xs {
    [Some(true)] => 1,
    [] => 0,
  }
}

fn main() -> Unit { print(to_string(f([]))) }
`;

Deno.test("N0306: list patterns report every missing pattern in one round", () => {
  const { d } = nonExhaustive(LISTS);
  assertEquals(
    d.message,
    "non-exhaustive match: `[Some(true), _, .._]`, `[Some(false), .._]`, `[None, .._]` not covered",
  );
  assertFixComplete(LISTS, 3);
});

Deno.test("N0306: nested variants and booleans, every missing combination", () => {
  const source = `enum Color { Red, Green, Blue }

fn f(p: Option[Color], q: Bool) -> Int {
  match Some(p) {
    Some(Some(Color.Red)) => 1,
    Some(None) => 2,
    None => 3,
  }
}

fn main() -> Unit { print(to_string(f(None, true))) }
`;
  const { d } = nonExhaustive(source);
  assertEquals(
    d.message,
    "non-exhaustive match: `Some(Some(Color.Green))`, `Some(Some(Color.Blue))` not covered",
  );
  assertFixComplete(source, 2);
});

Deno.test("N0306: an infinite type is completed by a wildcard arm", () => {
  const source = `fn f(n: Int, s: List[Int]) -> Int {
  match s {
    [1, 2] => n,
    [] => 0,
  }
}

fn main() -> Unit { print(to_string(f(1, []))) }
`;
  const { d } = nonExhaustive(source);
  assert(d.message.startsWith("non-exhaustive match: "), d.message);
  assertFixComplete(
    source,
    d.fixes[0].precondition.kind === "placeholders_to_complete" ? d.fixes[0].precondition.count : 0,
  );
});

Deno.test("N0306: when too many patterns are missing to list as arms, the fix ends with `_`", () => {
  // A list of four 19-variant elements: 18 missing variants at each position, and more.
  const source = `enum Wide { ${variants.join(", ")} }

fn f(p: List[Wide]) -> Int {
  match p {
    [Wide.V0, Wide.V0, Wide.V0, Wide.V0] => 1,
    [] => 0,
  }
}

fn main() -> Unit { print(to_string(f([]))) }
`;
  const { c, d } = nonExhaustive(source);
  assert(/ and (\d+ )?more not covered$/.test(d.message), d.message);
  assert(fixed(c, d).includes(`_ => panic("todo"),`), fixed(c, d));
  const after = load(fixed(c, d)).compilation;
  assertEquals(
    after.diagnostics.filter((x) => x.code === "N0306" || x.code === "N0307").map((x) => x.message),
    [],
  );
});
