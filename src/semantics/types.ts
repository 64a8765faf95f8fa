/**
 * Types and unification. A type is immutable plain data; inference
 * variables live in a per-function union-find ({@link Subst}) so that
 * unifying is near-constant time and nothing is mutated in place.
 *
 * @module
 */

/** A named type: a prelude type (`Int`, `List`) or a record/enum by key. */
export interface TCon {
  readonly t: "con";
  /** `Int`, `List`, `Option`… for the prelude; `module::Name` for a user type. */
  readonly name: string;
  /** The name as a programmer writes it (`Point`), for messages. */
  readonly display: string;
  readonly args: readonly Type[];
}

/** `fn(A, B) -> R`. */
export interface TFn {
  readonly t: "fn";
  readonly params: readonly Type[];
  readonly result: Type;
}

/** An inference variable, an index into {@link Subst}. */
export interface TVar {
  readonly t: "var";
  readonly id: number;
}

/** A generic parameter of a definition, rigid inside it, instantiated at each use. */
export interface TParam {
  readonly t: "param";
  /** The key of the definition that declares it. */
  readonly owner: string;
  readonly index: number;
  readonly name: string;
}

/** The type of something already diagnosed: unifies with anything, silently. */
export interface TError {
  readonly t: "error";
}

export type Type = TCon | TFn | TVar | TParam | TError;

export const ERROR: TError = { t: "error" };

function prim(name: string): TCon {
  return { t: "con", name, display: name, args: [] };
}

export const INT = prim("Int");
export const FLOAT = prim("Float");
export const BOOL = prim("Bool");
export const STRING = prim("String");
export const UNIT = prim("Unit");

export function listOf(element: Type): TCon {
  return { t: "con", name: "List", display: "List", args: [element] };
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
}

export function newSubst(): Subst {
  return { parent: [], binding: [] };
}

export function freshVar(s: Subst): TVar {
  const id = s.parent.length;
  s.parent.push(id);
  s.binding.push(null);
  return { t: "var", id };
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
  while (current.t === "var") {
    const root = find(s, current.id);
    const bound = s.binding[root];
    if (bound === null) return root === current.id ? current : { t: "var", id: root };
    current = bound;
  }
  return current;
}

function occurs(s: Subst, root: number, type: Type): boolean {
  const t = shallow(s, type);
  switch (t.t) {
    case "var":
      return find(s, t.id) === root;
    case "con":
      return t.args.some((a) => occurs(s, root, a));
    case "fn":
      return t.params.some((p) => occurs(s, root, p)) || occurs(s, root, t.result);
    default:
      return false;
  }
}

/** Unifies two types; false when they cannot be made equal (a mismatch). */
export function unify(s: Subst, a: Type, b: Type): boolean {
  const x = shallow(s, a);
  const y = shallow(s, b);
  if (x === y) return true;
  if (x.t === "error" || y.t === "error") return true;
  if (x.t === "var" && y.t === "var") {
    const rx = find(s, x.id);
    const ry = find(s, y.id);
    if (rx !== ry) s.parent[rx] = ry;
    return true;
  }
  if (x.t === "var") return bind(s, x.id, y);
  if (y.t === "var") return bind(s, y.id, x);
  if (x.t === "con" && y.t === "con") {
    if (x.name !== y.name || x.args.length !== y.args.length) return false;
    let ok = true;
    for (let i = 0; i < x.args.length; i++) ok = unify(s, x.args[i], y.args[i]) && ok;
    return ok;
  }
  if (x.t === "fn" && y.t === "fn") {
    if (x.params.length !== y.params.length) return false;
    let ok = true;
    for (let i = 0; i < x.params.length; i++) ok = unify(s, x.params[i], y.params[i]) && ok;
    return unify(s, x.result, y.result) && ok;
  }
  if (x.t === "param" && y.t === "param") return x.owner === y.owner && x.index === y.index;
  return false;
}

function bind(s: Subst, id: number, type: Type): boolean {
  const root = find(s, id);
  if (occurs(s, root, type)) return false;
  s.binding[root] = type;
  return true;
}

/** The type with every bound variable replaced, deeply. */
export function zonk(s: Subst, type: Type): Type {
  const t = shallow(s, type);
  switch (t.t) {
    case "con":
      return t.args.length === 0 ? t : { ...t, args: t.args.map((a) => zonk(s, a)) };
    case "fn":
      return { t: "fn", params: t.params.map((p) => zonk(s, p)), result: zonk(s, t.result) };
    default:
      return t;
  }
}

/** True when an unbound variable remains anywhere in the type. */
export function hasFreeVars(s: Subst, type: Type): boolean {
  const t = shallow(s, type);
  switch (t.t) {
    case "var":
      return true;
    case "con":
      return t.args.some((a) => hasFreeVars(s, a));
    case "fn":
      return t.params.some((p) => hasFreeVars(s, p)) || hasFreeVars(s, t.result);
    default:
      return false;
  }
}

/** Replaces a definition's type parameters by the given types. */
export function instantiate(type: Type, owner: string, args: readonly Type[]): Type {
  if (args.length === 0) return type;
  switch (type.t) {
    case "param":
      return type.owner === owner ? args[type.index] ?? ERROR : type;
    case "con":
      return type.args.length === 0
        ? type
        : { ...type, args: type.args.map((a) => instantiate(a, owner, args)) };
    case "fn":
      return {
        t: "fn",
        params: type.params.map((p) => instantiate(p, owner, args)),
        result: instantiate(type.result, owner, args),
      };
    default:
      return type;
  }
}

/** The type as a programmer writes it; an unknown part shows as `_`. */
export function showType(s: Subst | null, type: Type): string {
  const t = s === null ? type : shallow(s, type);
  switch (t.t) {
    case "con":
      return t.args.length === 0
        ? t.display
        : `${t.display}[${t.args.map((a) => showType(s, a)).join(", ")}]`;
    case "fn":
      return `fn(${t.params.map((p) => showType(s, p)).join(", ")}) -> ${showType(s, t.result)}`;
    case "param":
      return t.name;
    case "var":
    case "error":
      return "_";
  }
}
