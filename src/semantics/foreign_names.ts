/**
 * Names from other languages that a newcomer writes for something Nazm
 * spells differently, and what to say when one is not found (N0201): the
 * Nazm name, when there is one, and a help line. Only consulted for a name
 * that resolves to nothing, so a program that defines `length` or `map` is
 * never second-guessed.
 *
 * @module
 */

/** What Nazm writes instead of a foreign name. */
export interface ForeignName {
  /** The prelude name to use, offered as the closest name; null where there is none. */
  readonly use: string | null;
  readonly help: string;
}

const NO_LAMBDAS =
  "Nazm has no lambdas, so no higher-order list functions: write a recursive function over the list, `match xs { [] => …, [x, ..rest] => … }`";

function value(use: string | null, help: string): ForeignName {
  return { use, help };
}

const VALUES: ReadonlyMap<string, ForeignName> = new Map([
  ...["println", "printf", "puts", "echo", "log", "console"].map((n) =>
    [
      n,
      value("print", "Nazm writes a line with `print(text)`; make the text with `to_string`"),
    ] as const
  ),
  ...["length", "size", "count", "strlen"].map((n) =>
    [n, value("len", "the length of a list or a string is `len(xs)`")] as const
  ),
  ...["str", "toString", "string", "show", "format", "String"].map((n) =>
    [n, value("to_string", "any value becomes text with `to_string(value)`")] as const
  ),
  ...["append", "push_back", "pushBack", "cons"].map((n) =>
    [n, value("push", "`push(xs, x)` gives a new list with `x` at the end")] as const
  ),
  ...["parseInt", "parse", "atoi", "int"].map((n) =>
    [n, value("parse_int", "`parse_int(text)` gives an `Option[Int]`")] as const
  ),
  ...["float", "toFloat", "to_float"].map((n) =>
    [n, value("int_to_float", "an `Int` becomes a `Float` with `int_to_float(n)`")] as const
  ),
  ...["null", "nil", "undefined", "none", "NULL"].map((n) =>
    [
      n,
      value(
        "None",
        "Nazm has no null: an absent value is `None` of `Option[T]`, a present one `Some(x)`",
      ),
    ] as const
  ),
  ...["self", "this"].map((n) =>
    [
      n,
      value(null, "Nazm has no methods: a function takes the record or enum as a parameter"),
    ] as const
  ),
  ...["map", "filter", "fold", "reduce", "forEach", "for_each", "each", "any", "all"].map((n) =>
    [n, value(null, NO_LAMBDAS)] as const
  ),
  ["first", value("head", "the first element of a list is `head(xs)`, an `Option`")],
  ["rest", value("tail", "every element but the first is `tail(xs)`")],
  ["assert_equal", value("assert_eq", "`assert_eq(actual, expected)` compares two values")],
  ["assertEquals", value("assert_eq", "`assert_eq(actual, expected)` compares two values")],
]);

function type(use: string, help: string): ForeignName {
  return { use, help };
}

const INTEGERS = ["int", "integer", "number", "long", "isize", "usize"];
for (const bits of [8, 16, 32, 64, 128]) INTEGERS.push(`i${bits}`, `u${bits}`);

const TYPES: ReadonlyMap<string, ForeignName> = new Map([
  ...INTEGERS.map((n) => [n, type("Int", "integers are `Int`, 64-bit and signed")] as const),
  ...["float", "f32", "f64", "double", "real", "Double", "Number"].map((n) =>
    [n, type("Float", "floating-point numbers are `Float`, 64-bit")] as const
  ),
  ...["str", "string", "Str"].map((n) => [n, type("String", "text is `String`")] as const),
  ...["bool", "boolean", "Boolean"].map((n) =>
    [n, type("Bool", "truth values are `Bool`: `true`, `false`")] as const
  ),
  ...["Vec", "Array", "list", "array", "Seq", "Vector"].map((n) =>
    [n, type("List", "a sequence is `List[T]`, written `[a, b]`")] as const
  ),
  ...["void", "unit", "None"].map((n) =>
    [n, type("Unit", "the type of no value is `Unit`, written `()`")] as const
  ),
  ...["Maybe", "Optional", "option"].map((n) =>
    [n, type("Option", "an optional value is `Option[T]`: `Some(x)` or `None`")] as const
  ),
  ...["Either", "result"].map((n) =>
    [n, type("Result", "a value or an error is `Result[T, E]`: `Ok(x)` or `Err(e)`")] as const
  ),
  ...["char", "Char", "rune"].map((n) =>
    [
      n,
      type(
        "String",
        "Nazm has no character type: a character is a one-character `String` (`chars(s)` splits a string into them)",
      ),
    ] as const
  ),
]);

/** What to say of an unknown value or type name a newcomer may have brought along. */
export function foreignName(what: "value" | "type", name: string): ForeignName | undefined {
  return (what === "value" ? VALUES : TYPES).get(name);
}
