/**
 * Types and unification. A type is immutable plain data; inference
 * variables live in a per-function union-find ({@link Subst}) so that
 * unifying is near-constant time and nothing is mutated in place.
 *
 * Types share structure: `let x2 = P { a: x1, b: x1 }` holds x1's type
 * twice by reference, so twenty-six such lines make a type of 2^26 nodes
 * written out but of 27 distinct objects. Every walk here therefore visits
 * each distinct object once (a set, or a map from a pair), keeps the
 * sharing when it builds a new type (zonk), remembers which unbound
 * variables an object reaches (so an occurs check does not walk it again
 * while they stay unbound), uses an
 * explicit stack instead of recursion (a type may be thousands of levels
 * deep), and renders text within a length bound, eliding the rest with `…`.
 * No step is exponential in the size of the program
 * (tests/security/type_bomb_test.ts).
 *
 * @module
 */

/** A named type: a prelude type (`Int`, `List`) or a record/enum by key. */
export interface TCon {
  readonly kind: "con";
  /** `Int`, `List`, `Option`… for the prelude; `module::Name` for a user type. */
  readonly name: string;
  /** The name as a programmer writes it (`Point`), for messages. */
  readonly display: string;
  readonly args: readonly Type[];
}

/** `fn(A, B) -> R`. */
export interface TFn {
  readonly kind: "fn";
  readonly params: readonly Type[];
  readonly result: Type;
}

/** An inference variable, an index into {@link Subst}. */
export interface TVar {
  readonly kind: "var";
  readonly id: number;
}

/** A generic parameter of a definition, rigid inside it, instantiated at each use. */
export interface TParam {
  readonly kind: "param";
  /** The key of the definition that declares it. */
  readonly owner: string;
  readonly index: number;
  readonly name: string;
}

/** The type of something already diagnosed: unifies with anything, silently. */
export interface TError {
  readonly kind: "error";
}

export type Type = TCon | TFn | TVar | TParam | TError;

export const ERROR: TError = { kind: "error" };

function prim(name: string): TCon {
  return { kind: "con", name, display: name, args: [] };
}

export const INT = prim("Int");
export const FLOAT = prim("Float");
export const BOOL = prim("Bool");
export const STRING = prim("String");
export const UNIT = prim("Unit");

export function listOf(element: Type): TCon {
  return { kind: "con", name: "List", display: "List", args: [element] };
}

/**
 * The substitution of one function body: a union-find over variables,
 * `binding[root]` holding the type a class was unified with (or null).
 * Variables never escape a function (every signature is annotated), so a
 * fresh one per body keeps it small.
 */
export interface Subst {
  parent: number[];
  binding: (Type | null)[];
  /**
   * For a type object, the roots of the unbound variables it reaches through
   * the bindings, as last computed. Still true while each of those roots is
   * an unbound root (what a type reaches changes only when one of them is
   * bound or joined), so an occurs check does not walk the type again; an
   * empty set (a ground type) stays true for ever.
   */
  reaches: WeakMap<Type, ReadonlySet<number>>;
}

export function newSubst(): Subst {
  return { parent: [], binding: [], reaches: new WeakMap() };
}

export function freshVar(s: Subst): TVar {
  const id = s.parent.length;
  s.parent.push(id);
  s.binding.push(null);
  return { kind: "var", id };
}

function find(s: Subst, id: number): number {
  let root = id;
  while (s.parent[root] !== root) root = s.parent[root];
  // Path compression keeps later finds near-constant.
  while (s.parent[id] !== root) {
    const next = s.parent[id];
    s.parent[id] = root;
    id = next;
  }
  return root;
}

/** Follows variable bindings until a non-variable or an unbound variable. */
export function shallow(s: Subst, type: Type): Type {
  let current = type;
  while (current.kind === "var") {
    const root = find(s, current.id);
    const bound = s.binding[root];
    if (bound === null) return root === current.id ? current : { kind: "var", id: root };
    current = bound;
  }
  return current;
}

/** Whether a type has parts: `parts(t).length > 0`, without making the list. */
function hasParts(t: Type): boolean {
  return t.kind === "con" ? t.args.length > 0 : t.kind === "fn";
}

/** The direct parts of a type (none for a variable, parameter or error). */
function parts(t: Type): readonly Type[] {
  return t.kind === "con" ? t.args : t.kind === "fn" ? [...t.params, t.result] : [];
}

/**
 * The roots of the unbound variables reachable from `type` through the
 * bindings. Each distinct object is walked once, without recursion, and
 * what is still valid from an earlier walk (`s.reaches`) is not walked again.
 */
