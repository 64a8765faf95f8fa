/**
 * The checker: resolves every name and infers every type, one definition
 * at a time, after binding and linking. Results go to side tables keyed by
 * definition (links.ts: signatures, references, bodies); neither the tree
 * nor the binder's definitions are touched. A pure function of the linked
 * modules.
 *
 * This file holds the order (type parameters, signatures, bodies, lints);
 * the work is split by concern, each file importing only those below it:
 * check_state.ts (tables, context, scopes) ← check_resolve.ts (names in
 * types, module members, unknown names) ← check_values.ts (names in
 * expressions) ← check_patterns.ts (patterns, exhaustiveness) ←
 * check_infer.ts (expressions) and check_lints.ts (unused locals, imports).
 *
 @module
 */
import { type Diagnostic, DIAGNOSTICS as D } from "../base/mod.ts";
import type { FnDecl, NameDecl } from "../syntax/mod.ts";
import type { DefInfo, ModuleInfo } from "./binder.ts";
import type { BodyInfo, CheckResult, DefReferences, DefTable, Signature } from "./links.ts";
import type { LinkResult } from "./linker.ts";
import type { ModuleTable } from "./analysis.ts";
import { newResolutions } from "./resolutions.ts";
import { ERROR, hasFreeVars, newSubst, showType, type TParam, UNIT, zonker } from "./types.ts";
import { checkExpr } from "./check_infer.ts";
import { lintImports, lintUnusedLocals } from "./check_lints.ts";
import { resolveType } from "./check_resolve.ts";
import {
  type Building,
  type Checker,
  type Ctx,
  declare,
  defOfKey,
  emptySignature,
  type ModuleCheck,
  newModuleCheck,
  report,
  SideTable,
  sig,
  spanOf,
  type TypeCtx,
  typeParamMap,
} from "./check_state.ts";

export { EXPORTED_NAMES, type ModuleCheck } from "./check_state.ts";

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
  const { result, modules: checked } = checkSome(modules, linked, options, null);
  for (const m of modules) diagnostics.push(...checked.get(m)!.diagnostics);
  return result;
}

// ---------------------------------------------------------------- checking some modules again

/** A definition's (or test's) entries of the side tables, from an earlier check. */
export interface ReusedEntry {
  readonly signature: Signature;
  readonly references: DefReferences;
  readonly body: BodyInfo | undefined;
}

/** A module's earlier results, installed instead of checking it. */
export interface ReusedModule {
  readonly check: ModuleCheck;
  /** The entries of a definition of the module (`test`: of a test), found by key. */
  entry(def: DefInfo, test: boolean): ReusedEntry;
}

/** Which modules to check and which to take from earlier results (an incremental engine). */
export interface CheckPlan {
  /** The earlier results of a module whose inputs are unchanged; null checks it. */
  reused(m: ModuleInfo): ReusedModule | null;
  /**
   * Called once the signatures of `checked` are known (their side tables
   * filled): the reused modules that must be checked after all, because an
   * interface they read changed.
   */
  recheck(
    checked: readonly ModuleInfo[],
    signatures: DefTable<Signature>,
  ): ModuleInfo[];
}

/** How {@link checkSome} checks. */
export interface CheckOptions {
  /** Also record what every expression resolves to. */
  readonly resolve?: boolean;
}

/**
 * Checks the modules the plan does not reuse (all without a plan), with
 * the reused modules' results in the side tables, and returns the whole
 * compilation's results and each module's {@link ModuleCheck}.
 */
