/**
 * Patterns: checking a pattern against the scrutinee's type (declaring its
 * bindings) and translating it for the usefulness check (exhaustive.ts),
 * which yields the missing patterns of N0306 and its fix.
 *
 * @module
 */
import { DIAGNOSTICS as D } from "../base/mod.ts";
import type { Expr, MatchExpr, NameDecl, NameRef, Pattern } from "../syntax/mod.ts";
import type { DefInfo } from "./binder.ts";
import {
  CONS_NAME,
  type Ctor,
  type Missing,
  NIL_NAME,
  type Pat,
  showPat,
  WILD,
} from "./exhaustive.ts";
import { addArms } from "./fixes.ts";
import { PRELUDE_VARIANTS } from "./prelude.ts";
import { ERROR, freshVar, instantiate, listOf, shallow, type Type, unify } from "./types.ts";
import { memberOf, typeNameCandidates, unknownName, valueNameCandidates } from "./check_resolve.ts";
import {
  addRef,
  type Checker,
  conOf,
  type Ctx,
  declare,
  defByKey,
  literalType,
  markUsed,
  mismatch,
  preludeEnumDef,
  report,
  sig,
  spanOf,
  variantsHelp,
} from "./check_state.ts";
import { outer } from "./check_values.ts";

/** Missing patterns named in an N0306 message; the rest are counted. */
export const MISSING_LISTED = 16;

/** Missing patterns counted exactly; past this, "and more". */
export const MISSING_COUNTED = 1000;

/** The most arms the fix adds one by one; past this, the listed ones and `_`. */
export const MISSING_ARMS = 64;

/**
 * N0306: the message lists the missing patterns (the first 16, then how
 * many more), and the fix adds one arm per missing pattern — or, when
 * there are too many to write out or they could not all be found, the
 * listed ones and a final `_` — so that one application completes the
 * match. The patterns are disjoint, so no added arm is unreachable.
 */
export function nonExhaustive(c: Checker, ctx: Ctx, e: MatchExpr, missing: Missing): void {
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
export function enumPrefix(ctx: Ctx, def: DefInfo): string {
  if (def.module === null) return "";
  const direct = ctx.module.scope.get(def.name);
  if (direct !== undefined && direct.kind === "def" && direct.def === def) return def.name;
  for (const info of ctx.module.imports) {
    if (info.module === def.module && info.node.names === null) {
      const alias = info.node.alias?.text ?? info.node.path[info.node.path.length - 1].text;
      const entry = ctx.module.scope.get(alias);
      if (entry !== undefined && entry.kind === "module" && entry.info === info) {
        return `${alias}.${def.name}`;
      }
    }
  }
  return def.name;
}

export const TRUE_CTOR: Ctor = { name: "true", display: "true", argTypes: [] };

export const FALSE_CTOR: Ctor = { name: "false", display: "false", argTypes: [] };

export const UNIT_CTOR: Ctor = { name: "()", display: "()", argTypes: [] };

export function listCtors(element: Type): Ctor[] {
  return [
    { name: NIL_NAME, display: "[]", argTypes: [] },
    { name: CONS_NAME, display: "::", argTypes: [element, listOf(element)] },
  ];
}

export function ctorsOfType(c: Checker, ctx: Ctx, type: Type): Ctor[] | null {
  const t = shallow(ctx.s, type);
  if (t.kind !== "con") return null;
  switch (t.name) {
    case "Bool":
      return [TRUE_CTOR, FALSE_CTOR];
    case "Unit":
      return [UNIT_CTOR];
    case "List":
      return listCtors(t.args[0]);
  }
  const def = preludeEnumDef(t.name) ?? defByKey(c, t.name);
  if (def === undefined || def.kind !== "enum") return null;
  const prefix = enumPrefix(ctx, def);
  return sig(c, def).variants.map((v) => ({
    name: v.name,
    display: prefix === "" ? v.name : `${prefix}.${v.name}`,
    argTypes: v.payload.map((p) => instantiate(p, def.key, t.args)),
  }));
}

export function literalPat(lit: Expr): Pat {
  switch (lit.kind) {
    case "BoolLit":
      return { kind: "ctor", ctor: lit.value ? TRUE_CTOR : FALSE_CTOR, args: [] };
    case "UnitLit":
      return { kind: "ctor", ctor: UNIT_CTOR, args: [] };
    case "IntLit":
      return { kind: "lit", value: `i${String(lit.value)}` };
    case "FloatLit":
      return { kind: "lit", value: `f${String(lit.value)}` };
    case "StringLit":
      return { kind: "lit", value: `s${lit.value}` };
    default:
      return WILD;
  }
}

/** The enum and variant a variant pattern names, or null (diagnosed). */
export function resolveVariantPath(
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
      if (entry.kind === "broken") return null;
      if (entry.kind === "def") enumDef = entry.def;
    } else enumDef = preludeEnumDef(enumRef.text);
    if (enumDef === null && entry === undefined) {
      unknownName(c, ctx.file, enumRef, enumRef.text, "type", typeNameCandidates(ctx), ctx.module);
      return null;
    }
  } else if (path.length === 3) {
    const entry = ctx.module.scope.get(path[0].text);
    if (entry === undefined || entry.kind !== "module") {
      if (entry?.kind === "broken") return null;
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
    const at = { file: ctx.file, span: last, help: variantsHelp(c, enumDef) };
    report(c, D.unknownVariant.ofEnum(at, enumDef.name, last.text));
    return null;
  }
  return { def: enumDef, index };
}

/** Checks a pattern against a type, declaring its bindings; null when it had an error. */
export function checkPattern(
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
      const lt = literalType(p.literal);
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
      return { kind: "ctor", ctor, args: sub };
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
      let tail: Pat = p.rest !== null ? WILD : { kind: "ctor", ctor: nil, args: [] };
      for (let i = subs.length - 1; i >= 0; i--) {
        tail = { kind: "ctor", ctor: cons, args: [subs[i], tail] };
      }
      return tail;
    }
  }
}

export function bindIn(
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
  const local = declare(ctx, decl, type, "pattern");
  if (c.resolutions !== null) ctx.patterns.push(local);
}
