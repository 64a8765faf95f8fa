/**
 * The text of generated JavaScript: names for definitions and tests, JSON
 * in ASCII, literals, indentation, lines with their markers back to Nazm
 * places, and the module-level BigInt constants.
 *
 * @module
 */
import type { BinaryExpr, Expr } from "../syntax/mod.ts";
import type { EnumView } from "./checked.ts";
/**
 * The BigInt twins of Int literals that are operands of arithmetic, one
 * module-level constant each: an operation that leaves the fast path then
 * converts nothing for its literal operand (`checksum % 1000000007`).
 */
export class BigConstants {
  readonly #names = new Map<bigint, string>();

  /** The constant's name. */
  of(value: bigint): string {
    let name = this.#names.get(value);
    if (name === undefined) {
      name = `$K${this.#names.size}`;
      this.#names.set(value, name);
    }
    return name;
  }

  /** Their declarations. */
  declarations(): string[] {
    return [...this.#names].map(([value, name]) => `const ${name} = ${value}n;`);
  }
}

/**
 * Where a marker points: a file, a byte offset, the function it is in. A
 * marker is placed in an expression's text right before a callee (or an
 * operator) as `\u0001id\u0002`; when the expression's line is emitted the
 * marker is taken out and its column kept beside the line. JSON strings
 * escape U+0001, so the text of a program never holds one.
 */
export class Markers {
  readonly places: number[] = [];

  /** A marker's text. */
  add(file: number, offset: number, fn: number): string {
    const id = this.places.length / 3;
    this.places.push(file, offset, fn);
    return `\u0001${id}\u0002`;
  }
}

/** A line's markers: column (0-based, UTF-16 units) and marker id, in pairs. */
export type LineMarks = number[] | undefined;

/** A line without its markers, and where they were. */
export function takeMarkers(text: string): [string, LineMarks] {
  let open = text.indexOf("\u0001");
  if (open < 0) return [text, undefined];
  const marks: number[] = [];
  let clean = "";
  let at = 0;
  while (open >= 0) {
    const close = text.indexOf("\u0002", open);
    clean += text.slice(at, open);
    marks.push(clean.length, Number(text.slice(open + 1, close)));
    at = close + 1;
    open = text.indexOf("\u0001", at);
  }
  return [clean + text.slice(at), marks];
}

/** Moves a line's markers right by `by` columns, in place (each line owns its list). */
export function shiftMarks(marks: LineMarks, by: number): LineMarks {
  if (marks !== undefined && by !== 0) { for (let i = 0; i < marks.length; i += 2) marks[i] += by; }
  return marks;
}

/** Lines of code and, beside each, its markers. */
export interface CodeLines {
  readonly lines: string[];
  readonly marks: LineMarks[];
}

const jsNames = new Map<string, string>();

/** The JavaScript name of a definition's key: `geometry.shapes::area` is `geometry$shapes$$area`. */
export function jsName(key: string): string {
  let name = jsNames.get(key);
  if (name === undefined) {
    const at = key.indexOf("::");
    name = `${key.slice(0, at).split(".").join("$")}$$${key.slice(at + 2)}`;
    if (jsNames.size > 100_000) jsNames.clear(); // a cache, not a leak
    jsNames.set(key, name);
  }
  return name;
}

/**
 * A JSON value as ASCII JavaScript: characters past U+007E escaped. A
 * module that is all ASCII stays a one-byte string in V8, half the memory
 * and faster to join and encode than a two-byte one.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const INDENTS = Array.from({ length: 64 }, (_, i) => "  ".repeat(i));

export function indent(depth: number): string {
  return depth < INDENTS.length ? INDENTS[depth] : "  ".repeat(depth);
}

/** A test's JavaScript name: `m::t` is `m$$$t` (a definition's name never starts with `$`). */
export function testJsName(key: string): string {
  const at = key.indexOf("::");
  return `${key.slice(0, at).split(".").join("$")}$$$${key.slice(at + 2)}`;
}

/**
 * Which Int literals are written as JavaScript numbers: the runtime's own
 * representation (`safe`: |v| ≤ 2^53 − 1, the rest BigInt), or one of the
 * alternatives bench/ measures it against (`int32`, `bigint`: always BigInt).
 */
export type IntLiterals = "safe" | "int32" | "bigint";

export const NUMBER_LIMIT: Record<IntLiterals, bigint> = {
  safe: 9007199254740991n,
  int32: 2147483647n,
  bigint: -1n,
};

export function floatLiteral(value: number): string {
  return Object.is(value, -0) ? "-0" : String(value);
}

export const SIMPLE_NAME = /^[A-Za-z_$][\w$]*$/;

export const INT_OPS: Partial<Record<BinaryExpr["op"], string>> = {
  "+": "$add",
  "-": "$sub",
  "*": "$mul",
  "/": "$div",
  "%": "$rem",
};

export function stripParens(e: Expr): Expr {
  while (e.kind === "ParenExpr") e = e.inner;
  return e;
}

/** The JavaScript value of an enum variant named without arguments. */
export function variantValue(en: EnumView, index: number): string {
  const name = en.variants[index].name;
  return en.prelude ? `$${name}` : `${jsName(en.key)}$${name}`;
}

/** A lowered expression: its code and whether it may be evaluated later. */
export interface JsExpr {
  readonly code: string;
  /** Evaluating it has no effect and cannot fail, so it may be evaluated later. */
  readonly pure: boolean;
}

export type Target =
  | { readonly kind: "return" }
  | { readonly kind: "assign"; readonly name: string }
  | { readonly kind: "discard" };

export const RETURN: Target = { kind: "return" };
export const DISCARD: Target = { kind: "discard" };
export const UNIT: JsExpr = { code: "undefined", pure: true };
