/**
 * The checker's state: the side tables it fills (links.ts), the context of
 * the definition being checked (its substitution, locals and scopes), the
 * prelude enums, and the helpers every part of the checker shares.
 *
 * @module
 */
import { type Diagnostic, DIAGNOSTICS as D, type Fix, type Span } from "../base/mod.ts";
import type {
  BinaryExpr,
  BoolLit,
  FloatLit,
  IntLit,
  NameDecl,
  StringLit,
  UnaryExpr,
  UnitLit,
} from "../syntax/mod.ts";
import {
  type DefInfo,
  type ImportInfo,
  type ImportName,
  type ModuleInfo,
  newDefInfo,
  type ScopeEntry,
} from "./binder.ts";
import type {
  BindingInfo,
  BindingKind,
  BodyInfo,
  DefReferences,
  RefRole,
  Signature,
} from "./links.ts";
import { PRELUDE_ENUM_PARAMS, PRELUDE_ENUMS } from "./prelude.ts";
import type { Resolutions } from "./resolutions.ts";
import {
  BOOL,
  ERROR,
  FLOAT,
  INT,
  shallow,
  showType,
  STRING,
  type Subst,
  type TCon,
  type TParam,
  type Type,
  unify,
  UNIT,
  zonk,
} from "./types.ts";

export type Building<T> = { -readonly [K in keyof T]: T[K] };

// Shared by every definition without type parameters, fields or variants
// (most of them): a signature's indexes are replaced, never filled.
const NO_TYPE_PARAMS: ReadonlyMap<string, TParam> = new Map();
const NO_INDEX: ReadonlyMap<string, number> = new Map();

export function emptySignature(): Building<Signature> {
  return {
    typeParams: [],
    params: [],
    result: ERROR,
    fields: [],
    fieldIndex: NO_INDEX,
    variants: [],
    variantIndex: NO_INDEX,
  };
}

export function preludeEnum(name: string): [DefInfo, Signature] {
  const def = newDefInfo(name, name, "enum", null, null, true);
  const signature = emptySignature();
  signature.typeParams = PRELUDE_ENUM_PARAMS.get(name)!.map((n, index) => ({
    kind: "param",
    owner: name,
    index,
    name: n,
  }));
  signature.variants = PRELUDE_ENUMS.get(name)!.map((v) => ({
    name: v.name,
    payload: v.payload,
    decl: null,
  }));
  signature.variantIndex = new Map(signature.variants.map((v, i) => [v.name, i]));
  return [def, signature];
}

export const PRELUDE_ENUM_DEFS = new Map([preludeEnum("Option"), preludeEnum("Result")]);

export const [OPTION_DEF, RESULT_DEF] = PRELUDE_ENUM_DEFS.keys();

export function preludeEnumDef(name: string): DefInfo | null {
  return name === "Option" ? OPTION_DEF : name === "Result" ? RESULT_DEF : null;
}

/** Why a type was expected: a place, in the current file unless `file` says otherwise. */
export type Reason = Span & { readonly file?: string };

export interface Local {
  readonly name: string;
  readonly decl: NameDecl;
  readonly binding: BindingInfo;
  readonly type: Type;
}

export interface Ctx {
  readonly def: DefInfo;
  readonly refs: DefReferences;
  readonly module: ModuleInfo;
  readonly file: string;
  readonly s: Subst;
  readonly typeParams: ReadonlyMap<string, TParam>;
  readonly returnType: Type;
  readonly returnReason: Span | null;
  readonly locals: Map<string, Local>;
  /** Undo log for scopes: the shadowed local (or undefined) per declaration. */
  readonly undo: [string, Local | undefined][];
  readonly body: BodyInfo;
  scope: number;
  readonly lets: { local: Local; decl: NameDecl }[];
  /** The names patterns bound, whose types are recorded once the body is checked (with resolutions only). */
  readonly patterns: Local[];
  /** Operators whose operand type is recorded once the body is checked (with resolutions only). */
  readonly operators: (BinaryExpr | UnaryExpr)[];
}

