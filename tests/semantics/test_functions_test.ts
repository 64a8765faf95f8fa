/**
 * Test functions (`test fn name() { … }`, specification §3.4.4 and §11.6):
 * the contextual word, the syntax errors, the canonical layout, checking
 * like a function body, their own namespace, and their place outside the
 * semantic model — no definition, no link, no snapshot change — while a
 * rename still edits the names their bodies use.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { format, parseText } from "../../src/syntax/mod.ts";
import { serializeDiagnostics } from "../../src/semantics/mod.ts";
import {
  applyPatch,
  deltaBetween,
  type Patch,
  semanticPatchOf,
  snapshotDigest,
  snapshotOf,
} from "../../src/facts/mod.ts";
import { loadCase, splitCase } from "./_support.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function load(text: string) {
  return loadCase(splitCase(encoder.encode(text)));
}

function codes(text: string): string[] {
  return load(text).diagnostics.map((d) => `${d.code} ${d.message}`);
}

Deno.test("test fn: parses as a test, and `test` stays an ordinary name elsewhere", () => {
  const r = parseText(
    '/// Checks it.\ntest fn adds() { assert(1 + 1 == 2, "ok"); }\nfn test() -> Int { let test = 1; test }\n',
  );
  assertEquals(r.diagnostics, []);
  const [t, f] = r.tree.items;
  assert(t.kind === "TestDecl");
  assertEquals(t.name.text, "adds");
  assertEquals(t.doc?.text, "Checks it.");
  assertEquals(t.start, 0); // the doc comment belongs to it
  assertEquals(f.kind, "FnDecl");
});

Deno.test("test fn: parameters, a result type or type parameters are syntax errors", () => {
  const messages = (text: string) =>
    parseText(text).diagnostics.map((d) => `${d.code} ${d.message}`);
  assertEquals(messages("test fn t(x: Int) {}\n"), ["N0101 expected `)`, found `x`"]);
  assertEquals(messages("test fn t() -> Int { 1 }\n"), ["N0101 expected `{`, found `->`"]);
  assertEquals(messages("test fn t[T]() {}\n"), ["N0101 expected `(`, found `[`"]);
  assertEquals(messages("pub test fn t() {}\n"), [
    "N0101 expected `fn`, `record` or `enum`, found `test`",
  ]);
  // Recovery resumes at the next test.
  const r = parseText("fn broken( {\ntest fn after() {}\n");
  assert(r.tree.items.some((i) => i.kind === "TestDecl" && i.name.text === "after"));
});

Deno.test("test fn: the canonical layout, idempotent", () => {
  const text = '///  Doc.\ntest   fn   spaced ( )   {  assert( true ,  "t" ) ;  }\n';
  const once = format(encoder.encode(text));
  assert(once.ok);
  assertEquals(once.text, '///  Doc.\ntest fn spaced() {\n  assert(true, "t");\n}\n');
  const twice = format(encoder.encode(once.text));
  assert(twice.ok);
  assertEquals(twice.text, once.text);
});

Deno.test("test fn: a body is checked like a function's returning Unit", () => {
  assertEquals(
    codes("fn main() {}\n\ntest fn t() {\n  1\n}\n"),
    ["N0301 mismatched types: expected `Unit`, found `Int`"],
  );
  assertEquals(
    codes('fn main() {}\n\ntest fn t() {\n  let x: Int = "s";\n  assert(x == 1, "x");\n}\n'),
    ["N0301 mismatched types: expected `Int`, found `String`"],
  );
  assertEquals(codes("fn main() {}\n\ntest fn t() {\n  let unused = 1;\n}\n"), [
    "N0401 unused variable `unused`",
  ]);
});

Deno.test("test fn: its own namespace — duplicates are N0204, a function may share its name, nothing can call it", () => {
  assertEquals(codes("fn main() {}\n\ntest fn t() {}\n\ntest fn t() {}\n"), [
    "N0204 the name `t` is defined more than once",
  ]);
  assertEquals(
    codes(
      "fn main() {}\n\nfn area() -> Int { 1 }\n\ntest fn area() {\n  assert_eq(area(), 1);\n}\n",
    ),
    [],
  );
  assertEquals(codes("fn main() {\n  t();\n}\n\ntest fn t() {}\n"), [
    "N0201 cannot find value `t` in this scope",
  ]);
});

Deno.test("test fn: a private helper only tests use is used (no N0403)", () => {
  assertEquals(
    codes(
      "fn main() {}\n\nfn helper() -> Int { 1 }\n\ntest fn t() {\n  assert_eq(helper(), 1);\n}\n",
    ),
    [],
  );
  assertEquals(codes("fn main() {}\n\nfn helper() -> Int { 1 }\n"), [
    "N0403 function `helper` is never used",
  ]);
});

const PROGRAM = `// @file: main.nz
import geo

fn main() {
  print(to_string(geo.area(2)));
}
// @file: geo.nz
pub fn area(s: Int) -> Int {
  square(s)
}

fn square(n: Int) -> Int {
  n * n
}
`;

const TESTS = `
test fn squares() {
  let side = 3;
  assert_eq(square(side), 9);
}

test fn area_is_square() {
  assert_eq(area(2), square(2));
}
`;

Deno.test("test fn: not durable definitions — no definition, no link, and adding tests changes no snapshot entry", () => {
  const before = load(PROGRAM);
  const after = load(PROGRAM + TESTS);
  assertEquals(serializeDiagnostics(after), []);
  assertEquals(
    after.model.definitions.map((d) => d.key),
    before.model.definitions.map((d) => d.key),
  );
  assertEquals(after.model.tests.map((t) => t.key), ["geo::squares", "geo::area_is_square"]);
  const square = after.model.definitions.find((d) => d.key === "geo::square")!;
  assertEquals(square.calledBy.map((l) => l.key), ["geo::area"]);
  const delta = deltaBetween(snapshotOf(before), snapshotOf(after));
  assertEquals([delta.added, delta.removed, delta.changed], [[], [], []]);
});

Deno.test("test fn: renaming a function edits the calls in tests, and a test's local that would capture is refused", () => {
  const c = load(PROGRAM + TESTS);
  const geo = c.files.find((f) => f.path === "geo.nz")!;
  const text = decoder.decode(geo.bytes);
  const at = geo.lineIndex.position(text.indexOf("fn square") + 3);
  const request = (newName: string) => ({
    operation: "rename" as const,
    file: "geo.nz",
    position: { line: at.line, column: at.column },
    new_name: newName,
  });
  const planned = semanticPatchOf(c, request("sq"));
  assertEquals(planned.kind, "answer");
  const patch = planned.value as Patch;
  assertEquals(patch.edits.length, 4); // the declaration, the call in `area`, two in tests
  const applied = applyPatch(patch, {
    read: (file) => c.files.find((f) => f.path === file)!.bytes,
    snapshot: snapshotDigest(snapshotOf(c)),
  });
  assert(typeof applied !== "string");
  const renamed = decoder.decode(applied.get("geo.nz")!);
  assert(renamed.includes("assert_eq(sq(side), 9);") && !/\bsquare\(/.test(renamed));
  const main = decoder.decode(c.files.find((f) => f.path === "main.nz")!.bytes);
  assertEquals(
    serializeDiagnostics(load(`// @file: main.nz\n${main}// @file: geo.nz\n${renamed}`)),
    [],
  );
  // Only the test `squares` has a local `side`: a `side` function would be shadowed there.
  const captured = semanticPatchOf(c, request("side"));
  assertEquals(captured.kind, "refusal");
  assertEquals(captured.value as unknown, {
    status: "refused",
    reason: "name_conflict",
    message: "a local `side` in `squares` would capture a reference to `square`",
    file: "geo.nz",
    position: request("side").position,
    new_name: "side",
  });
});
