/**
 * Names in expressions that are not locals: definitions, module members,
 * prelude functions and variants, and what stands before a `.` (a module
 * alias or an enum). Each records its reference and its outer name.
 *
 * @module
 */
import { DIAGNOSTICS as D } from "../base/mod.ts";
import type { Expr, NameRef } from "../syntax/mod.ts";
import { type DefInfo, type ImportInfo, type ModuleInfo, withArticle } from "./binder.ts";
import {
  PRELUDE_FUNCTIONS,
  PRELUDE_TYPES,
  PRELUDE_VARIANTS,
  type PreludeFunction,
} from "./prelude.ts";
import { ERROR, freshVar, instantiate, type Type } from "./types.ts";
import { unknownName, valueNameCandidates } from "./check_resolve.ts";
import {
  addRef,
  type Checker,
  conOf,
  type Ctx,
  markUsed,
  preludeEnumDef,
  report,
  sig,
} from "./check_state.ts";

export function instantiatePrelude(ctx: Ctx, f: PreludeFunction): Type {
  const owner = `prelude::${f.name}`;
  const args = f.typeParams.map(() => freshVar(ctx.s) as Type);
  return {
    kind: "fn",
    params: f.params.map((p) => instantiate(p.type, owner, args)),
    result: instantiate(f.result, owner, args),
  };
}

export function instantiateFn(c: Checker, ctx: Ctx, def: DefInfo): Type {
  const signature = sig(c, def);
  const args = signature.typeParams.map(() => freshVar(ctx.s) as Type);
  return {
    kind: "fn",
    params: signature.params.map((p) => instantiate(p.type, def.key, args)),
    result: instantiate(signature.result, def.key, args),
  };
}

export function variantValue(c: Checker, ctx: Ctx, def: DefInfo, index: number): Type {
  const signature = sig(c, def);
  const args = signature.typeParams.map(() => freshVar(ctx.s) as Type);
  const result = conOf(def, args);
  const payload = signature.variants[index].payload;
  if (payload.length === 0) return result;
  return { kind: "fn", params: payload.map((p) => instantiate(p, def.key, args)), result };
}

export function outer(ctx: Ctx, ref: NameRef, key: string | null): void {
  ctx.body.outerNames.push({
    name: ref.text,
    span: { start: ref.start, end: ref.end },
    scope: ctx.scope,
    key,
    namespace: "value",
  });
}

/** A bare name in an expression. */
export function valueName(c: Checker, ctx: Ctx, ref: NameRef, role: "call" | "use"): Type {
  const name = ref.text;
  const local = ctx.locals.get(name);
  if (local !== undefined) {
    local.binding.references.push({ span: { start: ref.start, end: ref.end }, scope: ctx.scope });
    c.resolutions?.values.set(ref, { kind: "local", decl: local.decl });
    return local.type;
  }
  const entry = ctx.module.scope.get(name);
  if (entry !== undefined) {
    markUsed(c, entry);
    if (entry.kind === "broken") {
      outer(ctx, ref, null);
      return ERROR;
    }
    if (entry.kind === "module") {
      outer(ctx, ref, null);
      report(c, D.typeAsValue.notAValue({ file: ctx.file, span: ref }, name, "a module"));
      return ERROR;
    }
    outer(ctx, ref, entry.def.key);
    if (entry.def.kind === "function") {
      c.resolutions?.values.set(ref, { kind: "function", key: entry.def.key });
    }
    return defAsValue(c, ctx, ref, entry.def, role);
  }
  outer(ctx, ref, null);
  const pf = PRELUDE_FUNCTIONS.get(name);
  if (pf !== undefined) {
    c.resolutions?.values.set(ref, { kind: "prelude", name });
    return instantiatePrelude(ctx, pf);
  }
  const pv = PRELUDE_VARIANTS.get(name);
  if (pv !== undefined) {
    const def = preludeEnumDef(pv.enumName)!;
    const index = sig(c, def).variantIndex.get(name)!;
    c.resolutions?.values.set(ref, { kind: "variant", enumKey: def.key, index });
    return variantValue(c, ctx, def, index);
  }
  if (PRELUDE_TYPES.has(name) || ctx.typeParams.has(name)) {
    report(c, D.typeAsValue.notAValue({ file: ctx.file, span: ref }, name, "a type"));
    return ERROR;
  }
  unknownName(c, ctx.file, ref, name, "value", valueNameCandidates(c, ctx), ctx.module);
  return ERROR;
}

export function defAsValue(
  c: Checker,
  ctx: Ctx,
  ref: NameRef,
  def: DefInfo,
  role: "call" | "use",
): Type {
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

export type Namespace =
  | { readonly kind: "module"; readonly module: ModuleInfo | null; readonly info: ImportInfo }
  | { readonly kind: "type"; readonly def: DefInfo; readonly ref: NameRef };

/**
 * What `expr` names when it stands before a `.`: a module alias or an
 * enum/record (possibly through an alias); null for an ordinary value.
 * Records the reference it resolves.
 */
export function namespaceOf(c: Checker, ctx: Ctx, expr: Expr): Namespace | null {
  if (expr.kind === "NameExpr") {
    const name = expr.name.text;
    if (ctx.locals.has(name)) return null;
    const entry = ctx.module.scope.get(name);
    if (entry !== undefined) {
      if (entry.kind === "module") {
        c.usedImports.add(entry.info);
        outer(ctx, expr.name, null);
        return { kind: "module", module: entry.info.module, info: entry.info };
      }
      if (entry.kind === "def" && entry.def.kind !== "function") {
        markUsed(c, entry);
        outer(ctx, expr.name, entry.def.key);
        addRef(ctx, expr.name, entry.def, "use");
        return { kind: "type", def: entry.def, ref: expr.name };
      }
      return null;
    }
    const pe = preludeEnumDef(name);
    if (pe !== null) {
      outer(ctx, expr.name, null);
      return { kind: "type", def: pe, ref: expr.name };
    }
    return null;
  }
  if (expr.kind === "FieldExpr" && expr.target.kind === "NameExpr") {
    // `alias.Enum` before `.Variant`: peek first, so that a member that is
    // not a type is resolved (and diagnosed) once, as a value, by the caller.
    const aliasRef = expr.target.name;
    if (ctx.locals.has(aliasRef.text)) return null;
    const entry = ctx.module.scope.get(aliasRef.text);
    if (entry === undefined || entry.kind !== "module" || entry.info.module === null) return null;
    const def = entry.info.module.defs.get(expr.name.text);
    if (def === undefined || def.kind === "function" || !def.exported) return null;
    c.usedImports.add(entry.info);
    outer(ctx, aliasRef, null);
    addRef(ctx, expr.name, def, "use");
    return { kind: "type", def, ref: expr.name };
  }
  return null;
}

/** The user function a callee names, looked up without recording anything. */
export function calleeDef(ctx: Ctx, callee: Expr): DefInfo | null {
  if (callee.kind === "NameExpr") {
    if (ctx.locals.has(callee.name.text)) return null;
    const entry = ctx.module.scope.get(callee.name.text);
    return entry?.kind === "def" && entry.def.kind === "function" ? entry.def : null;
  }
  if (callee.kind === "FieldExpr" && callee.target.kind === "NameExpr") {
    if (ctx.locals.has(callee.target.name.text)) return null;
    const entry = ctx.module.scope.get(callee.target.name.text);
    if (entry?.kind !== "module" || entry.info.module === null) return null;
    const def = entry.info.module.defs.get(callee.name.text);
    return def !== undefined && def.exported && def.kind === "function" ? def : null;
  }
  return null;
}