export interface Checker {
  /** The current module's list ({@link ModuleCheck}): set by {@link enterModule}. */
  diagnostics: Diagnostic[];
  /** What the module being checked read and found: set by {@link enterModule}. */
  current: ModuleCheck;
  /**
   * Every module of the compilation, in order, and one by name: a
   * definition's key is `module::name` (binder.ts), so a key is found
   * through its module rather than a program-wide table made again at every
   * edit. Functions, so that a focus binds a module only when it is asked
   * for (analysis.ts `ModuleTable`).
   */
  allModules(): readonly ModuleInfo[];
  moduleNamed(name: string): ModuleInfo | undefined;
  /** Exported definitions by name (the import fix of an unknown name): made when first asked. */
  exportedByName: Map<string, DefInfo[]> | null;
  readonly signatures: SideTable<Building<Signature>>;
  readonly references: SideTable<DefReferences>;
  readonly bodies: SideTable<BodyInfo>;
  readonly namedFromOutside: Set<DefInfo>;
  /** Imports (aliases and imported names) something refers to; the rest are unused (N0404). */
  readonly usedImports: Set<ImportInfo | ImportName>;
  readonly resolutions: Resolutions | null;
  /**
   * Checks a definition's signature now if it was left until needed (a
   * focus, checker.ts `CheckOptions.bodies`); null when all were checked
   * first.
   */
  readonly signatureWhenNeeded: ((def: DefInfo) => void) | null;
}

/**
 * A side table of the checker: the entries this check set, else those of
 * the definition's module as an earlier check left them, when the module
 * is reused (an incremental engine). Copying every reused entry into one
 * map, as before, built three program-wide maps at each edit, some 4 MB on
 * the 100,000-line program that outlived the edit and were then garbage:
 * most of what raised the language server's memory between collections.
 */
export class SideTable<V> {
  readonly #own = new Map<DefInfo, V>();
  readonly #earlier: (def: DefInfo) => V | undefined;

  constructor(earlier: (def: DefInfo) => V | undefined = () => undefined) {
    this.#earlier = earlier;
  }

  get(def: DefInfo): V | undefined {
    return this.#own.get(def) ?? this.#earlier(def);
  }

  set(def: DefInfo, value: V): void {
    this.#own.set(def, value);
  }
}

/** A read of the table of every module's exported names (the import fixes of N0201). */
export const EXPORTED_NAMES = "";

/**
 * What checking one module produced beyond its side-table entries, and what
 * it depended on: with the same module text and the same interfaces of the
 * modules it read, checking it again produces the same (the checker is a
 * pure function of those), which is what lets an incremental engine reuse it.
 */
export interface ModuleCheck {
  /** Its diagnostics, in the order the checker found them. */
  readonly diagnostics: Diagnostic[];
  /** Keys of private definitions of other modules it named through an alias (N0203). */
  readonly namedFromOutside: Set<string>;
  /**
   * The modules whose interface (names, kinds, `pub`, signatures) it read, its
   * own and its imports' included; {@link EXPORTED_NAMES} when it looked up
   * exported names for an import fix.
   */
  readonly reads: Set<string>;
  /** Unknown names that may still get suggested fixes: a budget per module, so modules stay independent. */
  suggestions: number;
}

export function newModuleCheck(): ModuleCheck {
  return { diagnostics: [], namedFromOutside: new Set(), reads: new Set(), suggestions: 1000 };
}

export function report(c: Checker, diagnostic: Diagnostic): void {
  c.diagnostics.push(diagnostic);
}

/** The signature of a definition of the compilation or of the prelude. */
export function sig(c: Checker, def: DefInfo): Signature {
  if (def.module !== null) c.current.reads.add(def.module.name);
  c.signatureWhenNeeded?.(def);
  return c.signatures.get(def) ?? PRELUDE_ENUM_DEFS.get(def)!;
}

/**
 * How many type parameters a definition has, declared before any signature
 * is checked: all a type written in a signature reads of the type it names.
 */
export function typeParamCount(c: Checker, def: DefInfo): number {
  if (def.module !== null) c.current.reads.add(def.module.name);
  return (c.signatures.get(def) ?? PRELUDE_ENUM_DEFS.get(def)!).typeParams.length;
}

