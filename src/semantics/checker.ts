/**
 * The checker: resolves every name and infers every type, one definition
 * at a time, after binding and linking. Results go to side tables keyed by
 * definition (links.ts: signatures, references, bodies); neither the tree
 * nor the binder's definitions are touched. A pure function of the linked
 * modules.
 *
 * @module
 */
import { type Diagnostic, DIAGNOSTICS as D, type Fix, type Span } from "../base/mod.ts";
import type {
  BinaryExpr,
  Block,
  Expr,
  FieldExpr,
  FnDecl,
  MatchExpr,
  NameDecl,
  NamedType,
  NameRef,
  Pattern,
  RecordLit,
  TypeExpr,
  UnaryExpr,
} from "../syntax/mod.ts";
import {
  type DefInfo,
  type ImportInfo,
  type ImportName,
  type ModuleInfo,
  newDefInfo,
  type ScopeEntry,
  withArticle,
} from "./binder.ts";
import type {
  BindingInfo,
  BindingKind,
  BodyInfo,
  CheckResult,
  DefReferences,
  RefRole,
  Signature,
} from "./links.ts";
import type { LinkResult } from "./linker.ts";
import {
  budget,
  CONS_NAME,
  type Ctor,
  isUseful,
  MATCH_BUDGET,
  type Missing,
  missingPatterns,
  NIL_NAME,
  type Pat,
  showPat,
  WILD,
} from "./exhaustive.ts";
import {
  addArms,
  addImport,
  closestName,
  prefixUnderscore,
  removeImport,
  removeImportName,
} from "./fixes.ts";
import {
  PRELUDE_ENUM_PARAMS,
  PRELUDE_ENUMS,
  PRELUDE_FUNCTIONS,
  PRELUDE_TYPES,
  PRELUDE_VARIANTS,
  type PreludeFunction,
} from "./prelude.ts";
import { renameConflict } from "./rename.ts";
import { newResolutions, type Resolutions } from "./resolutions.ts";
import {
  BOOL,
  ERROR,
  FLOAT,
  freshVar,
  hasFreeVars,
  instantiate,
  INT,
  listOf,
  newSubst,
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

// ---------------------------------------------------------------- prelude enums

/** A signature while the checker builds it; read-only once checking ends. */
type Building<T> = { -readonly [K in keyof T]: T[K] };

function emptySignature(): Building<Signature> {
  return {
    typeParams: [],
    params: [],
    result: ERROR,
    fields: [],
    fieldIndex: new Map(),
    variants: [],
    variantIndex: new Map(),
  };
}

function preludeEnum(name: string): [DefInfo, Signature] {
  const def = newDefInfo(name, name, "enum", null, null, true);
  const signature = emptySignature();
  signature.typeParams = PRELUDE_ENUM_PARAMS.get(name)!.map((n, index) => ({
    t: "param",
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

const PRELUDE_ENUM_DEFS = new Map([preludeEnum("Option"), preludeEnum("Result")]);
const [OPTION_DEF, RESULT_DEF] = PRELUDE_ENUM_DEFS.keys();

function preludeEnumDef(name: string): DefInfo | null {
  return name === "Option" ? OPTION_DEF : name === "Result" ? RESULT_DEF : null;
}

/** Why a type was expected: a place, in the current file unless `file` says otherwise. */
type Reason = Span & { readonly file?: string };

// ---------------------------------------------------------------- state

interface Local {
  readonly name: string;
  readonly decl: NameDecl;
  readonly binding: BindingInfo;
  readonly type: Type;
}

interface Ctx {
  readonly def: DefInfo;
  readonly refs: DefReferences;
  readonly module: ModuleInfo;
  readonly file: string;
  readonly s: Subst;
  readonly typeParams: Map<string, TParam>;
  readonly returnType: Type;
  readonly returnReason: Span | null;
  readonly locals: Map<string, Local>;
  /** Undo log for scopes: the shadowed local (or undefined) per declaration. */
  readonly undo: [string, Local | undefined][];
  readonly body: BodyInfo;
  scope: number;
  readonly lets: { local: Local; decl: NameDecl }[];
  /** Operators whose operand type is recorded once the body is checked (with resolutions only). */
  readonly operators: (BinaryExpr | UnaryExpr)[];
}

interface Checker {
  readonly diagnostics: Diagnostic[];
  readonly defs: Map<string, DefInfo>;
  /** Exported definitions by name, for the import fix of an unknown name. */
  readonly exportedByName: Map<string, DefInfo[]>;
  readonly signatures: Map<DefInfo, Building<Signature>>;
  readonly references: Map<DefInfo, DefReferences>;
  readonly bodies: Map<DefInfo, BodyInfo>;
  readonly namedFromOutside: Set<DefInfo>;
  /** Imports (aliases and imported names) something refers to; the rest are unused (N0404). */
  readonly usedImports: Set<ImportInfo | ImportName>;
  /** Unknown names that may still get suggested fixes. */
  suggestions: number;
  readonly resolutions: Resolutions | null;
}

function report(c: Checker, diagnostic: Diagnostic): void {
  c.diagnostics.push(diagnostic);
}

/** The signature of a definition of the compilation or of the prelude. */
function sig(c: Checker, def: DefInfo): Signature {
  return c.signatures.get(def) ?? PRELUDE_ENUM_DEFS.get(def)!;
}

function addRef(
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

function markUsed(c: Checker, entry: ScopeEntry): void {
  if (entry.k === "module") c.usedImports.add(entry.info);
  else if (entry.via !== null) c.usedImports.add(entry.via);
}

function conOf(def: DefInfo, args: readonly Type[]): TCon {
  return { t: "con", name: def.key, display: def.name, args };
}

// ---------------------------------------------------------------- entry

/**
 * Checks linked modules: signatures first (so bodies see every definition's
 * type), then bodies, then the module-level lints.
 */
export function checkModules(
  modules: readonly ModuleInfo[],
  linked: LinkResult,
  diagnostics: Diagnostic[],
  options: { readonly resolve?: boolean } = {},
): CheckResult {
  const c: Checker = {
    diagnostics,
    defs: new Map(),
    exportedByName: new Map(),
    signatures: new Map(),
    references: new Map(),
    bodies: new Map(),
    namedFromOutside: new Set(linked.namedFromOutside),
    usedImports: new Set(),
    suggestions: 1000,
    resolutions: options.resolve ? newResolutions() : null,
  };
  for (const m of modules) {
    for (const def of m.defs.values()) {
      c.defs.set(def.key, def);
      if (def.exported) {
        const list = c.exportedByName.get(def.name);
        if (list === undefined) c.exportedByName.set(def.name, [def]);
        else list.push(def);
      }
    }
  }
  for (const m of modules) {
    for (const def of [...m.defs.values(), ...m.duplicates, ...m.tests.map((t) => t.def)]) {
      c.signatures.set(def, emptySignature());
      c.references.set(def, { refs: [], typeParamRefs: [], typeNames: [] });
    }
    // A test is a function without parameters or result.
    for (const t of m.tests) c.signatures.get(t.def)!.result = UNIT;
  }
  // Type parameters first: a signature may name a generic type of any module.
  for (const m of modules) {
    for (const def of m.defs.values()) declareTypeParams(c, m, def, def.node!.typeParams);
    for (const def of m.duplicates) declareTypeParams(c, m, def, def.node!.typeParams);
  }
  for (const m of modules) {
    for (const def of m.defs.values()) checkSignature(c, m, def);
    for (const def of m.duplicates) checkSignature(c, m, def);
  }
  for (const m of modules) {
    for (const def of m.defs.values()) {
      if (def.kind === "function") checkBody(c, m, def, def.node as FnDecl);
    }
    for (const def of m.duplicates) {
      if (def.kind === "function") checkBody(c, m, def, def.node as FnDecl);
    }
    // A test is a function without parameters or result: checked alike.
    for (const t of m.tests) {
      checkBody(c, m, t.def, { ...t.node, typeParams: [], params: [], returnType: null });
    }
  }
  for (const m of modules) lintImports(c, m);
  return {
    signatures: c.signatures,
    references: c.references,
    bodies: c.bodies,
    namedFromOutside: c.namedFromOutside,
    resolutions: c.resolutions,
  };
}

// ---------------------------------------------------------------- types in source

interface TypeCtx {
  readonly def: DefInfo;
  readonly refs: DefReferences;
  readonly module: ModuleInfo;
  readonly file: string;
  readonly typeParams: Map<string, TParam>;
}

/**
 * The type a type expression denotes. `role` is how the named definition
 * is referenced (`type` in type positions, `use` for a record literal's
 * head); `inferArgs` lets a record literal omit its type arguments.
 */
function resolveType(
  c: Checker,
  t: TypeCtx,
  te: TypeExpr,
  role: RefRole = "type",
  inferArgs: Subst | null = null,
): Type {
  switch (te.kind) {
    case "UnitType":
      return UNIT;
    case "Error":
      return ERROR;
    case "FnType":
      return {
        t: "fn",
        params: te.params.map((p) => resolveType(c, t, p)),
        result: resolveType(c, t, te.result),
      };
    case "NamedType":
      return resolveNamedType(c, t, te, role, inferArgs);
  }
}

function typeArgs(
  c: Checker,
  t: TypeCtx,
  te: NamedType,
  expected: number,
  what: string,
  inferArgs: Subst | null,
): Type[] | null {
  const args = te.args.map((a) => resolveType(c, t, a));
  if (args.length === expected) return args;
  if (args.length === 0 && inferArgs !== null) {
    return Array.from({ length: expected }, () => freshVar(inferArgs));
  }
  report(c, D.typeArgumentCount.type({ file: t.file, span: te }, what, expected, args.length));
  return null;
}

function resolveNamedType(
  c: Checker,
  t: TypeCtx,
  te: NamedType,
  role: RefRole,
  inferArgs: Subst | null,
): Type {
  const path = te.path;
  if (path.length === 0) return ERROR;
  let def: DefInfo | null = null;
  const last = path[path.length - 1];
  if (path.length === 1) {
    const name = last.text;
    const param = t.typeParams.get(name);
    if (param !== undefined) {
      t.refs.typeParamRefs.push({ name, span: spanOf(last) });
      if (te.args.length > 0) {
        report(c, D.typeArgumentCount.typeParameter({ file: t.file, span: te }, name));
        return ERROR;
      }
      return param;
    }
    const entry = t.module.scope.get(name);
    t.refs.typeNames.push({
      name,
      span: spanOf(last),
      key: entry?.k === "def" && entry.def.module !== null ? entry.def.key : null,
    });
    if (entry !== undefined) {
      markUsed(c, entry);
      if (entry.k === "broken") return ERROR;
      if (entry.k === "module") {
        report(c, D.valueAsType.notAType({ file: t.file, span: last }, name, "a module"));
        return ERROR;
      }
      def = entry.def;
    } else if (PRELUDE_TYPES.has(name)) {
      const arity = PRELUDE_TYPES.get(name)!;
      const args = typeArgs(c, t, te, arity, name, inferArgs);
      if (args === null) return ERROR;
      const enumDef = preludeEnumDef(name);
      if (enumDef !== null) return conOf(enumDef, args);
      return { t: "con", name, display: name, args };
    } else {
      unknownName(c, t.file, last, name, "type", typeNameCandidates(t), t.module);
      return ERROR;
    }
  } else if (path.length === 2) {
    const head = path[0];
    const entry = t.module.scope.get(head.text);
    if (entry === undefined || entry.k !== "module") {
      if (entry?.k === "broken") return ERROR;
      report(c, D.unknownName.module({ file: t.file, span: head }, head.text));
      return ERROR;
    }
    c.usedImports.add(entry.info);
    const target = entry.info.module;
    if (target === null) return ERROR;
    def = memberOf(c, t.file, target, last);
    if (def === null) return ERROR;
  } else {
    const written = path.map((p) => p.text).join(".");
    report(c, D.unknownName.path({ file: t.file, span: te }, "type", written));
    return ERROR;
  }
  addRef(t, last, def, role);
  if (def.kind === "function") {
    report(c, D.valueAsType.notAType({ file: t.file, span: last }, def.name, "a function"));
    return ERROR;
  }
  const args = typeArgs(c, t, te, sig(c, def).typeParams.length, def.name, inferArgs);
  if (args === null) return ERROR;
  return conOf(def, args);
}

/** A `pub` definition of a module reached through an alias (N0201/N0203 otherwise). */
function memberOf(c: Checker, file: string, target: ModuleInfo, ref: NameRef): DefInfo | null {
  const def = target.defs.get(ref.text);
  if (def === undefined) {
    report(c, D.unknownName.inModule({ file, span: ref }, ref.text, target.name));
    return null;
  }
  if (!def.exported) {
    c.namedFromOutside.add(def);
    const labels = [{
      file: target.file,
      span: spanOf(def.node!.name),
      message: "declared here without `pub`",
    }];
    report(c, D.notExported.private({ file, span: ref, labels }, ref.text, target.name));
    return null;
  }
  return def;
}

function spanOf(n: { start: number; end: number }): Span {
  return { start: n.start, end: n.end };
}

// ---------------------------------------------------------------- unknown names

function typeNameCandidates(t: TypeCtx): string[] {
  const out = [...t.typeParams.keys(), ...PRELUDE_TYPES.keys()];
  for (const [name, entry] of t.module.scope) {
    if (entry.k === "def" && entry.def.kind !== "function") out.push(name);
  }
  return out;
}

function valueNameCandidates(c: Checker, ctx: Ctx): string[] {
  const out = [...ctx.locals.keys(), ...PRELUDE_FUNCTIONS.keys(), ...PRELUDE_VARIANTS.keys()];
  for (const [name, entry] of ctx.module.scope) {
    if (entry.k === "def" && entry.def.kind === "function") out.push(name);
  }
  // `Circle` where the enum `Shape` in scope has it: suggest `Shape.Circle`.
  for (const [name, entry] of ctx.module.scope) {
    if (entry.k === "def" && entry.def.kind === "enum") {
      for (const v of sig(c, entry.def).variants) out.push(`${name}.${v.name}`);
    }
  }
  return out;
}

/** N0201 with its fixes: the closest name in scope, and imports of exported definitions. */
function unknownName(
  c: Checker,
  file: string,
  ref: NameRef,
  name: string,
  what: "value" | "type",
  candidates: string[],
  module: ModuleInfo | null,
): void {
  const fixes: Fix[] = [];
  // Suggestions scan every name in scope: bounded per compilation, so a file
  // of thousands of unknown names stays linear (later ones get no fix).
  if (--c.suggestions < 0) {
    report(c, D.unknownName.inScope({ file, span: ref }, what, name));
    return;
  }
  // A variant suggestion must end with the unknown name (`Circle` → `Shape.Circle`).
  let closest = closestName(name, candidates.filter((n) => !n.includes(".")));
  const variant = candidates.find((n) => n.includes(".") && n.endsWith(`.${name}`));
  if (variant !== undefined) closest = variant;
  if (closest !== null) {
    fixes.push({
      title: `use \`${closest}\``,
      applicability: "needs_review",
      precondition: { kind: "intended_name", name: closest },
      edits: [{ file, span: spanOf(ref), replacement: closest }],
    });
  }
  const mod = module;
  if (mod !== null && variant === undefined) {
    const exported = c.exportedByName.get(name) ?? [];
    for (const def of exported) {
      if (def.module === mod || def.module === null) continue;
      if ((what === "value") !== (def.kind === "function")) continue;
      fixes.push({
        title: `import \`${name}\` from \`${def.module.name}\``,
        applicability: "needs_review",
        precondition: { kind: "intended_definition", key: def.key },
        edits: [addImport(file, mod.tree, def.module.name, name)],
      });
    }
  }
  report(c, D.unknownName.inScope({ file, span: ref, fixes }, what, name));
}

// ---------------------------------------------------------------- signatures

function declareTypeParams(
  c: Checker,
  m: ModuleInfo,
  def: DefInfo,
  decls: readonly NameDecl[],
): void {
  const seen = new Map<string, NameDecl>();
  const params: TParam[] = [];
  decls.forEach((d, index) => {
    const first = seen.get(d.text);
    if (first !== undefined) {
      const labels = [{ file: m.file, span: spanOf(first), message: "first defined here" }];
      report(c, D.duplicateDefinition.name({ file: m.file, span: d, labels }, d.text));
    } else seen.set(d.text, d);
    params.push({ t: "param", owner: def.key, index, name: d.text });
  });
  c.signatures.get(def)!.typeParams = params;
}

function typeParamMap(signature: Signature): Map<string, TParam> {
  const map = new Map<string, TParam>();
  for (const p of signature.typeParams) if (!map.has(p.name)) map.set(p.name, p);
  return map;
}

function checkSignature(c: Checker, m: ModuleInfo, def: DefInfo): void {
  const node = def.node!;
  const signature = c.signatures.get(def)!;
  const t: TypeCtx = {
    def,
    refs: c.references.get(def)!,
    module: m,
    file: m.file,
    typeParams: typeParamMap(signature),
  };
  const dup = (seen: Map<string, NameDecl>, d: NameDecl): boolean => {
    const first = seen.get(d.text);
    if (first === undefined) {
      seen.set(d.text, d);
      return false;
    }
    const labels = [{ file: m.file, span: spanOf(first), message: "first defined here" }];
    report(c, D.duplicateDefinition.name({ file: m.file, span: d, labels }, d.text));
    return true;
  };
  if (node.kind === "FnDecl") {
    const seen = new Map<string, NameDecl>();
    signature.params = node.params.map((p) => {
      dup(seen, p.name);
      return { name: p.name.text, type: resolveType(c, t, p.type) };
    });
    signature.result = node.returnType === null ? UNIT : resolveType(c, t, node.returnType);
  } else if (node.kind === "RecordDecl") {
    const seen = new Map<string, NameDecl>();
    const fields = [];
    for (const f of node.fields) {
      const type = resolveType(c, t, f.type);
      if (!dup(seen, f.name)) fields.push({ name: f.name.text, type, decl: f.name });
    }
    signature.fields = fields;
    signature.fieldIndex = new Map(fields.map((f, i) => [f.name, i]));
  } else {
    const seen = new Map<string, NameDecl>();
    const variants = [];
    for (const v of node.variants) {
      const payload = v.fields.map((f) => resolveType(c, t, f));
      if (!dup(seen, v.name)) variants.push({ name: v.name.text, payload, decl: v.name });
    }
    signature.variants = variants;
    signature.variantIndex = new Map(variants.map((v, i) => [v.name, i]));
  }
}

// ---------------------------------------------------------------- bodies

/** What a body is checked from: a function's declaration, or a test's. */
type BodyDecl = Pick<
  FnDecl,
  "name" | "typeParams" | "params" | "returnType" | "body" | "start" | "end"
>;

function checkBody(c: Checker, m: ModuleInfo, def: DefInfo, node: BodyDecl): void {
  const body: BodyInfo = {
    bindings: [],
    scopes: [{ id: 0, parent: null, span: { start: node.start, end: node.end } }],
    outerNames: [],
  };
  c.bodies.set(def, body);
  const signature = sig(c, def);
  const refs = c.references.get(def)!;
  const ctx: Ctx = {
    def,
    refs,
    module: m,
    file: m.file,
    s: newSubst(),
    typeParams: typeParamMap(signature),
    returnType: signature.result,
    returnReason: node.returnType !== null ? spanOf(node.returnType) : null,
    locals: new Map(),
    undo: [],
    body,
    scope: 0,
    lets: [],
    operators: [],
  };
  for (const tp of node.typeParams) {
    body.bindings.push({
      name: tp.text,
      kind: "type_parameter",
      declSpan: spanOf(tp),
      scope: 0,
      references: [],
    });
  }
  const declared = new Set<string>();
  node.params.forEach((p, i) => {
    // A duplicate parameter (N0204) is not declared again: references go to the first.
    if (declared.has(p.name.text)) return;
    declared.add(p.name.text);
    declare(ctx, p.name, signature.params[i]?.type ?? ERROR, "parameter");
  });
  checkExpr(c, ctx, node.body, signature.result, ctx.returnReason ?? spanOf(node.name));
  const operands = c.resolutions?.operands;
  if (operands !== undefined) {
    for (const op of ctx.operators) operands.set(op, zonk(ctx.s, operands.get(op)!));
  }
  // Lints and inference failures, once the whole body constrained the variables.
  for (const { local, decl } of ctx.lets) {
    if (hasFreeVars(ctx.s, local.type)) {
      const help = `annotate the binding, as in \`let ${decl.text}: List[Int] = ...\``;
      report(c, D.cannotInfer.binding({ file: m.file, span: decl, help }, decl.text));
    }
  }
  for (const b of body.bindings) {
    if (b.kind !== "type_parameter") continue;
    for (const r of refs.typeParamRefs) {
      if (r.name === b.name) b.references.push({ span: r.span, scope: 0 });
    }
  }
  body.bindings.forEach((b, index) => {
    if (b.kind === "type_parameter" || b.references.length > 0 || b.name.startsWith("_")) return;
    const what = b.kind === "parameter" ? "parameter" : "variable";
    const name = unusedName(body, index);
    report(
      c,
      D.unusedLocal.local(
        {
          file: m.file,
          span: b.declSpan,
          fixes: name === null ? [] : [{
            title: `rename to \`${name}\``,
            applicability: "automatic",
            precondition: { kind: "none" },
            edits: [
              name === `_${b.name}`
                ? prefixUnderscore(m.file, b.declSpan.start)
                : { file: m.file, span: b.declSpan, replacement: name },
            ],
          }],
        },
        what,
        b.name,
      ),
    );
  });
}

/**
 * The name N0401's fix gives an unused local: `_name`, unless that would
 * collide with a binding of the same scope or pattern, or capture a
 * reference to another `_name` (a parameter read after a `let`); then
 * `_name2`, `_name3`, … up to `_name9`; null (no fix) when all are taken.
 */
function unusedName(body: BodyInfo, index: number): string | null {
  const base = `_${body.bindings[index].name}`;
  for (let n = 1; n <= 9; n++) {
    const name = n === 1 ? base : `${base}${n}`;
    if (renameConflict(body, index, name) === null) return name;
  }
  return null;
}

function pushScope(ctx: Ctx, span: Span): number {
  const id = ctx.body.scopes.length;
  ctx.body.scopes.push({ id, parent: ctx.scope, span: spanOf(span) });
  ctx.scope = id;
  return ctx.undo.length;
}

function popScope(ctx: Ctx, mark: number, parent: number): void {
  while (ctx.undo.length > mark) {
    const [name, previous] = ctx.undo.pop()!;
    if (previous === undefined) ctx.locals.delete(name);
    else ctx.locals.set(name, previous);
  }
  ctx.scope = parent;
}

function declare(ctx: Ctx, decl: NameDecl, type: Type, kind: BindingKind): Local {
  const binding: BindingInfo = {
    name: decl.text,
    kind,
    declSpan: spanOf(decl),
    scope: ctx.scope,
    references: [],
  };
  ctx.body.bindings.push(binding);
  const local: Local = { name: decl.text, decl, binding, type };
  ctx.undo.push([decl.text, ctx.locals.get(decl.text)]);
  ctx.locals.set(decl.text, local);
  return local;
}

function mismatch(
  c: Checker,
  ctx: Ctx,
  span: Span,
  expected: Type,
  found: Type,
  reason: Reason | null,
): void {
  const e = showType(ctx.s, zonk(ctx.s, expected));
  const f = showType(ctx.s, zonk(ctx.s, found));
  const labels = reason === null ? [] : [{
    file: reason.file ?? ctx.file,
    span: { start: reason.start, end: reason.end },
    message: `expected \`${e}\` because of this`,
  }];
  report(c, D.mismatch.types({ file: ctx.file, span, labels }, e, f));
}

function expectType(
  c: Checker,
  ctx: Ctx,
  span: Span,
  found: Type,
  expected: Type,
  reason: Reason | null,
): void {
  if (!unify(ctx.s, found, expected)) mismatch(c, ctx, span, expected, found, reason);
}

/** Checks an expression against an expected type, pushing it into branches for precise errors. */
function checkExpr(c: Checker, ctx: Ctx, e: Expr, expected: Type, reason: Reason | null): void {
  switch (e.kind) {
    case "Block":
      checkBlock(c, ctx, e, expected, reason);
      return;
    case "ParenExpr":
      checkExpr(c, ctx, e.inner, expected, reason);
      return;
    case "IfExpr":
      if (e.otherwise !== null) {
        checkExpr(c, ctx, e.condition, BOOL, null);
        checkExpr(c, ctx, e.then, expected, reason);
        checkExpr(c, ctx, e.otherwise, expected, reason);
        return;
      }
      break;
    case "MatchExpr":
      checkMatch(c, ctx, e, expected, reason);
      return;
    case "ListLit": {
      const element = freshVar(ctx.s);
      const found = listOf(element);
      if (!unify(ctx.s, found, expected)) {
        inferExpr(c, ctx, e, "use");
        mismatch(c, ctx, e, expected, found, reason);
        return;
      }
      for (const el of e.elements) checkExpr(c, ctx, el, element, reason);
      return;
    }
    case "ReturnExpr":
      inferExpr(c, ctx, e, "use");
      return;
  }
  const found = inferExpr(c, ctx, e, "use");
  expectType(c, ctx, e, found, expected, reason);
}

function checkBlock(
  c: Checker,
  ctx: Ctx,
  b: Block,
  expected: Type | null,
  reason: Reason | null,
): Type {
  const parent = ctx.scope;
  const mark = pushScope(ctx, b);
  for (const st of b.statements) {
    if (st.kind === "ExprStmt") {
      inferExpr(c, ctx, st.expr, "use");
      continue;
    }
    let type: Type;
    if (st.type !== null) {
      type = resolveType(c, ctx, st.type);
      checkExpr(c, ctx, st.value, type, spanOf(st.type));
    } else {
      type = inferExpr(c, ctx, st.value, "use");
    }
    if (st.binding.kind === "NameDecl") {
      const local = declare(ctx, st.binding, type, "let");
      if (st.type === null) ctx.lets.push({ local, decl: st.binding });
    }
  }
  let result: Type;
  if (b.tail !== null) {
    if (expected !== null) {
      checkExpr(c, ctx, b.tail, expected, reason);
      result = expected;
    } else result = inferExpr(c, ctx, b.tail, "use");
  } else {
    result = UNIT;
    if (expected !== null) {
      const endBrace = { start: Math.max(b.start, b.end - 1), end: b.end };
      // A body that only returns has any type.
      const last = b.statements[b.statements.length - 1];
      const returns = last !== undefined && last.kind === "ExprStmt" &&
        last.expr.kind === "ReturnExpr";
      if (!returns) expectType(c, ctx, endBrace, UNIT, expected, reason);
    }
  }
  popScope(ctx, mark, parent);
  return result;
}

/** Infers an expression's type. `role` says whether a named function here is called or used. */
function inferExpr(c: Checker, ctx: Ctx, e: Expr, role: "call" | "use"): Type {
  switch (e.kind) {
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
    case "Error":
      return ERROR;
    case "NameExpr":
      return valueName(c, ctx, e.name, role);
    case "FieldExpr":
      return inferField(c, ctx, e, role);
    case "ParenExpr":
      return inferExpr(c, ctx, e.inner, "use");
    case "CallExpr":
      return inferCall(c, ctx, e.callee, e.args, e);
    case "RecordLit":
      return inferRecord(c, ctx, e);
    case "ListLit": {
      const element = freshVar(ctx.s);
      let first: Span | null = null;
      for (const el of e.elements) {
        checkExpr(c, ctx, el, element, first);
        if (first === null) first = spanOf(el);
      }
      return listOf(element);
    }
    case "UnaryExpr": {
      if (e.op === "!") {
        const operand = inferExpr(c, ctx, e.operand, "use");
        if (shallow(ctx.s, operand).t !== "error" && !unify(ctx.s, operand, BOOL)) {
          const at = { file: ctx.file, span: { start: e.start, end: e.start + 1 } };
          report(c, D.badOperands.not(at, showType(ctx.s, zonk(ctx.s, operand))));
        }
        return BOOL;
      }
      const t = inferExpr(c, ctx, e.operand, "use");
      recordOperands(c, ctx, e, t);
      const r = shallow(ctx.s, t);
      if (
        !(r.t === "var" || r.t === "error" ||
          (r.t === "con" && (r.name === "Int" || r.name === "Float")))
      ) {
        report(
          c,
          D.badOperands.negate({ file: ctx.file, span: e }, showType(ctx.s, zonk(ctx.s, t))),
        );
        return ERROR;
      }
      return t;
    }
    case "BinaryExpr":
      return inferBinary(c, ctx, e);
    case "IfExpr": {
      checkExpr(c, ctx, e.condition, BOOL, null);
      if (e.otherwise === null) {
        checkBlock(c, ctx, e.then, UNIT, null);
        return UNIT;
      }
      const t = checkBlock(c, ctx, e.then, null, null);
      const thenSpan = e.then.tail !== null ? spanOf(e.then.tail) : spanOf(e.then);
      checkExpr(c, ctx, e.otherwise, t, thenSpan);
      return t;
    }
    case "MatchExpr":
      return checkMatch(c, ctx, e, null, null);
    case "Block":
      return checkBlock(c, ctx, e, null, null);
    case "ReturnExpr":
      if (e.value === null) expectType(c, ctx, e, UNIT, ctx.returnType, ctx.returnReason);
      else checkExpr(c, ctx, e.value, ctx.returnType, ctx.returnReason);
      return freshVar(ctx.s); // `return` never produces a value: any type fits
  }
}

const COMPARISONS = new Set(["<", "<=", ">", ">="]);

/** Whether a binary operator takes operands of this (already unified) type. */
function operandTypeFits(op: string, t: Type): boolean {
  if (t.t === "var" || t.t === "error") return true;
  if (op === "==" || op === "!=") return true;
  if (t.t !== "con") return false;
  if (op === "&&" || op === "||") return t.name === "Bool";
  if (t.name === "Int" || t.name === "Float") return true;
  return t.name === "String" && (op === "+" || COMPARISONS.has(op));
}

/** With resolutions: the operand type, zonked when the body is done. */
function recordOperands(c: Checker, ctx: Ctx, e: BinaryExpr | UnaryExpr, type: Type): void {
  if (c.resolutions === null) return;
  c.resolutions.operands.set(e, type);
  ctx.operators.push(e);
}

/**
 * Operands are inferred on their own, then required to agree with each
 * other and with the operator (§7.3.4): a wrong operand type is one N0310
 * at the operator naming both types, never a mismatch at one operand.
 */
function inferBinary(c: Checker, ctx: Ctx, e: Expr & { kind: "BinaryExpr" }): Type {
  const op = e.op;
  const logical = op === "&&" || op === "||";
  const result = logical || op === "==" || op === "!=" || COMPARISONS.has(op) ? BOOL : null;
  const left = inferExpr(c, ctx, e.left, "use");
  recordOperands(c, ctx, e, left);
  const right = inferExpr(c, ctx, e.right, "use");
  const l = shallow(ctx.s, left);
  const r = shallow(ctx.s, right);
  if (l.t === "error" || r.t === "error") return result ?? ERROR;
  const fits = logical
    ? unify(ctx.s, left, BOOL) && unify(ctx.s, right, BOOL)
    : unify(ctx.s, left, right) && operandTypeFits(op, shallow(ctx.s, left));
  if (!fits) {
    const at = { file: ctx.file, span: { start: e.opStart, end: e.opStart + op.length } };
    const shown = (t: Type) => showType(ctx.s, zonk(ctx.s, t));
    report(c, D.badOperands.binary(at, op, shown(left), shown(right)));
    return result ?? ERROR;
  }
  return result ?? left;
}

function instantiatePrelude(ctx: Ctx, f: PreludeFunction): Type {
  const owner = `prelude::${f.name}`;
  const args = f.typeParams.map(() => freshVar(ctx.s) as Type);
  return {
    t: "fn",
    params: f.params.map((p) => instantiate(p.type, owner, args)),
    result: instantiate(f.result, owner, args),
  };
}

function instantiateFn(c: Checker, ctx: Ctx, def: DefInfo): Type {
  const signature = sig(c, def);
  const args = signature.typeParams.map(() => freshVar(ctx.s) as Type);
  return {
    t: "fn",
    params: signature.params.map((p) => instantiate(p.type, def.key, args)),
    result: instantiate(signature.result, def.key, args),
  };
}

function variantValue(c: Checker, ctx: Ctx, def: DefInfo, index: number): Type {
  const signature = sig(c, def);
  const args = signature.typeParams.map(() => freshVar(ctx.s) as Type);
  const result = conOf(def, args);
  const payload = signature.variants[index].payload;
  if (payload.length === 0) return result;
  return { t: "fn", params: payload.map((p) => instantiate(p, def.key, args)), result };
}

function outer(ctx: Ctx, ref: NameRef, key: string | null): void {
  ctx.body.outerNames.push({
    name: ref.text,
    span: spanOf(ref),
    scope: ctx.scope,
    key,
    namespace: "value",
  });
}

/** A bare name in an expression. */
function valueName(c: Checker, ctx: Ctx, ref: NameRef, role: "call" | "use"): Type {
  const name = ref.text;
  const local = ctx.locals.get(name);
  if (local !== undefined) {
    local.binding.references.push({ span: spanOf(ref), scope: ctx.scope });
    c.resolutions?.values.set(ref, { k: "local", decl: local.decl });
    return local.type;
  }
  const entry = ctx.module.scope.get(name);
  if (entry !== undefined) {
    markUsed(c, entry);
    if (entry.k === "broken") {
      outer(ctx, ref, null);
      return ERROR;
    }
    if (entry.k === "module") {
      outer(ctx, ref, null);
      report(c, D.typeAsValue.notAValue({ file: ctx.file, span: ref }, name, "a module"));
      return ERROR;
    }
    outer(ctx, ref, entry.def.key);
    if (entry.def.kind === "function") {
      c.resolutions?.values.set(ref, { k: "function", key: entry.def.key });
    }
    return defAsValue(c, ctx, ref, entry.def, role);
  }
  outer(ctx, ref, null);
  const pf = PRELUDE_FUNCTIONS.get(name);
  if (pf !== undefined) {
    c.resolutions?.values.set(ref, { k: "prelude", name });
    return instantiatePrelude(ctx, pf);
  }
  const pv = PRELUDE_VARIANTS.get(name);
  if (pv !== undefined) {
    const def = preludeEnumDef(pv.enumName)!;
    const index = sig(c, def).variantIndex.get(name)!;
    c.resolutions?.values.set(ref, { k: "variant", enumKey: def.key, index });
    return variantValue(c, ctx, def, index);
  }
  if (PRELUDE_TYPES.has(name) || ctx.typeParams.has(name)) {
    report(c, D.typeAsValue.notAValue({ file: ctx.file, span: ref }, name, "a type"));
    return ERROR;
  }
  unknownName(c, ctx.file, ref, name, "value", valueNameCandidates(c, ctx), ctx.module);
  return ERROR;
}

function defAsValue(c: Checker, ctx: Ctx, ref: NameRef, def: DefInfo, role: "call" | "use"): Type {
  addRef(ctx, ref, def, role === "call" && def.kind === "function" ? "call" : "use");
  if (def.kind !== "function") {
    const help = def.kind === "record"
      ? `construct it with \`${def.name} { ... }\``
      : `name one of its variants, as in \`${def.name}.${
        sig(c, def).variants[0]?.name ?? "Variant"
      }\``;
    const at = { file: ctx.file, span: ref, help };
    report(c, D.typeAsValue.notAValue(at, def.name, withArticle(def.kind)));
    return ERROR;
  }
  return instantiateFn(c, ctx, def);
}

type Namespace =
  | { readonly k: "module"; readonly module: ModuleInfo | null; readonly info: ImportInfo }
  | { readonly k: "type"; readonly def: DefInfo; readonly ref: NameRef };

/**
 * What `expr` names when it stands before a `.`: a module alias or an
 * enum/record (possibly through an alias); null for an ordinary value.
 * Records the reference it resolves.
 */
function namespaceOf(c: Checker, ctx: Ctx, expr: Expr): Namespace | null {
  if (expr.kind === "NameExpr") {
    const name = expr.name.text;
    if (ctx.locals.has(name)) return null;
    const entry = ctx.module.scope.get(name);
    if (entry !== undefined) {
      if (entry.k === "module") {
        c.usedImports.add(entry.info);
        outer(ctx, expr.name, null);
        return { k: "module", module: entry.info.module, info: entry.info };
      }
      if (entry.k === "def" && entry.def.kind !== "function") {
        markUsed(c, entry);
        outer(ctx, expr.name, entry.def.key);
        addRef(ctx, expr.name, entry.def, "use");
        return { k: "type", def: entry.def, ref: expr.name };
      }
      return null;
    }
    const pe = preludeEnumDef(name);
    if (pe !== null) {
      outer(ctx, expr.name, null);
      return { k: "type", def: pe, ref: expr.name };
    }
    return null;
  }
  if (expr.kind === "FieldExpr" && expr.target.kind === "NameExpr") {
    // `alias.Enum` before `.Variant`: peek first, so that a member that is
    // not a type is resolved (and diagnosed) once, as a value, by the caller.
    const aliasRef = expr.target.name;
    if (ctx.locals.has(aliasRef.text)) return null;
    const entry = ctx.module.scope.get(aliasRef.text);
    if (entry === undefined || entry.k !== "module" || entry.info.module === null) return null;
    const def = entry.info.module.defs.get(expr.name.text);
    if (def === undefined || def.kind === "function" || !def.exported) return null;
    c.usedImports.add(entry.info);
    outer(ctx, aliasRef, null);
    addRef(ctx, expr.name, def, "use");
    return { k: "type", def, ref: expr.name };
  }
  return null;
}

function inferField(c: Checker, ctx: Ctx, e: FieldExpr, role: "call" | "use"): Type {
  const ns = namespaceOf(c, ctx, e.target);
  if (ns !== null) {
    if (ns.k === "module") {
      if (ns.module === null) return ERROR;
      const def = memberOf(c, ctx.file, ns.module, e.name);
      if (def === null) return ERROR;
      if (def.kind === "function") c.resolutions?.values.set(e, { k: "function", key: def.key });
      return defAsValue(c, ctx, e.name, def, role);
    }
    const def = ns.def;
    if (def.kind === "record") {
      const help = `construct it with \`${def.name} { ... }\``;
      report(
        c,
        D.typeAsValue.notAValue({ file: ctx.file, span: ns.ref, help }, def.name, "a record"),
      );
      return ERROR;
    }
    const index = sig(c, def).variantIndex.get(e.name.text);
    if (index === undefined) {
      const labels = def.node !== null && def.module !== null
        ? [{ file: def.module.file, span: spanOf(def.node.name), message: "enum declared here" }]
        : [];
      const at = { file: ctx.file, span: e.name, labels };
      report(c, D.unknownVariant.ofEnum(at, def.name, e.name.text));
      return ERROR;
    }
    c.resolutions?.values.set(e, { k: "variant", enumKey: def.key, index });
    return variantValue(c, ctx, def, index);
  }
  const target = inferExpr(c, ctx, e.target, "use");
  const t = shallow(ctx.s, target);
  if (t.t === "error") return ERROR;
  if (t.t === "con") {
    const def = c.defs.get(t.name);
    if (def !== undefined && def.kind === "record") {
      const fields = sig(c, def);
      const index = fields.fieldIndex.get(e.name.text);
      if (index !== undefined) {
        c.resolutions?.values.set(e, { k: "field", recordKey: def.key, index });
        return instantiate(fields.fields[index].type, def.key, t.args);
      }
      const labels = def.module !== null
        ? [{ file: def.module.file, span: spanOf(def.node!.name), message: "record declared here" }]
        : [];
      const at = { file: ctx.file, span: e.name, labels };
      report(c, D.unknownField.ofRecord(at, def.name, e.name.text));
      return ERROR;
    }
  }
  if (t.t === "var") {
    report(c, D.cannotInfer.fieldOwner({ file: ctx.file, span: e.target }, e.name.text));
    return ERROR;
  }
  const at = { file: ctx.file, span: e.name };
  report(c, D.unknownField.ofType(at, showType(ctx.s, zonk(ctx.s, target)), e.name.text));
  return ERROR;
}

/** The user function a callee names, looked up without recording anything. */
function calleeDef(ctx: Ctx, callee: Expr): DefInfo | null {
  if (callee.kind === "NameExpr") {
    if (ctx.locals.has(callee.name.text)) return null;
    const entry = ctx.module.scope.get(callee.name.text);
    return entry?.k === "def" && entry.def.kind === "function" ? entry.def : null;
  }
  if (callee.kind === "FieldExpr" && callee.target.kind === "NameExpr") {
    if (ctx.locals.has(callee.target.name.text)) return null;
    const entry = ctx.module.scope.get(callee.target.name.text);
    if (entry?.k !== "module" || entry.info.module === null) return null;
    const def = entry.info.module.defs.get(callee.name.text);
    return def !== undefined && def.exported && def.kind === "function" ? def : null;
  }
  return null;
}

function inferCall(c: Checker, ctx: Ctx, callee: Expr, args: readonly Expr[], call: Span): Type {
  // `len` accepts a list or a string: the prelude's one overloaded function.
  if (
    callee.kind === "NameExpr" && callee.name.text === "len" && !ctx.locals.has("len") &&
    !ctx.module.scope.has("len")
  ) {
    outer(ctx, callee.name, null);
    c.resolutions?.values.set(callee.name, { k: "prelude", name: "len" });
    if (args.length !== 1) {
      report(c, D.argumentCount.call({ file: ctx.file, span: call }, 1, args.length));
      for (const a of args) inferExpr(c, ctx, a, "use");
      return INT;
    }
    const t = inferExpr(c, ctx, args[0], "use");
    const r = shallow(ctx.s, t);
    if (r.t === "con" && r.name === "String") return INT;
    const expected = listOf(freshVar(ctx.s));
    if (!unify(ctx.s, t, expected)) {
      const at = { file: ctx.file, span: args[0] };
      report(c, D.mismatch.listOrString(at, showType(ctx.s, zonk(ctx.s, t))));
    }
    return INT;
  }
  const calleeType = inferExpr(c, ctx, callee, "call");
  const f = shallow(ctx.s, calleeType);
  if (f.t === "fn") {
    if (f.params.length !== args.length) {
      const labels = [{
        file: ctx.file,
        span: spanOf(callee),
        message: `of type \`${showType(ctx.s, zonk(ctx.s, f))}\``,
      }];
      const at = { file: ctx.file, span: call, labels };
      report(c, D.argumentCount.call(at, f.params.length, args.length));
      for (const a of args) inferExpr(c, ctx, a, "use");
      return f.result;
    }
    const target = calleeDef(ctx, callee);
    const params = target?.node?.kind === "FnDecl" ? target.node.params : null;
    for (let i = 0; i < args.length; i++) {
      const reason: Reason | null = params === null || params[i] === undefined
        ? null
        : { file: target!.module!.file, start: params[i].type.start, end: params[i].type.end };
      checkExpr(c, ctx, args[i], f.params[i], reason);
    }
    return f.result;
  }
  if (f.t === "error") {
    for (const a of args) inferExpr(c, ctx, a, "use");
    return ERROR;
  }
  if (f.t === "var") {
    const params = args.map((a) => inferExpr(c, ctx, a, "use"));
    const result = freshVar(ctx.s);
    unify(ctx.s, f, { t: "fn", params, result });
    return result;
  }
  report(c, D.notCallable.value({ file: ctx.file, span: callee }, showType(ctx.s, zonk(ctx.s, f))));
  for (const a of args) inferExpr(c, ctx, a, "use");
  return ERROR;
}

function inferRecord(c: Checker, ctx: Ctx, e: RecordLit): Type {
  const type = resolveType(c, ctx, e.type, "use", ctx.s);
  const t = shallow(ctx.s, type);
  const def = t.t === "con" ? c.defs.get(t.name) : undefined;
  if (t.t !== "con" || def === undefined || def.kind !== "record") {
    if (t.t !== "error") {
      report(c, D.notARecord.type({ file: ctx.file, span: e.type }, showType(ctx.s, t)));
    }
    for (const f of e.fields) {
      if (f.value !== null) inferExpr(c, ctx, f.value, "use");
      else valueName(c, ctx, f.name, "use");
    }
    return ERROR;
  }
  c.resolutions?.records.set(e, def.key);
  const signature = sig(c, def);
  const given = new Set<string>();
  for (const f of e.fields) {
    const index = signature.fieldIndex.get(f.name.text);
    if (index === undefined || given.has(f.name.text)) {
      const at = { file: ctx.file, span: f.name };
      report(
        c,
        index === undefined
          ? D.extraField.unknown(at, def.name, f.name.text)
          : D.extraField.repeated(at, f.name.text),
      );
      if (f.value !== null) inferExpr(c, ctx, f.value, "use");
      else valueName(c, ctx, f.name, "use");
      continue;
    }
    given.add(f.name.text);
    const fieldType = instantiate(signature.fields[index].type, def.key, t.args);
    if (f.value !== null) checkExpr(c, ctx, f.value, fieldType, null);
    else {
      const found = valueName(c, ctx, f.name, "use");
      expectType(c, ctx, f.name, found, fieldType, null);
    }
  }
  const missing = signature.fields.filter((f) => !given.has(f.name)).map((f) => f.name);
  if (missing.length > 0) {
    report(c, D.missingFields.literal({ file: ctx.file, span: e.type }, missing, def.name));
  }
  return type;
}

// ---------------------------------------------------------------- match and patterns

function checkMatch(
  c: Checker,
  ctx: Ctx,
  e: MatchExpr,
  expected: Type | null,
  reason: Reason | null,
): Type {
  const scrutinee = inferExpr(c, ctx, e.scrutinee, "use");
  const result = expected ?? freshVar(ctx.s);
  let armReason = reason;
  const rows: Pat[][] = [];
  let sound = true;
  for (const arm of e.arms) {
    const parent = ctx.scope;
    const mark = pushScope(ctx, arm);
    const bound = new Map<string, NameDecl>();
    const pat = checkPattern(c, ctx, arm.pattern, scrutinee, bound);
    if (pat === null) sound = false;
    checkExpr(c, ctx, arm.body, result, armReason);
    if (expected === null && armReason === null) armReason = spanOf(arm.body);
    popScope(ctx, mark, parent);
    rows.push([pat ?? WILD]);
  }
  const st = zonk(ctx.s, scrutinee);
  if (!sound || st.t === "error") return result;
  const ctorsOf = (t: Type) => ctorsOfType(c, ctx, t);
  budget.steps = MATCH_BUDGET;
  for (let i = 1; i < rows.length; i++) {
    if (!isUseful(rows.slice(0, i), rows[i], [st], ctorsOf)) {
      report(c, D.unreachableArm.arm({ file: ctx.file, span: e.arms[i].pattern }));
    }
  }
  budget.steps = MATCH_BUDGET;
  const missing = missingPatterns(rows, [st], ctorsOf, MISSING_COUNTED);
  if (missing.patterns.length > 0) nonExhaustive(c, ctx, e, missing);
  return result;
}

/** Missing patterns named in an N0306 message; the rest are counted. */
const MISSING_LISTED = 16;
/** Missing patterns counted exactly; past this, "and more". */
const MISSING_COUNTED = 1000;
/** The most arms the fix adds one by one; past this, the listed ones and `_`. */
const MISSING_ARMS = 64;

/**
 * N0306: the message lists the missing patterns (the first 16, then how
 * many more), and the fix adds one arm per missing pattern — or, when
 * there are too many to write out or they could not all be found, the
 * listed ones and a final `_` — so that one application completes the
 * match. The patterns are disjoint, so no added arm is unreachable.
 */
function nonExhaustive(c: Checker, ctx: Ctx, e: MatchExpr, missing: Missing): void {
  const shown = missing.patterns.map((w) => showPat(w[0]));
  const listed = shown.slice(0, MISSING_LISTED).map((p) => `\`${p}\``).join(", ");
  const more = shown.length - MISSING_LISTED;
  const rest = !missing.complete ? " and more" : more > 0 ? ` and ${more} more` : "";
  const exact = missing.complete && shown.length <= MISSING_ARMS;
  const patterns = exact ? shown : [...shown.slice(0, MISSING_LISTED), "_"];
  const arms = patterns.map((p) => `${p} => panic("todo")`);
  const lastArm = e.arms[e.arms.length - 1];
  report(
    c,
    D.nonExhaustive.notCovered({
      file: ctx.file,
      span: e.scrutinee,
      fixes: [{
        title: exact
          ? `add ${arms.length === 1 ? "an arm" : `${arms.length} arms`} for the missing patterns`
          : `add ${arms.length} arms, the last one \`_\`, for the missing patterns`,
        applicability: "needs_review",
        precondition: { kind: "placeholders_to_complete", count: arms.length },
        edits: [
          addArms(
            ctx.file,
            ctx.module.bytes,
            e,
            lastArm === undefined ? null : {
              start: lastArm.start,
              end: lastArm.end,
              bodyIsBlock: lastArm.body.kind === "Block",
            },
            arms,
          ),
        ],
      }],
    }, `${listed}${rest}`),
  );
}

/** How a user enum is written from the current module (`Shape`, `shapes.Shape`). */
function enumPrefix(ctx: Ctx, def: DefInfo): string {
  if (def.module === null) return "";
  const direct = ctx.module.scope.get(def.name);
  if (direct !== undefined && direct.k === "def" && direct.def === def) return def.name;
  for (const info of ctx.module.imports) {
    if (info.module === def.module && info.node.names === null) {
      const alias = info.node.alias?.text ?? info.node.path[info.node.path.length - 1].text;
      const entry = ctx.module.scope.get(alias);
      if (entry !== undefined && entry.k === "module" && entry.info === info) {
        return `${alias}.${def.name}`;
      }
    }
  }
  return def.name;
}

const TRUE_CTOR: Ctor = { name: "true", display: "true", argTypes: [] };
const FALSE_CTOR: Ctor = { name: "false", display: "false", argTypes: [] };
const UNIT_CTOR: Ctor = { name: "()", display: "()", argTypes: [] };

function listCtors(element: Type): Ctor[] {
  return [
    { name: NIL_NAME, display: "[]", argTypes: [] },
    { name: CONS_NAME, display: "::", argTypes: [element, listOf(element)] },
  ];
}

function ctorsOfType(c: Checker, ctx: Ctx, type: Type): Ctor[] | null {
  const t = shallow(ctx.s, type);
  if (t.t !== "con") return null;
  switch (t.name) {
    case "Bool":
      return [TRUE_CTOR, FALSE_CTOR];
    case "Unit":
      return [UNIT_CTOR];
    case "List":
      return listCtors(t.args[0]);
  }
  const def = preludeEnumDef(t.name) ?? c.defs.get(t.name);
  if (def === undefined || def.kind !== "enum") return null;
  const prefix = enumPrefix(ctx, def);
  return sig(c, def).variants.map((v) => ({
    name: v.name,
    display: prefix === "" ? v.name : `${prefix}.${v.name}`,
    argTypes: v.payload.map((p) => instantiate(p, def.key, t.args)),
  }));
}

function literalPat(lit: Expr): Pat {
  switch (lit.kind) {
    case "BoolLit":
      return { k: "ctor", ctor: lit.value ? TRUE_CTOR : FALSE_CTOR, args: [] };
    case "UnitLit":
      return { k: "ctor", ctor: UNIT_CTOR, args: [] };
    case "IntLit":
      return { k: "lit", value: `i${String(lit.value)}` };
    case "FloatLit":
      return { k: "lit", value: `f${String(lit.value)}` };
    case "StringLit":
      return { k: "lit", value: `s${lit.value}` };
    default:
      return WILD;
  }
}

/** The enum and variant a variant pattern names, or null (diagnosed). */
function resolveVariantPath(
  c: Checker,
  ctx: Ctx,
  path: readonly NameRef[],
): { def: DefInfo; index: number } | null {
  const last = path[path.length - 1];
  if (path.length === 1) {
    const pv = PRELUDE_VARIANTS.get(last.text);
    if (pv !== undefined) {
      const def = preludeEnumDef(pv.enumName)!;
      return { def, index: sig(c, def).variantIndex.get(last.text)! };
    }
    unknownName(
      c,
      ctx.file,
      last,
      last.text,
      "value",
      valueNameCandidates(c, ctx).filter((n) => n.includes(".") || PRELUDE_VARIANTS.has(n)),
      null,
    );
    return null;
  }
  let enumDef: DefInfo | null = null;
  const enumRef = path[path.length - 2];
  if (path.length === 2) {
    const entry = ctx.module.scope.get(enumRef.text);
    if (entry !== undefined) {
      markUsed(c, entry);
      if (entry.k === "broken") return null;
      if (entry.k === "def") enumDef = entry.def;
    } else enumDef = preludeEnumDef(enumRef.text);
    if (enumDef === null && entry === undefined) {
      unknownName(c, ctx.file, enumRef, enumRef.text, "type", typeNameCandidates(ctx), ctx.module);
      return null;
    }
  } else if (path.length === 3) {
    const entry = ctx.module.scope.get(path[0].text);
    if (entry === undefined || entry.k !== "module") {
      if (entry?.k === "broken") return null;
      report(c, D.unknownName.module({ file: ctx.file, span: path[0] }, path[0].text));
      return null;
    }
    c.usedImports.add(entry.info);
    if (entry.info.module === null) return null;
    enumDef = memberOf(c, ctx.file, entry.info.module, enumRef);
    if (enumDef === null) return null;
  } else {
    const written = path.map((p) => p.text).join(".");
    report(c, D.unknownName.path({ file: ctx.file, span: last }, "variant", written));
    return null;
  }
  if (enumDef === null || enumDef.kind !== "enum") {
    report(c, D.unknownVariant.notAnEnum({ file: ctx.file, span: enumRef }, enumRef.text));
    return null;
  }
  addRef(ctx, enumRef, enumDef, "use");
  outer(ctx, enumRef, enumDef.module === null ? null : enumDef.key);
  const index = sig(c, enumDef).variantIndex.get(last.text);
  if (index === undefined) {
    report(c, D.unknownVariant.ofEnum({ file: ctx.file, span: last }, enumDef.name, last.text));
    return null;
  }
  return { def: enumDef, index };
}

/** Checks a pattern against a type, declaring its bindings; null when it had an error. */
function checkPattern(
  c: Checker,
  ctx: Ctx,
  p: Pattern,
  type: Type,
  bound: Map<string, NameDecl>,
): Pat | null {
  switch (p.kind) {
    case "WildcardPattern":
      return WILD;
    case "Error":
      return null;
    case "BindingPattern": {
      bindIn(c, ctx, p.name, type, bound);
      return WILD;
    }
    case "LiteralPattern": {
      const lt = inferExpr(c, ctx, p.literal, "use");
      if (!unify(ctx.s, lt, type)) {
        mismatch(c, ctx, p, type, lt, null);
        return null;
      }
      return literalPat(p.literal);
    }
    case "VariantPattern": {
      const resolved = resolveVariantPath(c, ctx, p.path);
      if (resolved === null) {
        for (const a of p.args ?? []) checkPattern(c, ctx, a, ERROR, bound);
        return null;
      }
      const { def, index } = resolved;
      c.resolutions?.variants.set(p, { enumKey: def.key, index });
      const signature = sig(c, def);
      const args = signature.typeParams.map(() => freshVar(ctx.s) as Type);
      const enumType = conOf(def, args);
      let ok = true;
      if (!unify(ctx.s, enumType, type)) {
        mismatch(c, ctx, p, type, enumType, null);
        ok = false;
      }
      const variant = signature.variants[index];
      const payload = variant.payload.map((t) => instantiate(t, def.key, args));
      const given = p.args ?? [];
      if (given.length !== payload.length) {
        const at = { file: ctx.file, span: p };
        report(c, D.argumentCount.pattern(at, variant.name, payload.length, given.length));
        for (const a of given) checkPattern(c, ctx, a, ERROR, bound);
        return null;
      }
      const sub: Pat[] = [];
      for (let i = 0; i < given.length; i++) {
        const sp = checkPattern(c, ctx, given[i], ok ? payload[i] : ERROR, bound);
        if (sp === null) ok = false;
        sub.push(sp ?? WILD);
      }
      if (!ok) return null;
      const prefix = def.module === null ? "" : enumPrefix(ctx, def);
      const ctor: Ctor = {
        name: variant.name,
        display: prefix === "" ? variant.name : `${prefix}.${variant.name}`,
        argTypes: payload,
      };
      return { k: "ctor", ctor, args: sub };
    }
    case "ListPattern": {
      const element = freshVar(ctx.s);
      const listType = listOf(element);
      let ok = true;
      if (!unify(ctx.s, listType, type)) {
        mismatch(c, ctx, p, type, listType, null);
        ok = false;
      }
      const el = ok ? element : ERROR;
      const subs: Pat[] = [];
      for (const e of p.elements) {
        const sp = checkPattern(c, ctx, e, el, bound);
        if (sp === null) ok = false;
        subs.push(sp ?? WILD);
      }
      if (p.rest !== null && p.rest.binding !== null) {
        bindIn(c, ctx, p.rest.binding, ok ? listType : ERROR, bound);
      }
      if (!ok) return null;
      const [nil, cons] = listCtors(element);
      let tail: Pat = p.rest !== null ? WILD : { k: "ctor", ctor: nil, args: [] };
      for (let i = subs.length - 1; i >= 0; i--) {
        tail = { k: "ctor", ctor: cons, args: [subs[i], tail] };
      }
      return tail;
    }
  }
}

function bindIn(
  c: Checker,
  ctx: Ctx,
  decl: NameDecl,
  type: Type,
  bound: Map<string, NameDecl>,
): void {
  const first = bound.get(decl.text);
  if (first !== undefined) {
    const labels = [{ file: ctx.file, span: spanOf(first), message: "first bound here" }];
    report(c, D.duplicateBinding.binding({ file: ctx.file, span: decl, labels }, decl.text));
    return;
  }
  bound.set(decl.text, decl);
  declare(ctx, decl, type, "pattern");
}

// ---------------------------------------------------------------- module lints

function lintImports(c: Checker, m: ModuleInfo): void {
  for (const info of m.imports) {
    if (info.module === null) continue; // unknown module: already an error
    const node = info.node;
    if (node.names === null) {
      if (
        c.usedImports.has(info) ||
        m.scope.get(node.alias?.text ?? node.path[node.path.length - 1].text)?.k !== "module"
      ) continue;
      report(c, unusedImport(m, node, info.moduleName, removeImport(m.file, m.bytes, node)));
      continue;
    }
    info.names.forEach((name, index) => {
      if (c.usedImports.has(name) || name.def === null) return;
      const entry = m.scope.get(name.ref.text);
      if (entry === undefined || entry.k !== "def" || entry.via !== name) return;
      const edit = removeImportName(m.file, m.bytes, node, index);
      report(c, unusedImport(m, name.ref, name.ref.text, edit));
    });
  }
}

function unusedImport(
  m: ModuleInfo,
  span: Span,
  name: string,
  edit: Fix["edits"][number],
): Diagnostic {
  return D.unusedImport.name({
    file: m.file,
    span,
    fixes: [{
      title: "remove the unused import",
      applicability: "automatic",
      precondition: { kind: "none" },
      edits: [edit],
    }],
  }, name);
}