export function checkSome(
  modules: readonly ModuleInfo[],
  linked: LinkResult,
  options: CheckOptions,
  plan: CheckPlan | null,
): { result: CheckResult; modules: Map<ModuleInfo, ModuleCheck> } {
  // The reused modules' entries are read where they are, not copied
  // (SideTable); a module checked again after all leaves this map.
  const reusedOf = new Map<ModuleInfo, ReusedModule>();
  const earlier = <V>(pick: (entry: ReusedEntry) => V) => (def: DefInfo): V | undefined => {
    const reused = def.module === null ? undefined : reusedOf.get(def.module);
    // A test's entries are set, not read here (entry's `test` is false).
    const entry = reused?.entry(def, false);
    return entry === undefined ? undefined : pick(entry);
  };
  const byName = new Map(modules.map((m) => [m.name, m]));
  const c: Checker = {
    diagnostics: [],
    current: newModuleCheck(),
    allModules: () => modules,
    moduleNamed: (name) => byName.get(name),
    exportedByName: null,
    signatures: new SideTable(earlier((entry) => entry.signature as Building<Signature>)),
    references: new SideTable(earlier((entry) => entry.references)),
    bodies: new SideTable(earlier((entry) => entry.body)),
    namedFromOutside: new Set(linked.namedFromOutside),
    usedImports: new Set(),
    resolutions: options.resolve ? newResolutions() : null,
    signatureWhenNeeded: null,
  };
  const perModule = new Map<ModuleInfo, ModuleCheck>();
  let batch: ModuleInfo[] = [];
  for (const m of modules) {
    const reused = plan?.reused(m) ?? null;
    if (reused === null) {
      batch.push(m);
      continue;
    }
    perModule.set(m, reused.check);
    reusedOf.set(m, reused);
    for (const t of m.tests) {
      const entry = reused.entry(t.def, true);
      c.signatures.set(t.def, entry.signature as Building<Signature>);
      c.references.set(t.def, entry.references);
      if (entry.body !== undefined) c.bodies.set(t.def, entry.body);
    }
  }
  const checked: ModuleInfo[] = [];
  while (batch.length > 0) {
    for (const m of batch) {
      reusedOf.delete(m);
      startModule(c, m, perModule);
    }
    // Type parameters first: a signature may name a generic type of any module.
    for (const m of batch) declareModule(c, m, perModule.get(m)!);
    for (const m of batch) checkSignatures(c, m, perModule.get(m)!);
    checked.push(...batch);
    batch = plan?.recheck(batch, c.signatures) ?? [];
  }
  for (const m of checked) checkBodies(c, m, perModule.get(m)!);
  for (const m of checked) lintModuleImports(c, m, perModule.get(m)!);
  return finish(c, modules, perModule);
}

/**
 * Checks the signatures and bodies of `readers` (bound modules of `table`)
 * and, of every other module, only the signatures their bodies read, each
 * the first time it is read: what a focus needs (focus.ts). The readers'
 * results are complete; the other modules' are not, and are not to be
 * read. A module is bound when first named (its type parameters declared
 * then, before any signature can name them: a name reaches another module
 * only through an import, and linking a module binds the modules it
 * imports) and linked before any of its signatures is checked, so each
 * signature is checked in the scope a whole check gives it.
 */
export function checkFocus(
  table: ModuleTable,
  readers: readonly ModuleInfo[],
): { result: CheckResult; modules: Map<ModuleInfo, ModuleCheck> } {
  const perModule = new Map<ModuleInfo, ModuleCheck>();
  const isReader = new Set(readers);
  // The other modules' definitions, whose signatures wait until a body reads them.
  const later = new Set<DefInfo>();
  const c: Checker = {
    diagnostics: [],
    current: newModuleCheck(),
    allModules: () => table.all(),
    moduleNamed: (name) => {
      const status = table.status(name);
      return typeof status === "object" ? status : undefined;
    },
    exportedByName: null,
    signatures: new SideTable(),
    references: new SideTable(),
    bodies: new SideTable(),
    namedFromOutside: table.namedFromOutside,
    usedImports: new Set(),
    resolutions: null,
    signatureWhenNeeded: (def) => {
      if (!later.delete(def)) return;
      // What it reports goes nowhere: that module's diagnostics are not asked for.
      const m = def.module!;
      aside(c, () => {
        table.link(m);
        enterModule(c, m, newModuleCheck());
        checkSignature(c, m, def);
      });
    },
  };
  const declared = (m: ModuleInfo) =>
    aside(c, () => {
      startModule(c, m, perModule);
      declareModule(c, m, perModule.get(m)!);
      if (isReader.has(m)) return;
      for (const def of m.defs.values()) later.add(def);
      for (const def of m.duplicates) later.add(def);
    });
  for (const m of table.bound()) declared(m);
  table.onBind = declared;
  try {
    for (const m of readers) table.link(m);
    for (const m of readers) checkSignatures(c, m, perModule.get(m)!);
    for (const m of readers) checkBodies(c, m, perModule.get(m)!);
    for (const m of readers) lintModuleImports(c, m, perModule.get(m)!);
  } finally {
    table.onBind = null;
  }
  return finish(c, perModule.keys(), perModule);
}

/**
 * Runs `work` in the middle of another module's check (a module bound or a
 * signature read on the way) and then directs what follows back to that
 * module.
 */
