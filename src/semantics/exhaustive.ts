/**
 * Match exhaustiveness and reachability: Maranget's usefulness algorithm
 * ("Warnings for pattern matching", 2007) over a small pattern language.
 * Lists are the constructors `[]` and `::` (head, tail), so list patterns
 * with a rest nest like any other; literals of infinite types are
 * constructors no finite set completes.
 *
 * @module
 */
import type { Type } from "./types.ts";

/** A constructor of a type: an enum variant, `true`, `()`, `[]`, `::`. */
export interface Ctor {
  /** Unique within the type. */
  readonly name: string;
  /** How a programmer writes it in a pattern (`Shape.Circle`, `Some`, `true`). */
  readonly display: string;
  readonly argTypes: readonly Type[];
}

export type Pat =
  | { readonly kind: "wild" }
  | { readonly kind: "ctor"; readonly ctor: Ctor; readonly args: readonly Pat[] }
  | { readonly kind: "lit"; readonly value: string };

export const WILD: Pat = { kind: "wild" };

/** The constructors of a type, or null when no finite set covers it (Int, String, records). */
export type CtorsOf = (type: Type) => readonly Ctor[] | null;

/**
 * Steps left for the current match. Usefulness is exponential in the worst
 * case (wide nested constructors); past the budget a match is taken as
 * exhaustive and reachable, so a pathological match costs bounded time and
 * never gives a false diagnostic.
 */
export const budget = { steps: 0 };

/** Steps one match may take (each step is one specialization). */
export const MATCH_BUDGET = 20_000;

export const NIL_NAME = "[]";
export const CONS_NAME = "::";

function wilds(n: number): Pat[] {
  return Array.from({ length: n }, () => WILD);
}

function specialize(rows: readonly (readonly Pat[])[], ctor: Ctor): Pat[][] {
  const out: Pat[][] = [];
  for (const row of rows) {
    const head = row[0];
    if (head.kind === "wild") out.push([...wilds(ctor.argTypes.length), ...row.slice(1)]);
    else if (head.kind === "ctor" && head.ctor.name === ctor.name) {
      out.push([...head.args, ...row.slice(1)]);
    }
  }
  return out;
}

function specializeLit(rows: readonly (readonly Pat[])[], value: string): Pat[][] {
  const out: Pat[][] = [];
  for (const row of rows) {
    const head = row[0];
    if (head.kind === "wild" || (head.kind === "lit" && head.value === value)) {
      out.push(row.slice(1));
    }
  }
  return out;
}

function defaultRows(rows: readonly (readonly Pat[])[]): Pat[][] {
  const out: Pat[][] = [];
  for (const row of rows) if (row[0].kind === "wild") out.push(row.slice(1));
  return out;
}

function headNames(rows: readonly (readonly Pat[])[]): Set<string> {
  const names = new Set<string>();
  for (const row of rows) {
    const head = row[0];
    if (head.kind === "ctor") names.add(head.ctor.name);
  }
  return names;
}

/** True when some value matches `q` and no row of `rows`. */
export function isUseful(
  rows: readonly (readonly Pat[])[],
  q: readonly Pat[],
  types: readonly Type[],
  ctorsOf: CtorsOf,
): boolean {
  if (--budget.steps < 0) return false; // out of budget: assume covered, report nothing
  if (q.length === 0) return rows.length === 0;
  const head = q[0];
  const rest = q.slice(1);
  const restTypes = types.slice(1);
  if (head.kind === "ctor") {
    return isUseful(
      specialize(rows, head.ctor),
      [...head.args, ...rest],
      [...head.ctor.argTypes, ...restTypes],
      ctorsOf,
    );
  }
  if (head.kind === "lit") {
    return isUseful(specializeLit(rows, head.value), rest, restTypes, ctorsOf);
  }
  const ctors = ctorsOf(types[0]);
  const seen = headNames(rows);
  if (ctors !== null && ctors.every((c) => seen.has(c.name))) {
    return ctors.some((c) =>
      isUseful(
        specialize(rows, c),
        [...wilds(c.argTypes.length), ...rest],
        [...c.argTypes, ...restTypes],
        ctorsOf,
      )
    );
  }
  return isUseful(defaultRows(rows), rest, restTypes, ctorsOf);
}

