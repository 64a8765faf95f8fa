/**
 * The compiler-owned prelude: the built-in types, the `Option` and `Result`
 * enums and a handful of functions. Prelude items have no declaration in
 * any file, so they never appear as links in the semantic model; a
 * definition of the same name in a module shadows them there.
 *
 * docs/specification.md §9 lists exactly this table; keep them in step.
 *
 * @module
 */
import { BOOL, FLOAT, INT, listOf, showType, STRING, type TCon, type Type, UNIT } from "./types.ts";

/** The key under which prelude type parameters are instantiated. */
function param(owner: string, index: number, name: string): Type {
  return { kind: "param", owner, index, name };
}

/** The built-in types and their number of type arguments. */
export const PRELUDE_TYPES: ReadonlyMap<string, number> = new Map([
  ["Int", 0],
  ["Float", 0],
  ["Bool", 0],
  ["String", 0],
  ["Unit", 0],
  ["List", 1],
  ["Option", 1],
  ["Result", 2],
]);

export interface PreludeVariant {
  readonly name: string;
  /** `Option` or `Result`. */
  readonly enumName: string;
  readonly payload: readonly Type[];
}

const T_OPTION = param("Option", 0, "T");
const T_RESULT = param("Result", 0, "T");
const E_RESULT = param("Result", 1, "E");

export function optionOf(t: Type): TCon {
  return { kind: "con", name: "Option", display: "Option", args: [t] };
}

/** The prelude enums' type parameters, by enum. */
export const PRELUDE_ENUM_PARAMS: ReadonlyMap<string, readonly string[]> = new Map([
  ["Option", ["T"]],
  ["Result", ["T", "E"]],
]);

/** The prelude enums' variants, in declaration order. */
export const PRELUDE_ENUMS: ReadonlyMap<string, readonly PreludeVariant[]> = new Map([
  ["Option", [
    { name: "Some", enumName: "Option", payload: [T_OPTION] },
    { name: "None", enumName: "Option", payload: [] },
  ]],
  ["Result", [
    { name: "Ok", enumName: "Result", payload: [T_RESULT] },
    { name: "Err", enumName: "Result", payload: [E_RESULT] },
  ]],
]);

/** The prelude variants, usable unqualified. */
export const PRELUDE_VARIANTS: ReadonlyMap<string, PreludeVariant> = new Map(
  [...PRELUDE_ENUMS.values()].flat().map((v) => [v.name, v]),
);

/** A prelude enum's head, as its declaration writes it: `enum Option[T]`. */
export function preludeEnumHead(name: string): string {
  return `enum ${name}[${(PRELUDE_ENUM_PARAMS.get(name) ?? []).join(", ")}]`;
}

/** A prelude variant as its enum declares it: `Some(T)`, `None`. */
export function preludeVariantText(variant: PreludeVariant): string {
  const payload = variant.payload.map((t) => showType(null, t)).join(", ");
  return variant.payload.length === 0 ? variant.name : `${variant.name}(${payload})`;
}

function enumDeclaration(name: string): string {
  const variants = (PRELUDE_ENUMS.get(name) ?? []).map(preludeVariantText).join(", ");
  return `${preludeEnumHead(name)} { ${variants} }`;
}

/**
 * What an editor shows for a prelude type: its declaration as the
 * specification writes it (§6, §9) and one line from the specification.
 */
export const PRELUDE_TYPE_DOCS: ReadonlyMap<string, { declaration: string; doc: string }> = new Map(
  [
    ["Int", {
      declaration: "type Int",
      doc:
        "A signed 64-bit integer. Arithmetic outside its range is the runtime error `overflow`, " +
        "never a wrap-around.",
    }],
    ["Float", { declaration: "type Float", doc: "An IEEE 754 binary64 value." }],
    ["Bool", { declaration: "type Bool", doc: "`true` or `false`." }],
    ["String", {
      declaration: "type String",
      doc: "A sequence of Unicode scalar values: `len` counts characters, never bytes.",
    }],
    ["Unit", { declaration: "type Unit", doc: "The type of `()`, its one value." }],
    ["List", {
      declaration: "type List[T]",
      doc: "An immutable list of values of one type, written `[a, b]`.",
    }],
    ["Option", {
      declaration: enumDeclaration("Option"),
      doc: "A value, or `None` when there is none.",
    }],
    ["Result", {
      declaration: enumDeclaration("Result"),
      doc: "A value (`Ok`), or the error that prevented it (`Err`).",
    }],
  ],
);

export interface PreludeFunction {
  readonly name: string;
  readonly typeParams: readonly string[];
  readonly params: readonly { readonly name: string; readonly type: Type }[];
  readonly result: Type;
  /** The signature as the specification writes it. */
  readonly signature: string;
  readonly doc: string;
}

function fn(
  name: string,
  typeParams: string[],
  params: [string, Type][],
  result: Type,
  doc: string,
): PreludeFunction {
  const show = (t: Type): string => {
    switch (t.kind) {
      case "con":
        return t.args.length === 0 ? t.display : `${t.display}[${t.args.map(show).join(", ")}]`;
      case "param":
        return t.name;
      default:
        return "_";
    }
  };
  const tp = typeParams.length > 0 ? `[${typeParams.join(", ")}]` : "";
  const ps = params.map(([n, t]) => `${n}: ${show(t)}`).join(", ");
  return {
    name,
    typeParams,
    params: params.map(([n, t]) => ({ name: n, type: t })),
    result,
    signature: `fn ${name}${tp}(${ps}) -> ${show(result)}`,
    doc,
  };
}