/** The definition a type's key names (in any module): a read of that module's interface. */
export function defByKey(c: Checker, key: string): DefInfo | undefined {
  const def = defOfKey(c, key);
  if (def?.module) c.current.reads.add(def.module.name);
  return def;
}

/** The top-level definition (not a duplicate, not a test) whose key is `key`, if any. */
export function defOfKey(c: Checker, key: string): DefInfo | undefined {
  const at = key.lastIndexOf("::");
  if (at < 0) return undefined;
  const def = c.moduleNamed(key.slice(0, at))?.defs.get(key.slice(at + 2));
  return def?.key === key ? def : undefined;
}

/** The exported definitions named `name`, in module order. */
export function exportedNamed(c: Checker, name: string): readonly DefInfo[] {
  if (c.exportedByName === null) {
    const table = new Map<string, DefInfo[]>();
    for (const m of c.allModules()) {
      for (const def of m.defs.values()) {
        if (!def.exported) continue;
        const list = table.get(def.name);
        if (list === undefined) table.set(def.name, [def]);
        else list.push(def);
      }
    }
    c.exportedByName = table;
  }
  return c.exportedByName.get(name) ?? [];
}

export function addRef(
  ctx: { refs: DefReferences; file: string },
  ref: Span,
  target: DefInfo,
  role: RefRole,
): void {
  if (target.module === null) return; // the prelude is never a link
  ctx.refs.refs.push({
    key: target.key,
    role,
    file: ctx.file,
    span: { start: ref.start, end: ref.end },
  });
}

export function markUsed(c: Checker, entry: ScopeEntry): void {
  if (entry.kind === "module") c.usedImports.add(entry.info);
  else if (entry.via !== null) c.usedImports.add(entry.via);
}

export function conOf(def: DefInfo, args: readonly Type[]): TCon {
  return { kind: "con", name: def.key, display: def.name, args };
}

export interface TypeCtx {
  readonly def: DefInfo;
  readonly refs: DefReferences;
  readonly module: ModuleInfo;
  readonly file: string;
  readonly typeParams: ReadonlyMap<string, TParam>;
}

/**
 * A node's span, as a new object. The checker's busiest places (a scope, a
 * binding, a local's or an outer name's reference) copy the two numbers
 * themselves instead: a load here meets every kind of node and is slow for
 * all of them (measured: 73 ms of the first analysis of 100,000 lines).
 */
export function spanOf(n: { start: number; end: number }): Span {
  return { start: n.start, end: n.end };
}

export function typeParamMap(signature: Signature): ReadonlyMap<string, TParam> {
  if (signature.typeParams.length === 0) return NO_TYPE_PARAMS;
  const map = new Map<string, TParam>();
  for (const p of signature.typeParams) if (!map.has(p.name)) map.set(p.name, p);
  return map;
}

export function pushScope(ctx: Ctx, span: Span): number {
  const id = ctx.body.scopes.length;
  ctx.body.scopes.push({ id, parent: ctx.scope, span: { start: span.start, end: span.end } });
  ctx.scope = id;
  return ctx.undo.length;
}

export function popScope(ctx: Ctx, mark: number, parent: number): void {
  while (ctx.undo.length > mark) {
    const [name, previous] = ctx.undo.pop()!;
    if (previous === undefined) ctx.locals.delete(name);
    else ctx.locals.set(name, previous);
  }
  ctx.scope = parent;
}

export function declare(ctx: Ctx, decl: NameDecl, type: Type, kind: BindingKind): Local {
  const binding: BindingInfo = {
    name: decl.text,
    kind,
    declSpan: { start: decl.start, end: decl.end },
    scope: ctx.scope,
    references: [],
  };
  ctx.body.bindings.push(binding);
  const local: Local = { name: decl.text, decl, binding, type };
  ctx.undo.push([decl.text, ctx.locals.get(decl.text)]);
  ctx.locals.set(decl.text, local);
  return local;
}

