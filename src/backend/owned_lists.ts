/**
 * Which list parameters of a self-tail-recursive function the lowering may
 * update in place: the loop walks a list (`[x, ..rest] => f(rest, …)`) or
 * builds one (`f(…, push(acc, x))`) without a new list object each turn.
 *
 * At the function's entry such a parameter is copied once (`$own`): the
 * copy is the function's alone, so moving its start (`rest`) or pushing onto
 * it cannot be seen by anyone — provided the copy never escapes while the
 * loop still runs. That is what this analysis proves, conservatively. A
 * list parameter `p` qualifies when every use of `p`, and of the rest `r`
 * of a list pattern of a `match p` in tail position, is one of:
 *
 * - the scrutinee of a `match`, or the argument of `len` (reads that keep nothing);
 * - in `p`'s own place in a self tail call: `p`, `r`, `push(p, x)`, or an
 *   `if` choosing between such forms (the loop's next state);
 * - anywhere inside a tail region with no self tail call: such a region
 *   ends the function, so nothing is moved or pushed after it (a rest used
 *   there is made into a list of its own).
 *
 * A function with a `return` anywhere is left alone, and so is a parameter
 * any other use touches. Values are immutable, so this is an optimization
 * only: the program's results are the same either way.
 *
 * @module
 */
import type { CallExpr, Expr, NameDecl, NameRef } from "../syntax/mod.ts";
import { walk } from "../syntax/mod.ts";
import type { FunctionView, ProgramView } from "./checked.ts";

/** The parameters (by index) the lowering may copy once and then update in place. */
export function ownedListParams(fn: FunctionView, program: ProgramView): ReadonlySet<number> {
  if (!fn.listParams.some((x) => x)) return new Set();
  let hasReturn = false;
  walk(fn.node.body, (node) => {
    if (node.kind === "ReturnExpr") hasReturn = true;
    return !hasReturn;
  });
  if (hasReturn) return new Set();
  return new Analysis(fn, program).run();
}

class Analysis {
  readonly #params = new Map<NameDecl, number>();
  /** The rest of a list pattern of `match p` in tail position: which parameter it advances. */
  readonly #rests = new Map<NameDecl, number>();
  readonly #candidates = new Set<number>();
  readonly #tails = new Map<Expr, boolean>();

  constructor(readonly fn: FunctionView, readonly program: ProgramView) {
    fn.node.params.forEach((p, i) => {
      if (!fn.listParams[i]) return;
      this.#params.set(p.name, i);
      this.#candidates.add(i);
    });
  }

  run(): ReadonlySet<number> {
    if (!this.#hasTail(this.fn.node.body)) return new Set();
    this.#tail(this.fn.node.body);
    return this.#candidates;
  }

  #isSelfCall(e: CallExpr): boolean {
    const r = this.program.callee(e);
    return r !== undefined && r.kind === "function" && r.key === this.fn.key;
  }

  /** Whether `e`, in tail position, holds a self tail call in tail position. */
  #hasTail(e: Expr): boolean {
    const known = this.#tails.get(e);
    if (known !== undefined) return known;
    let has = false;
    switch (e.kind) {
      case "ParenExpr":
        has = this.#hasTail(e.inner);
        break;
      case "Block":
        has = e.tail !== null && this.#hasTail(e.tail);
        break;
      case "IfExpr":
        has = e.otherwise !== null && (this.#hasTail(e.then) || this.#hasTail(e.otherwise));
        break;
      case "MatchExpr":
        has = e.arms.some((a) => this.#hasTail(a.body));
        break;
      case "CallExpr":
        has = this.#isSelfCall(e);
        break;
      case "BinaryExpr":
        has = (e.op === "&&" || e.op === "||") && this.#hasTail(e.right);
        break;
    }
    this.#tails.set(e, has);
    return has;
  }

  /** The parameter a name denotes, as itself or as a tail match's rest, or -1. */
  #listOf(ref: NameRef): { param: number; rest: boolean } | null {
    const r = this.program.value(ref);
    if (r === undefined || r.kind !== "local") return null;
    const param = this.#params.get(r.decl);
    if (param !== undefined) return { param, rest: false };
    const rest = this.#rests.get(r.decl);
    return rest === undefined ? null : { param: rest, rest: true };
  }

