/**
 * Inference: the type of every expression, checked against what its place
 * expects (bidirectionally, so an error lands on the branch that is wrong),
 * with operators, calls, field access, record literals and `match`.
 *
 * @module
 */
import { DIAGNOSTICS as D, type Fix, type Span } from "../base/mod.ts";
import type {
  BinaryExpr,
  Block,
  CallExpr,
  Expr,
  FieldExpr,
  MatchExpr,
  NameDecl,
  RecordLit,
  UnaryExpr,
} from "../syntax/mod.ts";
import { budget, isUseful, MATCH_BUDGET, missingPatterns, type Pat, WILD } from "./exhaustive.ts";
import {
  BOOL,
  ERROR,
  freshVar,
  hasFreeVars,
  instantiate,
  INT,
  listOf,
  shallow,
  showType,
  type Type,
  unify,
  UNIT,
  zonk,
} from "./types.ts";
import { checkPattern, ctorsOfType, MISSING_COUNTED, nonExhaustive } from "./check_patterns.ts";
import { memberOf, resolveType } from "./check_resolve.ts";
import {
  calleeText,
  conversion,
  declaredSignature,
  noteShadowing,
  shadowedPrelude,
  writable,
} from "./check_teach.ts";
import {
  type Checker,
  type Ctx,
  declare,
  defByKey,
  expectType,
  literalType,
  mismatch,
  popScope,
  pushScope,
  type Reason,
  report,
  sig,
  spanOf,
  variantsHelp,
} from "./check_state.ts";
import {
  calleeDef,
  defAsValue,
  namespaceOf,
  outer,
  valueName,
  variantValue,
} from "./check_values.ts";

/** Checks an expression against an expected type, pushing it into branches for precise errors. */
export function checkExpr(
  c: Checker,
  ctx: Ctx,
  e: Expr,
  expected: Type,
  reason: Reason | null,
): void {
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
        // Inferred on its own, the list shows its element type: `List[Int]`, not `List[_]`.
        mismatch(c, ctx, e, expected, inferExpr(c, ctx, e, "use"), reason);
        return;
      }
      for (const el of e.elements) checkExpr(c, ctx, el, element, reason);
      return;
    }
    case "ReturnExpr":
      inferExpr(c, ctx, e, "use");
      return;
    case "BinaryExpr": {
      // The expected type tells which conversion would repair mismatched operands.
      const found = inferBinary(c, ctx, e, expected);
      expectType(c, ctx, e, found, expected, reason, true);
      return;
    }
  }
  const found = inferExpr(c, ctx, e, "use");
  expectType(c, ctx, e, found, expected, reason, true);
}