const P = (owner: string) => param(`prelude::${owner}`, 0, "T");

/**
 * The prelude functions. `len` is the one overloaded item: it accepts a
 * `List[T]` or a `String` (its length in characters); as a value it is
 * `fn(List[T]) -> Int`.
 */
export const PRELUDE_FUNCTIONS: ReadonlyMap<string, PreludeFunction> = new Map(
  [
    fn("print", [], [["text", STRING]], UNIT, "Writes the text and a newline to standard output."),
    fn(
      "to_string",
      ["T"],
      [["value", P("to_string")]],
      STRING,
      "The value as text, as code writes it.",
    ),
    fn(
      "len",
      ["T"],
      [["items", listOf(P("len"))]],
      INT,
      "The number of elements, or of characters of a string.",
    ),
    fn(
      "push",
      ["T"],
      [["items", listOf(P("push"))], ["item", P("push")]],
      listOf(P("push")),
      "A new list: the items, then the item.",
    ),
    fn(
      "head",
      ["T"],
      [["items", listOf(P("head"))]],
      optionOf(P("head")),
      "The first element, or None.",
    ),
    fn(
      "tail",
      ["T"],
      [["items", listOf(P("tail"))]],
      listOf(P("tail")),
      "All but the first element; [] for [].",
    ),
    fn(
      "last",
      ["T"],
      [["items", listOf(P("last"))]],
      optionOf(P("last")),
      "The last element, or None.",
    ),
    fn(
      "get",
      ["T"],
      [["items", listOf(P("get"))], ["index", INT]],
      optionOf(P("get")),
      "The element at the index (from 0), or None.",
    ),
    fn(
      "slice",
      ["T"],
      [["items", listOf(P("slice"))], ["start", INT], ["end", INT]],
      listOf(P("slice")),
      "The elements [start, end), bounds clamped to the list.",
    ),
    fn(
      "concat",
      ["T"],
      [["first", listOf(P("concat"))], ["second", listOf(P("concat"))]],
      listOf(P("concat")),
      "The elements of both lists, in order.",
    ),
    fn(
      "reverse",
      ["T"],
      [["items", listOf(P("reverse"))]],
      listOf(P("reverse")),
      "The elements in reverse order.",
    ),
    fn(
      "range",
      [],
      [["start", INT], ["end", INT]],
      listOf(INT),
      "The integers [start, end), ascending.",
    ),
    fn(
      "join",
      [],
      [["parts", listOf(STRING)], ["separator", STRING]],
      STRING,
      "The parts with the separator between them.",
    ),
    fn(
      "split",
      [],
      [["text", STRING], ["separator", STRING]],
      listOf(STRING),
      'The pieces between separators; the characters for "".',
    ),
    fn(
      "substring",
      [],
      [["text", STRING], ["start", INT], ["end", INT]],
      STRING,
      "The characters [start, end), bounds clamped to the text.",
    ),
    fn(
      "chars",
      [],
      [["text", STRING]],
      listOf(STRING),
      "The characters, one string each.",
    ),
    fn(
      "trim",
      [],
      [["text", STRING]],
      STRING,
      "The text without whitespace at either end.",
    ),
    fn(
      "contains",
      [],
      [["text", STRING], ["part", STRING]],
      BOOL,
      "Whether the part occurs in the text.",
    ),
    fn(
      "starts_with",
      [],
      [["text", STRING], ["prefix", STRING]],
      BOOL,
      "Whether the text begins with the prefix.",
    ),
    fn(
      "ends_with",
      [],
      [["text", STRING], ["suffix", STRING]],
      BOOL,
      "Whether the text ends with the suffix.",
    ),
    fn(
      "index_of",
      [],
      [["text", STRING], ["part", STRING]],
      optionOf(INT),
      "The character index of the first occurrence, or None.",
    ),
    fn(
      "replace",
      [],
      [["text", STRING], ["old", STRING], ["new", STRING]],
      STRING,
      "Every occurrence of old replaced by new.",
    ),
    fn(
      "parse_int",
      [],
      [["text", STRING]],
      optionOf(INT),
      "The integer the whole text spells, or None.",
    ),
    fn("abs", [], [["value", INT]], INT, "The absolute value."),
    fn("min", [], [["a", INT], ["b", INT]], INT, "The smaller."),
    fn("max", [], [["a", INT], ["b", INT]], INT, "The larger."),
    fn("int_to_float", [], [["value", INT]], FLOAT, "The integer as a float."),
    fn("float_to_int", [], [["value", FLOAT]], INT, "The float truncated toward zero."),
    fn(
      "panic",
      ["T"],
      [["message", STRING]],
      P("panic"),
      "Stops the program with the message; has every type.",
    ),
    fn(
      "assert",
      [],
      [["condition", BOOL], ["message", STRING]],
      UNIT,
      "Fails the program or test with the message unless the condition holds.",
    ),
    fn(
      "assert_eq",
      ["T"],
      [["actual", P("assert_eq")], ["expected", P("assert_eq")]],
      UNIT,
      "Fails the program or test, showing both values, unless they are equal.",
    ),
  ].map((f) => [f.name, f]),
);

export { BOOL };