function aside(c: Checker, work: () => void): void {
  const [current, diagnostics] = [c.current, c.diagnostics];
  work();
  c.current = current;
  c.diagnostics = diagnostics;
}

/** A module's entries in the side tables, before anything of it is checked. */
function startModule(c: Checker, m: ModuleInfo, perModule: Map<ModuleInfo, ModuleCheck>): void {
  perModule.set(m, newModuleCheck());
  for (const def of [...m.defs.values(), ...m.duplicates, ...m.tests.map((t) => t.def)]) {
    c.signatures.set(def, emptySignature());
    c.references.set(def, { refs: [], typeParamRefs: [], typeNames: [] });
  }
  // A test is a function without parameters or result.
  for (const t of m.tests) c.signatures.get(t.def)!.result = UNIT;
}

/** Declares a module's type parameters: a signature may name a generic type of any module. */
function declareModule(c: Checker, m: ModuleInfo, check: ModuleCheck): void {
  enterModule(c, m, check);
  for (const def of m.defs.values()) declareTypeParams(c, m, def, def.node!.typeParams);
  for (const def of m.duplicates) declareTypeParams(c, m, def, def.node!.typeParams);
}

function checkSignatures(c: Checker, m: ModuleInfo, check: ModuleCheck): void {
  enterModule(c, m, check);
  for (const def of m.defs.values()) checkSignature(c, m, def);
  for (const def of m.duplicates) checkSignature(c, m, def);
}

function checkBodies(c: Checker, m: ModuleInfo, check: ModuleCheck): void {
  enterModule(c, m, check);
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

function lintModuleImports(c: Checker, m: ModuleInfo, check: ModuleCheck): void {
  enterModule(c, m, check);
  lintImports(c, m);
}

/** The check's results, once the private names `modules` named from outside are in. */
function finish(
  c: Checker,
  modules: Iterable<ModuleInfo>,
  perModule: Map<ModuleInfo, ModuleCheck>,
): { result: CheckResult; modules: Map<ModuleInfo, ModuleCheck> } {
  for (const m of modules) {
    for (const key of perModule.get(m)!.namedFromOutside) c.namedFromOutside.add(defOfKey(c, key)!);
  }
  return {
    result: {
      signatures: c.signatures,
      references: c.references,
      bodies: c.bodies,
      namedFromOutside: c.namedFromOutside,
      resolutions: c.resolutions,
    },
    modules: perModule,
  };
}

/** Directs what follows to `m`'s results; a module reads its own interface and its imports'. */
function enterModule(c: Checker, m: ModuleInfo, check: ModuleCheck): void {
  c.current = check;
  c.diagnostics = check.diagnostics;
  check.reads.add(m.name);
  for (const info of m.imports) check.reads.add(info.moduleName);
}

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
    params.push({ kind: "param", owner: def.key, index, name: d.text });
  });
  c.signatures.get(def)!.typeParams = params;
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
    patterns: [],
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
  // The body is checked: its substitution is final, so one zonker serves every type of it.
  const zonked = zonker(ctx.s);
  const operands = c.resolutions?.operands;
  if (operands !== undefined) {
    for (const op of ctx.operators) operands.set(op, zonked(operands.get(op)!));
    for (const { local, decl } of ctx.lets) c.resolutions!.lets.set(decl, zonked(local.type));
    for (const local of ctx.patterns) c.resolutions!.patterns.set(local.decl, zonked(local.type));
  }
  // Lints and inference failures, once the whole body constrained the variables.
  for (const { local, decl } of ctx.lets) {
    if (hasFreeVars(ctx.s, local.type)) {
      // What is known of the type, with `_` for what is not, shows what to write.
      const known = showType(ctx.s, zonked(local.type));
      const help = known === "_"
        ? `annotate the binding with its type, as in \`let ${decl.text}: List[Int] = …\``
        : `annotate the binding with its type, \`${known}\` with each \`_\` written out, as in \`let ${decl.text}: ${
          known.replaceAll("_", "Int")
        } = …\``;
      report(c, D.cannotInfer.binding({ file: m.file, span: decl, help }, decl.text));
    }
  }
  for (const b of body.bindings) {
    if (b.kind !== "type_parameter") continue;
    for (const r of refs.typeParamRefs) {
      if (r.name === b.name) b.references.push({ span: r.span, scope: 0 });
    }
  }
  lintUnusedLocals(c, m.file, body);
}