export function checkBlock(
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
    } else if (
      st.value.kind === "CallExpr" && st.value.typeArgs !== null && st.binding.kind === "NameDecl"
    ) {
      type = inferCallWithTypeArgs(c, ctx, st.value, st.binding);
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
export function inferExpr(c: Checker, ctx: Ctx, e: Expr, role: "call" | "use"): Type {
  switch (e.kind) {
    case "IntLit":
    case "FloatLit":
    case "StringLit":
    case "BoolLit":
    case "UnitLit":
      return literalType(e);
    case "Error":
      return ERROR;
    case "NameExpr":
      return valueName(c, ctx, e.name, role);
    case "FieldExpr":
      return inferField(c, ctx, e, role);
    case "ParenExpr":
      return inferExpr(c, ctx, e.inner, "use");
    case "CallExpr":
      return e.typeArgs === null
        ? inferCall(c, ctx, e.callee, e.args, e)
        : inferCallWithTypeArgs(c, ctx, e, null);
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
        if (shallow(ctx.s, operand).kind !== "error" && !unify(ctx.s, operand, BOOL)) {
          const at = { file: ctx.file, span: { start: e.start, end: e.start + 1 } };
          report(c, D.badOperands.not(at, showType(ctx.s, zonk(ctx.s, operand))));
        }
        return BOOL;
      }
      const t = inferExpr(c, ctx, e.operand, "use");
      recordOperands(c, ctx, e, t);
      const r = shallow(ctx.s, t);
      if (
        !(r.kind === "var" || r.kind === "error" ||
          (r.kind === "con" && (r.name === "Int" || r.name === "Float")))
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

export const COMPARISONS = new Set(["<", "<=", ">", ">="]);

/** Whether a binary operator takes operands of this (already unified) type. */
export function operandTypeFits(op: string, t: Type): boolean {
  if (t.kind === "var" || t.kind === "error") return true;
  if (op === "==" || op === "!=") return true;
  if (t.kind !== "con") return false;
  if (op === "&&" || op === "||") return t.name === "Bool";
  if (t.name === "Int" || t.name === "Float") return true;
  return t.name === "String" && (op === "+" || COMPARISONS.has(op));
}

/** With resolutions: the operand type, zonked when the body is done. */
export function recordOperands(c: Checker, ctx: Ctx, e: BinaryExpr | UnaryExpr, type: Type): void {
  if (c.resolutions === null) return;
  c.resolutions.operands.set(e, type);
  ctx.operators.push(e);
}

/**
 * Operands are inferred on their own, then required to agree with each
 * other and with the operator (§7.3.4): a wrong operand type is one N0310
 * at the operator naming both types, never a mismatch at one operand.
 */
export function inferBinary(
  c: Checker,
  ctx: Ctx,
  e: Expr & { kind: "BinaryExpr" },
  expected: Type | null = null,
): Type {
  const op = e.op;
  const logical = op === "&&" || op === "||";
  const result = logical || op === "==" || op === "!=" || COMPARISONS.has(op) ? BOOL : null;
  const left = inferExpr(c, ctx, e.left, "use");
  recordOperands(c, ctx, e, left);
  const right = inferExpr(c, ctx, e.right, "use");
  const l = shallow(ctx.s, left);
  const r = shallow(ctx.s, right);
  if (l.kind === "error" || r.kind === "error") return result ?? ERROR;
  const fits = logical
    ? unify(ctx.s, left, BOOL) && unify(ctx.s, right, BOOL)
    : unify(ctx.s, left, right) && operandTypeFits(op, shallow(ctx.s, left));
  if (!fits) {
    const span = { start: e.opStart, end: e.opStart + op.length };
    const shown = (t: Type) => showType(ctx.s, zonk(ctx.s, t));
    const at = { file: ctx.file, span, ...conversion(ctx, e, l, r, expected) };
    report(c, D.badOperands.binary(at, op, shown(left), shown(right)));
    return result ?? ERROR;
  }
  return result ?? left;
}

export function inferField(c: Checker, ctx: Ctx, e: FieldExpr, role: "call" | "use"): Type {
  const ns = namespaceOf(c, ctx, e.target);
  if (ns !== null) {
    if (ns.kind === "module") {
      if (ns.module === null) return ERROR;
      const def = memberOf(c, ctx.file, ns.module, e.name);
      if (def === null) return ERROR;
      if (def.kind === "function") c.resolutions?.values.set(e, { kind: "function", key: def.key });
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
      const at = { file: ctx.file, span: e.name, labels, help: variantsHelp(c, def) };
      report(c, D.unknownVariant.ofEnum(at, def.name, e.name.text));
      return ERROR;
    }
    c.resolutions?.values.set(e, { kind: "variant", enumKey: def.key, index });
    return variantValue(c, ctx, def, index);
  }
  const target = inferExpr(c, ctx, e.target, "use");
  const t = shallow(ctx.s, target);
  if (t.kind === "error") return ERROR;
  if (t.kind === "con") {
    const def = defByKey(c, t.name);
    if (def !== undefined && def.kind === "record") {
      const fields = sig(c, def);
      const index = fields.fieldIndex.get(e.name.text);
      if (index !== undefined) {
        c.resolutions?.values.set(e, { kind: "field", recordKey: def.key, index });
        return instantiate(fields.fields[index].type, def.key, t.args);
      }
      const labels = def.module !== null
        ? [{ file: def.module.file, span: spanOf(def.node!.name), message: "record declared here" }]
        : [];
      const names = fields.fields.map((f) => `\`${f.name}\``);
      const help = names.length === 0
        ? `\`${def.name}\` has no fields`
        : `the fields of \`${def.name}\` are ${names.join(", ")}`;
      const at = { file: ctx.file, span: e.name, labels, help };
      report(c, D.unknownField.ofRecord(at, def.name, e.name.text));
      return ERROR;
    }
  }
  if (t.kind === "var") {
    report(c, D.cannotInfer.fieldOwner({ file: ctx.file, span: e.target }, e.name.text));
    return ERROR;
  }
  const at = { file: ctx.file, span: e.name };
  report(c, D.unknownField.ofType(at, showType(ctx.s, zonk(ctx.s, target)), e.name.text));
  return ERROR;
}

/**
 * A call written with type arguments, `empty[Int]()` (N0312). The written
 * arguments are used as the call's instantiation, so the call and what
 * receives it check as the author meant and nothing cascades. The help shows
 * the annotated `let`; when the call is a `let`'s whole value and the
 * result's type can be written in this module, the fix writes it.
 */
function inferCallWithTypeArgs(
  c: Checker,
  ctx: Ctx,
  e: CallExpr,
  binding: NameDecl | null,
): Type {
  const typeArgs = e.typeArgs!;
  const given = typeArgs.types.map((t) => resolveType(c, ctx, t));
  const declared = declaredSignature(c, ctx, e.callee);
  const result = inferCall(c, ctx, e.callee, e.args, e);
  if (declared !== null && declared.typeParams === given.length) {
    unify(ctx.s, result, instantiate(declared.result, declared.owner, given));
  }
  const resultType = zonk(ctx.s, result);
  const shown = showType(ctx.s, resultType);
  const call = `${calleeText(e.callee)}(${e.args.length === 0 ? "" : "…"})`;
  const name = binding?.text ?? "value";
  const fixes: Fix[] = binding !== null && !hasFreeVars(ctx.s, resultType) &&
      writable(ctx, resultType)
    ? [{
      title: `annotate \`${binding.text}\` as \`${shown}\` and drop the type arguments`,
      applicability: "automatic",
      precondition: { kind: "none" },
      edits: [
        {
          file: ctx.file,
          span: { start: binding.end, end: binding.end },
          replacement: `: ${shown}`,
        },
        { file: ctx.file, span: { start: typeArgs.start, end: typeArgs.end }, replacement: "" },
      ],
    }]
    : [];
  const help = `Nazm infers a call's type arguments; to fix them, ${
    binding === null ? "bind the result with an annotated `let`" : "annotate the binding"
  } instead: \`let ${name}: ${shown} = ${call};\``;
  const at = { file: ctx.file, span: { start: typeArgs.start, end: typeArgs.end }, help, fixes };
  report(c, D.typeArgumentsAtCall.call(at));
  return result;
}

export function inferCall(
  c: Checker,
  ctx: Ctx,
  callee: Expr,
  args: readonly Expr[],
  call: Span,
): Type {
  // `len` accepts a list or a string: the prelude's one overloaded function.
  if (
    callee.kind === "NameExpr" && callee.name.text === "len" && !ctx.locals.has("len") &&
    !ctx.module.scope.has("len")
  ) {
    outer(ctx, callee.name, null);
    c.resolutions?.values.set(callee.name, { kind: "prelude", name: "len" });
    if (args.length !== 1) {
      report(c, D.argumentCount.call({ file: ctx.file, span: call }, 1, args.length));
      for (const a of args) inferExpr(c, ctx, a, "use");
      return INT;
    }
    const t = inferExpr(c, ctx, args[0], "use");
    const r = shallow(ctx.s, t);
    if (r.kind === "con" && r.name === "String") return INT;
    const expected = listOf(freshVar(ctx.s));
    if (!unify(ctx.s, t, expected)) {
      const at = { file: ctx.file, span: args[0] };
      report(c, D.mismatch.listOrString(at, showType(ctx.s, zonk(ctx.s, t))));
    }
    return INT;
  }
  const calleeType = inferExpr(c, ctx, callee, "call");
  const f = shallow(ctx.s, calleeType);
  if (f.kind === "fn") {
    const target = calleeDef(ctx, callee);
    const shadowing = shadowedPrelude(target);
    if (f.params.length !== args.length) {
      const labels = [{
        file: ctx.file,
        span: spanOf(callee),
        message: `of type \`${showType(ctx.s, zonk(ctx.s, f))}\``,
      }, ...(shadowing?.labels ?? [])];
      const at = { file: ctx.file, span: call, labels, help: shadowing?.help };
      report(c, D.argumentCount.call(at, f.params.length, args.length));
      for (const a of args) inferExpr(c, ctx, a, "use");
      return f.result;
    }
    const params = target?.node?.kind === "FnDecl" ? target.node.params : null;
    for (let i = 0; i < args.length; i++) {
      const reason: Reason | null = params === null || params[i] === undefined
        ? null
        : { file: target!.module!.file, start: params[i].type.start, end: params[i].type.end };
      const before = c.diagnostics.length;
      checkExpr(c, ctx, args[i], f.params[i], reason);
      if (shadowing !== null) noteShadowing(c, before, args[i], shadowing);
    }
    return f.result;
  }
  if (f.kind === "error") {
    for (const a of args) inferExpr(c, ctx, a, "use");
    return ERROR;
  }
  if (f.kind === "var") {
    const params = args.map((a) => inferExpr(c, ctx, a, "use"));
    const result = freshVar(ctx.s);
    unify(ctx.s, f, { kind: "fn", params, result });
    return result;
  }
  report(c, D.notCallable.value({ file: ctx.file, span: callee }, showType(ctx.s, zonk(ctx.s, f))));
  for (const a of args) inferExpr(c, ctx, a, "use");
  return ERROR;
}

export function inferRecord(c: Checker, ctx: Ctx, e: RecordLit): Type {
  const type = resolveType(c, ctx, e.type, "use", ctx.s);
  const t = shallow(ctx.s, type);
  const def = t.kind === "con" ? defByKey(c, t.name) : undefined;
  if (t.kind !== "con" || def === undefined || def.kind !== "record") {
    if (t.kind !== "error") {
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

export function checkMatch(
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
  if (!sound || st.kind === "error") return result;
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