  /** `e` in tail position. */
  #tail(e: Expr): void {
    const closed = !this.#hasTail(e);
    switch (e.kind) {
      case "ParenExpr":
        this.#tail(e.inner);
        return;
      case "Block":
        for (const st of e.statements) {
          this.#value(st.kind === "LetStmt" ? st.value : st.expr, closed);
        }
        if (e.tail !== null) this.#tail(e.tail);
        return;
      case "IfExpr":
        this.#value(e.condition, closed);
        if (e.otherwise === null) {
          this.#value(e.then, true);
          return;
        }
        this.#tail(e.then);
        this.#tail(e.otherwise);
        return;
      case "MatchExpr": {
        const scrutinee = e.scrutinee.kind === "NameExpr" ? this.#listOf(e.scrutinee.name) : null;
        if (scrutinee !== null && !scrutinee.rest) {
          for (const arm of e.arms) {
            if (arm.pattern.kind === "ListPattern" && arm.pattern.rest?.binding) {
              this.#rests.set(arm.pattern.rest.binding, scrutinee.param);
            }
          }
        } else this.#value(e.scrutinee, closed);
        for (const arm of e.arms) this.#tail(arm.body);
        return;
      }
      case "CallExpr":
        if (this.#isSelfCall(e)) {
          e.args.forEach((arg, i) => {
            if (this.#candidates.has(i)) this.#own(arg, i);
            else this.#value(arg, false);
          });
          return;
        }
        break;
      case "BinaryExpr":
        if (e.op === "&&" || e.op === "||") {
          this.#value(e.left, closed);
          this.#tail(e.right);
          return;
        }
        break;
    }
    this.#value(e, closed);
  }

  /** `arg`, the next value of parameter `param` in a self tail call. */
  #own(arg: Expr, param: number): void {
    switch (arg.kind) {
      case "ParenExpr":
        this.#own(arg.inner, param);
        return;
      case "NameExpr": {
        const list = this.#listOf(arg.name);
        if (list !== null && list.param === param) return;
        break;
      }
      case "CallExpr": {
        const callee = arg.callee;
        const r = callee.kind === "NameExpr" ? this.program.value(callee.name) : undefined;
        const first = arg.args[0];
        if (
          r?.kind === "prelude" && r.name === "push" && first?.kind === "NameExpr" &&
          this.#listOf(first.name)?.param === param && this.#listOf(first.name)?.rest === false
        ) {
          this.#value(arg.args[1], false);
          return;
        }
        break;
      }
      case "IfExpr": {
        const branch = (b: Expr | null) =>
          b !== null && b.kind === "Block" && b.statements.length === 0 && b.tail !== null;
        if (branch(arg.then) && branch(arg.otherwise)) {
          this.#value(arg.condition, false);
          this.#own(arg.then.tail!, param);
          this.#own((arg.otherwise as { tail: Expr }).tail, param);
          return;
        }
        break;
      }
    }
    // Any other new value: copied when it is assigned, so it must not involve the list itself.
    this.#value(arg, false);
  }

  /** `e` evaluated for its value; `closed` when nothing after it continues the loop. */
  #value(e: Expr, closed: boolean): void {
    walk(e, (node, parent) => {
      let ref: NameRef | null = null;
      if (node.kind === "NameExpr") ref = node.name;
      else if (node.kind === "FieldInit" && node.value === null) ref = node.name;
      if (ref === null) return;
      const list = this.#listOf(ref);
      if (list === null || closed) return;
      // Reads that keep nothing.
      if (parent?.kind === "MatchExpr" && parent.scrutinee === node) return;
      if (parent?.kind === "CallExpr" && parent.args.length === 1 && parent.args[0] === node) {
        const callee = parent.callee;
        const r = callee.kind === "NameExpr" ? this.program.value(callee.name) : undefined;
        if (r?.kind === "prelude" && r.name === "len") return;
      }
      this.#candidates.delete(list.param);
    });
  }
}
