/**
 * What the checker's diagnostics add to teach a newcomer: the conversion
 * that reconciles mismatched operands, the note at a call of a definition
 * that hides a prelude function, what to write instead of type arguments at
 * a call, and the variants an enum has. Plain functions over the checker's
 * state; nothing here reports.
 *
 * @module
 */
import { DIAGNOSTICS as D, type Fix, type Label } from "../base/mod.ts";
import type { Expr } from "../syntax/mod.ts";
import type { DefInfo } from "./binder.ts";
import { PRELUDE_FUNCTIONS, PRELUDE_TYPES } from "./prelude.ts";
import { shallow, type Type } from "./types.ts";
import { type Checker, conName, type Ctx, preludeInScope, sig, wrapIn } from "./check_state.ts";
import { calleeDef } from "./check_values.ts";

const ARITHMETIC = new Set(["+", "-", "*", "/", "%"]);
const COMPARISONS = new Set(["<", "<=", ">", ">="]);

/**
 * Help, and a fix where the repair is certain, for operands that a
 * conversion would reconcile: `"n = " + n` needs `to_string(n)`, `r * 3.14`
 * with `r: Int` needs `int_to_float(r)`. The fix is offered only when the
 * expected type says the converted result fits there, so that the repaired
 * program checks.
 */
export function conversion(
  ctx: Ctx,
  e: Expr & { kind: "BinaryExpr" },
  left: Type,
  right: Type,
  expected: Type | null,
): { help?: string; fixes?: Fix[] } {
  const l = conName(left);
  const r = conName(right);
  if (l === null || r === null) return {};
  const want = expected === null ? null : conName(shallow(ctx.s, expected));
  const offer = (operand: Expr, fn: string, result: string): Fix[] =>
    want === result && preludeInScope(ctx, fn) ? [wrapIn(ctx, operand, fn)] : [];
  if (e.op === "+" && (l === "String") !== (r === "String")) {
    const other = l === "String" ? e.right : e.left;
    return {
      help: `\`+\` joins two strings: make text of the \`${
        l === "String" ? r : l
      }\` with \`to_string\``,
      fixes: offer(other, "to_string", "String"),
    };
  }
  if ((l === "Int" && r === "Float") || (l === "Float" && r === "Int")) {
    if (!ARITHMETIC.has(e.op) && !COMPARISONS.has(e.op)) return {};
    const int = l === "Int" ? e.left : e.right;
    return {
      help:
        "Nazm does not mix `Int` and `Float`: convert one side, the `Int` with `int_to_float` or the `Float` with `float_to_int` (which truncates toward zero)",
      fixes: COMPARISONS.has(e.op) ? [] : offer(int, "int_to_float", "Float"),
    };
  }
  return {};
}

/** What an error at a call of a definition that shadows a prelude function adds. */
export interface Shadowing {
  readonly labels: readonly Label[];
  readonly help: string;
}

/**
 * When the called definition has a prelude function's name, the label and
 * help that say so: an argument error at such a call most likely comes from
 * a call written for the prelude's function, which the definition hides.
 */
export function shadowedPrelude(target: DefInfo | null): Shadowing | null {
  const prelude = target === null ? undefined : PRELUDE_FUNCTIONS.get(target.name);
  if (prelude === undefined || target!.node === null || target!.module === null) return null;
  const name = target!.name;
  return {
    labels: [{
      file: target!.module.file,
      span: { start: target!.node.name.start, end: target!.node.name.end },
      message: `\`${name}\` is defined here, and hides the prelude's \`${name}\``,
    }],
    help:
      `this calls the program's own \`${name}\`, not the prelude's \`${prelude.signature}\`; rename that definition to reach the prelude's`,
  };
}

/** Adds the shadowing note to the mismatch just reported at an argument, if any. */
export function noteShadowing(c: Checker, from: number, arg: Expr, shadowing: Shadowing): void {
  for (let i = from; i < c.diagnostics.length; i++) {
    const d = c.diagnostics[i];
    if (d.code !== D.mismatch.code || d.span?.start !== arg.start || d.span.end !== arg.end) {
      continue;
    }
    c.diagnostics[i] = { ...d, labels: [...d.labels, ...shadowing.labels], help: shadowing.help };
  }
}

/** A callee's generic signature, when it names a function of the program or the prelude. */
export function declaredSignature(
  c: Checker,
  ctx: Ctx,
  callee: Expr,
): { typeParams: number; result: Type; owner: string } | null {
  const def = calleeDef(ctx, callee);
  if (def !== null) {
    const signature = sig(c, def);
    return { typeParams: signature.typeParams.length, result: signature.result, owner: def.key };
  }
  if (callee.kind === "NameExpr" && preludeInScope(ctx, callee.name.text)) {
    const f = PRELUDE_FUNCTIONS.get(callee.name.text);
    if (f !== undefined) {
      return { typeParams: f.typeParams.length, result: f.result, owner: `prelude::${f.name}` };
    }
  }
  return null;
}

/** The callee as written, for help text: `empty`, `lists.empty`, or `…`. */
export function calleeText(callee: Expr): string {
  if (callee.kind === "NameExpr") return callee.name.text;
  if (callee.kind === "FieldExpr" && callee.target.kind === "NameExpr") {
    return `${callee.target.name.text}.${callee.name.text}`;
  }
  return "…";
}

/** Whether a type, as shown, names itself in this module (so an annotation can be written). */
export function writable(ctx: Ctx, t: Type): boolean {
  switch (t.kind) {
    case "con": {
      const entry = ctx.module.scope.get(t.display);
      const named = entry === undefined
        ? PRELUDE_TYPES.has(t.name)
        : entry.kind === "def" && entry.def.key === t.name;
      return named && t.args.every((a) => writable(ctx, a));
    }
    case "param":
      return ctx.typeParams.has(t.name);
    case "fn":
      return t.params.every((p) => writable(ctx, p)) && writable(ctx, t.result);
    default:
      return false;
  }
}