/** Missing patterns, and whether they are all of them. */
export interface Missing {
  /** Disjoint value vectors no row matches, in constructor declaration order. */
  readonly patterns: Pat[][];
  /**
   * True when `patterns` covers every value no row matches; false when the
   * search stopped at `limit` patterns or ran out of budget.
   */
  readonly complete: boolean;
}

/**
 * The value vectors no row matches, as disjoint patterns (at most `limit`),
 * together covering every such value when `complete`: empty when the rows
 * are exhaustive. Unlike the one witness usefulness needs, a column whose
 * constructors are not all present is searched under the present ones too,
 * so `[Some(true)]` and `[]` leave `[Some(true), _, .._]`,
 * `[Some(false), .._]` and `[None, .._]` — all three, in one answer.
 */
export function missingPatterns(
  rows: readonly (readonly Pat[])[],
  types: readonly Type[],
  ctorsOf: CtorsOf,
  limit: number,
): Missing {
  const search = { left: limit, complete: true };
  const patterns = missingFrom(rows, types, ctorsOf, search);
  return { patterns, complete: search.complete && budget.steps >= 0 };
}

function missingFrom(
  rows: readonly (readonly Pat[])[],
  types: readonly Type[],
  ctorsOf: CtorsOf,
  search: { left: number; complete: boolean },
): Pat[][] {
  if (--budget.steps < 0) return [];
  if (types.length === 0) {
    if (rows.length > 0) return [];
    if (search.left <= 0) {
      search.complete = false;
      return [];
    }
    search.left--;
    return [[]];
  }
  const restTypes = types.slice(1);
  const ctors = ctorsOf(types[0]);
  const seen = headNames(rows);
  const out: Pat[][] = [];
  if (ctors === null || seen.size === 0) {
    // Nothing to split on: any value the other columns leave is missing.
    for (const w of missingFrom(defaultRows(rows), restTypes, ctorsOf, search)) {
      out.push([WILD, ...w]);
    }
    return out;
  }
  // The values a row with `_` here leaves: computed once, for every absent constructor.
  let absent: Pat[][] | null = null;
  for (const c of ctors) {
    const n = c.argTypes.length;
    if (seen.has(c.name)) {
      const ws = missingFrom(specialize(rows, c), [...c.argTypes, ...restTypes], ctorsOf, search);
      for (const w of ws) out.push([{ kind: "ctor", ctor: c, args: w.slice(0, n) }, ...w.slice(n)]);
    } else {
      if (absent === null) {
        const own = { left: Math.max(search.left, 1), complete: true };
        absent = missingFrom(defaultRows(rows), restTypes, ctorsOf, own);
        if (!own.complete) search.complete = false;
      }
      for (const w of absent) {
        if (search.left <= 0) {
          search.complete = false;
          return out;
        }
        search.left--;
        out.push([{ kind: "ctor", ctor: c, args: wilds(n) }, ...w]);
      }
    }
  }
  return out;
}

/** A pattern as Nazm source. */
export function showPat(p: Pat): string {
  if (p.kind === "wild") return "_";
  if (p.kind === "lit") return p.value;
  if (p.ctor.name === NIL_NAME || p.ctor.name === CONS_NAME) {
    const elements: string[] = [];
    let current: Pat = p;
    while (current.kind === "ctor" && current.ctor.name === CONS_NAME) {
      elements.push(showPat(current.args[0]));
      current = current.args[1];
    }
    if (current.kind !== "ctor" || current.ctor.name !== NIL_NAME) elements.push(".._");
    return `[${elements.join(", ")}]`;
  }
  return p.args.length === 0
    ? p.ctor.display
    : `${p.ctor.display}(${p.args.map(showPat).join(", ")})`;
}
