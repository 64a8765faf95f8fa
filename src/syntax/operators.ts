/**
 * The operators of expressions: each binary operator's precedence level
 * and associativity, and the unary ones. The parser fills its
 * token-indexed tables from it (tests/syntax/operators_test.ts parses every
 * operator pair against it), the formatter groups by it, and the language
 * card prints it (scripts/gen_language_card.ts).
 *
 * @module
 */
import type { BinaryOp, UnaryOp } from "./ast.ts";

export interface BinaryOperator {
  readonly op: BinaryOp;
  /** 1 binds loosest. */
  readonly level: number;
  /** `none`: two in a row is N0108 (chained comparison). */
  readonly associativity: "left" | "none";
  /** What the operands may be (specification §7.3). */
  readonly operands: string;
}

const BOOL = "`Bool`";
const NUMBERS = "`Int` or `Float`";
const ORDERED = "`Int`, `Float` or `String`";
const ANY = "two values of one type";

/** A record over every `BinaryOp`, so that a new operator does not compile until it is here. */
const BY_OP: Readonly<Record<BinaryOp, Omit<BinaryOperator, "op">>> = {
  "||": { level: 1, associativity: "left", operands: BOOL },
  "&&": { level: 2, associativity: "left", operands: BOOL },
  "==": { level: 3, associativity: "none", operands: ANY },
  "!=": { level: 3, associativity: "none", operands: ANY },
  "<": { level: 4, associativity: "none", operands: ORDERED },
  "<=": { level: 4, associativity: "none", operands: ORDERED },
  ">": { level: 4, associativity: "none", operands: ORDERED },
  ">=": { level: 4, associativity: "none", operands: ORDERED },
  "+": { level: 5, associativity: "left", operands: `${NUMBERS}; \`+\` also joins \`String\`s` },
  "-": { level: 5, associativity: "left", operands: NUMBERS },
  "*": { level: 6, associativity: "left", operands: NUMBERS },
  "/": { level: 6, associativity: "left", operands: NUMBERS },
  "%": { level: 6, associativity: "left", operands: NUMBERS },
};

/** The binary operators, loosest first. */
export const BINARY_OPERATORS: readonly BinaryOperator[] = Object.entries(BY_OP).map((
  [op, info],
) => ({ op: op as BinaryOp, ...info }));

/** Prefix operators: they bind tighter than every binary operator. */
export const UNARY_OPERATORS: readonly { readonly op: UnaryOp; readonly operands: string }[] = [
  { op: "-", operands: NUMBERS },
  { op: "!", operands: BOOL },
];

/** Each binary operator's level. */
export const BINARY_PRECEDENCE: Readonly<Record<BinaryOp, number>> = Object.fromEntries(
  BINARY_OPERATORS.map((o) => [o.op, o.level]),
) as Record<BinaryOp, number>;