export function mismatch(
  c: Checker,
  ctx: Ctx,
  span: Span,
  expected: Type,
  found: Type,
  reason: Reason | null,
  expression = false,
): void {
  const e = showType(ctx.s, zonk(ctx.s, expected));
  const f = showType(ctx.s, zonk(ctx.s, found));
  const labels = reason === null ? [] : [{
    file: reason.file ?? ctx.file,
    span: { start: reason.start, end: reason.end },
    message: `expected \`${e}\` because of this`,
  }];
  const teach = expression ? convertedValue(ctx, span, found, expected) : {};
  report(c, D.mismatch.types({ file: ctx.file, span, labels, ...teach }, e, f));
}

/** `expression`: the span is a whole expression, which a conversion fix may wrap. */
export function expectType(
  c: Checker,
  ctx: Ctx,
  span: Span,
  found: Type,
  expected: Type,
  reason: Reason | null,
  expression = false,
): void {
  if (!unify(ctx.s, found, expected)) {
    mismatch(c, ctx, span, expected, found, reason, expression);
  }
}

/** Whether a prelude function's name means the prelude's here (no local or definition shadows it). */
export function preludeInScope(ctx: Ctx, name: string): boolean {
  return !ctx.locals.has(name) && !ctx.module.scope.has(name);
}

/** The name of a concrete built-in type (`Int`, `String`, …), or null. */
export function conName(t: Type): string | null {
  return t.kind === "con" && t.args.length === 0 ? t.name : null;
}

/** A fix that wraps an expression in a call of a prelude conversion. */
export function wrapIn(ctx: Ctx, span: Span, fn: string): Fix {
  return {
    title: `convert it with \`${fn}\``,
    applicability: "automatic",
    precondition: { kind: "none" },
    edits: [
      { file: ctx.file, span: { start: span.start, end: span.start }, replacement: `${fn}(` },
      { file: ctx.file, span: { start: span.end, end: span.end }, replacement: ")" },
    ],
  };
}

/**
 * Help, and a fix where the repair is certain, for a value of a built-in
 * type where another is expected and a prelude conversion makes one from the
 * other: `to_string` for text, `int_to_float` for a `Float`. Nazm converts
 * nothing implicitly, and a newcomer's first guess is that it does. A fix is
 * offered only where the prelude's function is the one its name reaches;
 * `float_to_int` truncates, so it is named but never applied unread.
 */
function convertedValue(
  ctx: Ctx,
  span: Span,
  found: Type,
  expected: Type,
): { help?: string; fixes?: Fix[] } {
  const from = conName(shallow(ctx.s, found));
  const to = conName(shallow(ctx.s, expected));
  const fixed = (fn: string) => preludeInScope(ctx, fn) ? [wrapIn(ctx, span, fn)] : [];
  if (to === "String" && (from === "Int" || from === "Float" || from === "Bool")) {
    return { help: `make text of the \`${from}\` with \`to_string\``, fixes: fixed("to_string") };
  }
  if (to === "Float" && from === "Int") {
    return { help: "convert the `Int` with `int_to_float`", fixes: fixed("int_to_float") };
  }
  if (to === "Int" && from === "Float") {
    return { help: "convert the `Float` with `float_to_int`, which truncates toward zero" };
  }
  return {};
}

/** The type of a literal (a literal pattern's, or a literal expression's). */
export function literalType(lit: IntLit | FloatLit | StringLit | BoolLit | UnitLit): Type {
  switch (lit.kind) {
    case "IntLit":
      return INT;
    case "FloatLit":
      return FLOAT;
    case "StringLit":
      return STRING;
    case "BoolLit":
      return BOOL;
    case "UnitLit":
      return UNIT;
  }
}

/** The help of an unknown variant: the enum's variants, each as it is written. */
export function variantsHelp(c: Checker, def: DefInfo): string {
  const variants = sig(c, def).variants.map((v) => `\`${def.name}.${v.name}\``);
  return variants.length === 0
    ? `\`${def.name}\` has no variants`
    : `the variants of \`${def.name}\` are ${variants.join(", ")}`;
}
