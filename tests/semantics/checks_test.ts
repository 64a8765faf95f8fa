/**
 * Checker rules on small programs the golden cases do not hold: `main`'s
 * kind and shape (§10), operators on wrong operand types (§7.3.4), and the
 * wording of messages that name a definition's kind.
 */
import { assertEquals } from "../support/assert.ts";
import { loadCase, splitCase } from "./_support.ts";

const encoder = new TextEncoder();

/** `code message` of every diagnostic of a one-file program, in order. */
function diagnostics(source: string): string[] {
  const c = loadCase(splitCase(encoder.encode(source)));
  return c.diagnostics.map((d) => `${d.code} ${d.message}`);
}

function errors(source: string): string[] {
  const c = loadCase(splitCase(encoder.encode(source)));
  return c.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.message}`);
}

Deno.test("main: a record or an enum named main is N0502, not a clean program", () => {
  assertEquals(diagnostics("record main { x: Int }\n"), [
    "N0502 `main` must be a function, not a record",
  ]);
  assertEquals(diagnostics("enum main { A, B }\n"), [
    "N0502 `main` must be a function, not an enum",
  ]);
});

Deno.test("main: N0502 names the type parameters of a generic main", () => {
  assertEquals(errors("fn main[T]() {}\n"), [
    "N0502 `main` must not have type parameters, but it has `T`",
  ]);
  assertEquals(errors("fn main[T, U]() -> Int { 0 }\n"), [
    "N0502 `main` must not have type parameters, but it has `T`, `U`",
  ]);
  assertEquals(errors("fn main(x: Int) -> Int { x }\n"), [
    "N0502 `main` must take no parameters, but it takes 1 parameter",
  ]);
  assertEquals(errors('fn main() -> String { "" }\n'), [
    "N0502 `main` must return `Unit` or `Int`, not `String`",
  ]);
});

const MAIN = "\nfn main() -> Unit {}\n";

Deno.test("operators: wrong operand types are one N0310 naming both types", () => {
  assertEquals(errors(`fn f() -> Int { true + 1 }${MAIN}`), [
    "N0310 cannot apply `+` to `Bool` and `Int`",
  ]);
  assertEquals(errors(`fn f() -> Int { 1 + "a" }${MAIN}`), [
    "N0310 cannot apply `+` to `Int` and `String`",
  ]);
  assertEquals(errors(`fn f() -> Bool { 1 == "a" }${MAIN}`), [
    "N0310 cannot apply `==` to `Int` and `String`",
  ]);
  assertEquals(errors(`fn f() -> Bool { 1 < true }${MAIN}`), [
    "N0310 cannot apply `<` to `Int` and `Bool`",
  ]);
  assertEquals(errors(`fn f() -> Bool { true < false }${MAIN}`), [
    "N0310 cannot apply `<` to `Bool` and `Bool`",
  ]);
  assertEquals(errors(`fn f() -> Bool { 1 && true }${MAIN}`), [
    "N0310 cannot apply `&&` to `Int` and `Bool`",
  ]);
  assertEquals(errors(`fn f() -> Bool { true || "x" }${MAIN}`), [
    "N0310 cannot apply `||` to `Bool` and `String`",
  ]);
  assertEquals(errors(`fn f() -> Bool { !1 }${MAIN}`), [
    "N0310 cannot apply `!` to `Int`",
  ]);
});

Deno.test("operators: operands of the right types, inferred or not, are accepted", () => {
  assertEquals(
    errors(
      `fn f(xs: List[Int]) -> Bool { let n = len(xs); n + 1 > 2 && !(xs == []) || "a" < "b" }${MAIN}`,
    ),
    [],
  );
  assertEquals(errors(`fn f[T](a: T, b: T) -> Bool { a == b }${MAIN}`), []);
  assertEquals(errors(`fn f() -> Float { 1.5 * 2.0 - -0.5 }${MAIN}`), []);
  assertEquals(errors(`fn f() -> String { "a" + to_string(1) }${MAIN}`), []);
});

Deno.test("operators: an operand that is already an error adds nothing", () => {
  assertEquals(errors(`fn f() -> Int { nope + 1 }${MAIN}`), [
    "N0201 cannot find value `nope` in this scope",
  ]);
  assertEquals(errors(`fn f() -> Bool { !nope }${MAIN}`), [
    "N0201 cannot find value `nope` in this scope",
  ]);
});

Deno.test("messages: an enum is `an enum`", () => {
  assertEquals(errors(`enum E { A }\nfn f() -> Int { let _x = E; 1 }${MAIN}`), [
    "N0208 `E` is an enum, not a value",
  ]);
  assertEquals(errors(`record R { x: Int }\nfn f() -> Int { let _x = R; 1 }${MAIN}`), [
    "N0208 `R` is a record, not a value",
  ]);
});

/** The source after applying the only fix of the only N0401, and that fix's title. */
function afterUnusedFix(source: string): { title: string; text: string } {
  const c = loadCase(splitCase(encoder.encode(source)));
  const unused = c.diagnostics.filter((d) => d.code === "N0401");
  assertEquals(unused.length, 1, c.diagnostics.map((d) => d.message).join("\n"));
  const fix = unused[0].fixes[0];
  assertEquals(fix.applicability, "automatic");
  let bytes = encoder.encode(source);
  for (const e of [...fix.edits].sort((a, b) => b.span.start - a.span.start)) {
    const replacement = encoder.encode(e.replacement);
    const next = new Uint8Array(bytes.length - (e.span.end - e.span.start) + replacement.length);
    next.set(bytes.subarray(0, e.span.start));
    next.set(replacement, e.span.start);
    next.set(bytes.subarray(e.span.end), e.span.start + replacement.length);
    bytes = next;
  }
  return { title: fix.title, text: new TextDecoder().decode(bytes) };
}

Deno.test("N0401: the fix prefixes `_` when `_name` is free", () => {
  const { title, text } = afterUnusedFix(`fn f(x: Int) -> Int { 1 }${MAIN}`);
  assertEquals(title, "rename to `_x`");
  assertEquals(diagnostics(text).filter((d) => !d.startsWith("N0403")), []);
});

Deno.test("N0401: the fix never captures a `_name` that is read later", () => {
  // Prefixed, `let _x = 5` would capture the parameter `_x` read after it: the
  // function would return 5 and still check clean.
  const source = `fn capture(_x: Int) -> Int { let x = 5; _x }${MAIN}`;
  const { title, text } = afterUnusedFix(source);
  assertEquals(title, "rename to `_x2`");
  assertEquals(text.split("\n")[0], "fn capture(_x: Int) -> Int { let _x2 = 5; _x }");
  const after = loadCase(splitCase(encoder.encode(text)));
  const def = after.model.definitions.find((d) => d.name === "capture")!;
  const parameter = def.bindings.find((b) => b.kind === "parameter")!;
  assertEquals([parameter.name, parameter.references.length], ["_x", 1]);
});

Deno.test("N0401: the fix never makes a duplicate parameter or pattern binding", () => {
  const params = afterUnusedFix(`fn dup(x: Int, _x: Int) -> Int { _x }${MAIN}`);
  assertEquals(params.title, "rename to `_x2`");
  assertEquals(diagnostics(params.text).filter((d) => !d.startsWith("N0403")), []);
  const pattern = afterUnusedFix(
    `fn pick(xs: List[Int]) -> Int { match xs { [x, _x] => _x, _ => 0 } }${MAIN}`,
  );
  assertEquals(pattern.title, "rename to `_x2`");
  assertEquals(diagnostics(pattern.text).filter((d) => !d.startsWith("N0403")), []);
});