function unboundRoots(s: Subst, type: Type): ReadonlySet<number> {
  const first = shallow(s, type);
  // Without a walk: a variable, a type without parts, one walked before.
  if (first.kind === "var") return new Set([find(s, first.id)]);
  if (!hasParts(first)) return EMPTY;
  const already = known(s, first);
  if (already !== undefined) return already;
  const computed = new Map<Type, ReadonlySet<number>>();
  // An unbound variable's set is its root; `shallow` may give a new object
  // for it each time, so it is never looked up by object.
  const result = (t: Type) =>
    t.kind === "var" ? new Set([find(s, t.id)]) : computed.get(t) ?? known(s, t);
  // Post-order, so that an object's set is made from its parts' sets.
  const stack: { type: Type; expanded: boolean }[] = [{ type: first, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const t = top.type;
    if (!top.expanded && result(t) !== undefined) {
      stack.pop();
      continue;
    }
    const ps = parts(t).map((p) => shallow(s, p));
    if (!top.expanded) {
      top.expanded = true;
      for (let i = ps.length - 1; i >= 0; i--) {
        if (result(ps[i]) === undefined) stack.push({ type: ps[i], expanded: false });
      }
      continue;
    }
    stack.pop();
    let roots: ReadonlySet<number> = EMPTY;
    for (const p of ps) {
      const sub = result(p)!;
      if (sub.size === 0 || sub === roots) continue;
      roots = roots.size === 0 ? sub : new Set([...roots, ...sub]);
    }
    computed.set(t, roots);
    s.reaches.set(t, roots);
  }
  return result(first)!;
}

/** What `s.reaches` holds for a type, if it is still true. */
function known(s: Subst, t: Type): ReadonlySet<number> | undefined {
  const roots = s.reaches.get(t);
  if (roots === undefined) return undefined;
  for (const r of roots) if (s.parent[r] !== r || s.binding[r] !== null) return undefined;
  return roots;
}

const EMPTY: ReadonlySet<number> = new Set();

function occurs(s: Subst, root: number, type: Type): boolean {
  return unboundRoots(s, type).has(root);
}

/**
 * Unifies two types; false when they cannot be made equal (a mismatch).
 * Each pair of compound objects whose parts have parts is unified once per
 * call, without recursion: two types that share structure cost their
 * distinct parts, not their size written out (a pair of the level below is
 * unified once per pair above it that reaches it, a constant factor), and
 * no depth overflows the stack. Every pair is unified even after one fails,
 * in the order a left-to-right walk meets them.
 */
export function unify(s: Subst, a: Type, b: Type): boolean {
  // Most calls unify a type with itself, a variable or a primitive: the
  // bookkeeping for shared structure is made only when a pair has parts
  // (measured: a third of the first analysis' allocation was here).
  let done: Map<Type, Set<Type>> | null = null;
  // Pairs still to unify, flattened: [p0, q0, p1, q1, ...].
  let pending: Type[] | null = null;
  let ok = true;
  let p = a;
  let q = b;
  for (;;) {
    const x = shallow(s, p);
    const y = shallow(s, q);
    if (x === y || x.kind === "error" || y.kind === "error") {
      // Nothing to do.
    } else if (x.kind === "var" && y.kind === "var") {
      const rx = find(s, x.id);
      const ry = find(s, y.id);
      if (rx !== ry) s.parent[rx] = ry;
    } else if (x.kind === "var") {
      if (!bind(s, x.id, y)) ok = false;
    } else if (y.kind === "var") {
      if (!bind(s, y.id, x)) ok = false;
    } else if (x.kind === "param" && y.kind === "param") {
      if (x.owner !== y.owner || x.index !== y.index) ok = false;
    } else if (
      !((x.kind === "con" && y.kind === "con" && x.name === y.name &&
        x.args.length === y.args.length) ||
        (x.kind === "fn" && y.kind === "fn" && x.params.length === y.params.length))
    ) {
      ok = false;
    } else if (hasParts(x)) {
      const xs = parts(x);
      // A pair met again through shared structure is skipped; one whose
      // parts (through the bindings) have no parts costs as little to unify
      // again as to look up.
      let again = false;
      if (xs.some((t) => hasParts(shallow(s, t)))) {
        done ??= new Map();
        let seen = done.get(x);
        if (seen === undefined) done.set(x, seen = new Set());
        again = seen.has(y);
        seen.add(y);
      }
      if (!again) {
        const ys = parts(y);
        // Pushed last to first, so that they are unified first to last.
        pending ??= [];
        for (let i = xs.length - 1; i >= 0; i--) pending.push(xs[i], ys[i]);
      }
    }
    if (pending === null || pending.length === 0) return ok;
    q = pending.pop()!;
    p = pending.pop()!;
  }
}

function bind(s: Subst, id: number, type: Type): boolean {
  const root = find(s, id);
  if (occurs(s, root, type)) return false;
  s.binding[root] = type;
  return true;
}

/**
 * The type with every bound variable replaced, deeply, without recursion.
 * What is shared in the input stays shared in the output: each distinct
 * object is rebuilt once.
 */
export function zonk(s: Subst, type: Type): Type {
  return zonker(s)(type);
}

/**
 * {@link zonk} for many types under one substitution that no longer
 * changes (a body's, once it is checked): what one call rebuilt, the next
 * reuses, so zonking every `let` of a body costs the size of their shared
 * types once, not once per `let` (a body whose `let`s each double the last
 * type would otherwise cost the square of its length).
 */
export function zonker(s: Subst): (type: Type) => Type {
  // Made at the first call: a body whose types are never zonked pays nothing.
  let done: Map<Type, Type> | null = null;
  return (type) => zonkWith(s, done ??= new Map(), type);
}

function zonkWith(s: Subst, done: Map<Type, Type>, type: Type): Type {
  const rebuilt = (t: Type): Type => done.get(t) ?? t;
  const stack: { type: Type; expanded: boolean }[] = [{ type: shallow(s, type), expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const t = top.type;
    if (done.has(t) || (t.kind !== "con" && t.kind !== "fn") || parts(t).length === 0) {
      stack.pop();
      continue;
    }
    if (!top.expanded) {
      top.expanded = true;
      const ps = parts(t);
      for (let i = ps.length - 1; i >= 0; i--) {
        const p = shallow(s, ps[i]);
        if (!done.has(p)) stack.push({ type: p, expanded: false });
      }
      continue;
    }
    stack.pop();
    const part = (p: Type) => rebuilt(shallow(s, p));
    done.set(
      t,
      t.kind === "con"
        ? { ...t, args: t.args.map(part) }
        : { kind: "fn", params: (t as TFn).params.map(part), result: part((t as TFn).result) },
    );
  }
  return rebuilt(shallow(s, type));
}

/** True when an unbound variable remains anywhere in the type. */
export function hasFreeVars(s: Subst, type: Type): boolean {
  return unboundRoots(s, type).size > 0;
}

/** Replaces a definition's type parameters by the given types. */
export function instantiate(type: Type, owner: string, args: readonly Type[]): Type {
  if (args.length === 0) return type;
  switch (type.kind) {
    case "param":
      return type.owner === owner ? args[type.index] ?? ERROR : type;
    case "con":
      return type.args.length === 0
        ? type
        : { ...type, args: type.args.map((a) => instantiate(a, owner, args)) };
    case "fn":
      return {
        kind: "fn",
        params: type.params.map((p) => instantiate(p, owner, args)),
        result: instantiate(type.result, owner, args),
      };
    default:
      return type;
  }
}

/**
 * The longest type text a message shows before it elides the rest with `…`
 * (a type can be exponentially long written out; see the module comment).
 */
export const MAX_TYPE_TEXT = 200;

/**
 * The type as a programmer writes it; an unknown part shows as `_`. Past
 * {@link MAX_TYPE_TEXT} characters the remaining arguments are elided as
 * `…` (brackets still close), so the text stays short whatever the type.
 */
export function showType(s: Subst | null, type: Type): string {
  const out: string[] = [];
  let left = MAX_TYPE_TEXT;
  const emit = (text: string) => {
    out.push(text);
    left -= text.length;
  };
  const render = (type: Type): void => {
    if (left <= 0) {
      emit("…");
      return;
    }
    const t = s === null ? type : shallow(s, type);
    switch (t.kind) {
      case "con":
        emit(t.display);
        if (t.args.length > 0) {
          emit("[");
          list(t.args);
          emit("]");
        }
        return;
      case "fn":
        emit("fn(");
        list(t.params);
        emit(") -> ");
        render(t.result);
        return;
      case "param":
        emit(t.name);
        return;
      case "var":
      case "error":
        emit("_");
        return;
    }
  };
  const list = (types: readonly Type[]): void => {
    for (let i = 0; i < types.length; i++) {
      if (i > 0) emit(", ");
      if (left <= 0) {
        emit("…");
        return;
      }
      render(types[i]);
    }
  };
  render(type);
  return out.join("");
}
