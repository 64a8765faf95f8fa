/**
 * Patterns lowered: the tests that decide whether an arm matches, and the
 * bindings it declares once it does.
 *
 * @module
 */
import type { NameDecl, Pattern } from "../syntax/mod.ts";
import type { ProgramView } from "./checked.ts";
import { asciiJson, floatLiteral } from "./emit.ts";

/**
 * The conditions under which a value at `path` matches `p`, appended to
 * `out` (none for a pattern that matches everything). Int literals are
 * written by `int`, so that their BigInt twins are shared.
 */
export function patternTests(
  program: ProgramView,
  int: (value: bigint) => string,
  p: Pattern,
  path: string,
  out: string[],
): void {
  switch (p.kind) {
    case "WildcardPattern":
    case "BindingPattern":
      return;
    case "LiteralPattern": {
      const lit = p.literal;
      switch (lit.kind) {
        case "IntLit":
          out.push(`${path} === ${int(lit.value!)}`);
          return;
        case "FloatLit":
          out.push(`${path} === ${floatLiteral(lit.value!)}`);
          return;
        case "StringLit":
          out.push(`${path} === ${asciiJson(lit.value)}`);
          return;
        case "BoolLit":
          out.push(lit.value ? path : `!${path}`);
          return;
        case "UnitLit":
          return;
      }
      return;
    }
    case "VariantPattern": {
      const r = program.variant(p);
      const en = program.enumByKey(r.enumKey);
      if (en.variants.length > 1) out.push(`${path}.$$t === ${r.index}`);
      (p.args ?? []).forEach((a, i) => patternTests(program, int, a, `${path}.$${i}`, out));
      return;
    }
    case "ListPattern": {
      const n = p.elements.length;
      out.push(`$size(${path}) ${p.rest === null ? "===" : ">="} ${n}`);
      p.elements.forEach((el, i) => patternTests(program, int, el, `$at(${path}, ${i})`, out));
      return;
    }
    case "Error":
      throw new Error("lowering a pattern the parser could not read");
  }
}

/** Binds every name of `p`, matched at `path`: `bind` declares it with its value's code. */
export function patternBindings(
  p: Pattern,
  path: string,
  bind: (name: NameDecl, value: string) => void,
): void {
  switch (p.kind) {
    case "BindingPattern":
      bind(p.name, path);
      return;
    case "VariantPattern":
      (p.args ?? []).forEach((a, i) => patternBindings(a, `${path}.$${i}`, bind));
      return;
    case "ListPattern":
      p.elements.forEach((el, i) => patternBindings(el, `$at(${path}, ${i})`, bind));
      if (p.rest !== null && p.rest.binding !== null) {
        bind(p.rest.binding, `$drop(${path}, ${p.elements.length})`);
      }
      return;
    default:
      return;
  }
}
