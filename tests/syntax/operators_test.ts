/**
 * The operator table (src/syntax/operators.ts) is what the parser does: for
 * every ordered pair of binary operators, `a OP1 b OP2 c` groups as the
 * levels and associativity say, or is N0108 for two non-associative
 * operators of one level; and a unary operator binds tighter than each.
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  BINARY_OPERATORS,
  type Expr,
  parseText,
  UNARY_OPERATORS,
  walk,
} from "../../src/syntax/mod.ts";

/** The initializer of the one `let` in `fn f() -> Unit { let r = EXPR; }`. */
function parseExpr(expr: string): { value: Expr | null; codes: string[] } {
  const r = parseText(`fn f() -> Unit { let r = ${expr}; }\n`);
  let value: Expr | null = null;
  walk(r.tree, (node) => {
    if (node.kind === "LetStmt" && value === null) value = node.value;
  });
  return { value, codes: r.diagnostics.map((d) => d.code) };
}

/** The tree as text, every binary operation in parentheses. */
function shape(e: Expr): string {
  switch (e.kind) {
    case "BinaryExpr":
      return `(${shape(e.left)} ${e.op} ${shape(e.right)})`;
    case "UnaryExpr":
      return `(${e.op}${shape(e.operand)})`;
    case "NameExpr":
      return e.name.text;
    default:
      return e.kind;
  }
}

Deno.test("operators: every pair of binary operators groups as the table says", () => {
  for (const first of BINARY_OPERATORS) {
    for (const second of BINARY_OPERATORS) {
      const text = `a ${first.op} b ${second.op} c`;
      const r = parseExpr(text);
      if (first.level === second.level && first.associativity === "none") {
        assert(r.codes.includes("N0108"), `${text}: ${r.codes}`);
        continue;
      }
      assertEquals(r.codes, [], text);
      const leftFirst = first.level > second.level ||
        (first.level === second.level && first.associativity === "left");
      const expected = leftFirst
        ? `((a ${first.op} b) ${second.op} c)`
        : `(a ${first.op} (b ${second.op} c))`;
      assertEquals(shape(r.value!), expected, text);
    }
  }
});

Deno.test("operators: a unary operator binds tighter than every binary one", () => {
  for (const unary of UNARY_OPERATORS) {
    for (const binary of BINARY_OPERATORS) {
      const text = `${unary.op}a ${binary.op} b`;
      const r = parseExpr(text);
      assertEquals(r.codes, [], text);
      assertEquals(shape(r.value!), `((${unary.op}a) ${binary.op} b)`, text);
    }
  }
});

Deno.test("operators: the table has each operator once, unary ones apart", () => {
  const ops = BINARY_OPERATORS.map((o) => o.op);
  assertEquals(new Set(ops).size, ops.length);
  assertEquals(ops.length, 13);
  assertEquals(UNARY_OPERATORS.map((o) => o.op).sort(), ["!", "-"]);
});
