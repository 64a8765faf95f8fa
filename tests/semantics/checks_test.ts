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
