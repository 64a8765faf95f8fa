/**
 * The grammar of blocks, statements and expressions: operator precedence
 * climbing, postfix chains (calls, fields, record literals), `if`, `match`
 * and blocks, each bounded by the nesting limit.
 *
 * @module
 */
import type * as A from "./ast.ts";
import type { Label } from "../base/mod.ts";
import { TokenKind as T } from "./lexer.ts";
import { BINARY_OPERATORS } from "./operators.ts";
import { DIAGNOSTICS as D } from "../base/mod.ts";
import { pattern } from "./grammar_patterns.ts";
import { typeExpr } from "./grammar_types.ts";
import {
  atClose,
  atKind,
  bump,
  closeGroup,
  current,
  diagnostic,
  eat,
  enter,
  expect,
  expected,
  ident,
  isItemStart,
  isUpper,
  list,
  MAX_DEPTH,
  missingNode,
  nameDecl,
  nameRef,
  OPENER_OF,
  parseLiteral,
  type Parser,
  peek,
  prevEnd,
  reportTooDeep,
  skipTo,
  skipTooDeep,
  STOP_EXPR,
  STOP_LIST,
  STOP_STMT,
  tokenStart,
} from "./parser_state.ts";

/** The token of each binary operator: a record, so a new operator does not compile until it is here. */
const BINARY_TOKENS: Readonly<Record<A.BinaryOp, number>> = {
  "||": T.PipePipe,
  "&&": T.AmpAmp,
  "==": T.EqEq,
  "!=": T.BangEq,
  "<": T.Lt,
  "<=": T.Le,
  ">": T.Gt,
  ">=": T.Ge,
  "+": T.Plus,
  "-": T.Minus,
  "*": T.Star,
  "/": T.Slash,
  "%": T.Percent,
};

// Kind tables, filled from the one operator table (operators.ts): one byte
// load instead of a chain of comparisons.
export const BIN_PREC = new Uint8Array(64);
export const BIN_OP: (A.BinaryOp | null)[] = new Array(64).fill(null);
/** 1 for an operator that cannot follow one of its own level (a chained comparison, N0108). */
const NON_ASSOCIATIVE = new Uint8Array(64);
for (const o of BINARY_OPERATORS) {
  const k = BINARY_TOKENS[o.op];
  BIN_PREC[k] = o.level;
  BIN_OP[k] = o.op;
  NON_ASSOCIATIVE[k] = o.associativity === "none" ? 1 : 0;
}

/** Kinds that can begin an expression (for `return` without a value). */
export const EXPR_START = new Uint8Array(64);
for (
  const k of [
    T.Int,
    T.Float,
    T.String,
    T.KwTrue,
    T.KwFalse,
    T.LParen,
    T.LBracket,
    T.LBrace,
    T.Ident,
    T.KwIf,
    T.KwMatch,
    T.KwReturn,
    T.Minus,
    T.Bang,
  ]
) EXPR_START[k] = 1;

export function block(p: Parser): A.Block {
  const start = tokenStart(p);
  if (!enter(p)) {
    const skipped = skipGroup(p);
    return { kind: "Block", start, end: skipped, statements: [], tail: null };
  }
  const saved = p.noRecord;
  p.noRecord = false;
  const open = p.pos;
  bump(p);
  const scratch = p.scratch;
  const mark = scratch.length;
  let tail: A.Expr | null = null;
  while (true) {
    const k = current(p);
    if (atClose(p, open, T.RBrace) || k === T.Eof || isItemStart(p)) break;
    if (k === T.Semi) {
      bump(p);
      continue;
    }
    const before = p.pos;
    if (k === T.KwLet) {
      scratch.push(letStmt(p));
      continue;
    }
    const isBlockLike = k === T.KwIf || k === T.KwMatch || k === T.LBrace;
    // A block-like expression starting a statement ends at its `}`
    // (as in Rust): `if c { a } else { b }` needs no `;`.
    const value = isBlockLike ? blockLike(p) : expr(p);
    if (atKind(p, T.Semi)) {
      bump(p);
      scratch.push({ kind: "ExprStmt", start: value.start, end: prevEnd(p), expr: value });
      continue;
    }
    if (atClose(p, open, T.RBrace)) {
      tail = value;
      break;
    }
    if (isBlockLike && p.pos > before) {
      scratch.push({ kind: "ExprStmt", start: value.start, end: prevEnd(p), expr: value });
      continue;
    }
    expected(p, "`;` or `}`");
    if (p.pos > before) {
      scratch.push({ kind: "ExprStmt", start: value.start, end: prevEnd(p), expr: value });
    }
    skipTo(p, STOP_STMT);
    if (atKind(p, T.Semi)) bump(p);
    else if (p.pos === before && OPENER_OF[current(p)] !== 0) {
      // A stray `)` or `]` inside a block: drop it, or nothing moves.
      if (p.partner[p.pos] < 0) bump(p);
      else break;
    }
  }
  closeGroup(p, open, T.RBrace);
  p.noRecord = saved;
  p.depth--;
  const statements = scratch.slice(mark) as A.Statement[];
  scratch.length = mark;
  return { kind: "Block", start, end: prevEnd(p), statements, tail };
}

/** Skips a whole group from its opener (too deep to parse); returns its end. */
export function skipGroup(p: Parser): number {
  const m = p.partner[p.pos];
  if (m >= 0) p.pos = m + 1;
  else p.pos = p.eof;
  return prevEnd(p);
}

export function letStmt(p: Parser): A.LetStmt {
  const start = tokenStart(p);
  bump(p);
  let binding: A.NameDecl | A.WildcardPattern;
  if (atKind(p, T.Underscore)) {
    binding = { kind: "WildcardPattern", start: tokenStart(p), end: p.ends[p.pos] };
    bump(p);
  } else binding = nameDecl(p);
  let type: A.TypeExpr | null = null;
  if (eat(p, T.Colon)) type = typeExpr(p);
  let value: A.Expr;
  if (expect(p, T.Eq)) value = expr(p);
  else value = missingNode(p);
  if (!eat(p, T.Semi)) {
    expected(p, "`;`");
    if (!atKind(p, T.RBrace)) {
      skipTo(p, STOP_STMT);
      eat(p, T.Semi);
    }
  }
  return { kind: "LetStmt", start, end: prevEnd(p), binding, type, value };
}

export function expr(p: Parser): A.Expr {
  if (!enter(p)) return skipTooDeep(p);
  const e = binary(p, 1);
  p.depth--;
  return e;
}

/** An expression inside a delimited group: record literals are allowed again. */
export function innerExpr(p: Parser): A.Expr {
  const saved = p.noRecord;
  p.noRecord = false;
  const e = expr(p);
  p.noRecord = saved;
  return e;
}

export function binary(p: Parser, minPrec: number): A.Expr {
  let left = unary(p);
  let links = 0;
  while (true) {
    const k = current(p);
    const prec = BIN_PREC[k];
    if (prec === 0 || prec < minPrec) break;
    if (p.depth + links >= MAX_DEPTH) {
      reportTooDeep(p);
      skipTo(p, STOP_EXPR);
      break;
    }
    links++;
    const opStart = tokenStart(p);
    bump(p);
    const right = binary(p, prec + 1);
    left = {
      kind: "BinaryExpr",
      start: left.start,
      end: prevEnd(p),
      op: BIN_OP[k]!,
      opStart,
      left,
      right,
    };
    if (NON_ASSOCIATIVE[k] === 1 && BIN_PREC[current(p)] === prec) {
      const at = tokenStart(p);
      if (at !== p.lastErrorAt) {
        p.lastErrorAt = at;
        const label: Label = {
          file: p.file,
          span: { start: opStart, end: opStart + BIN_OP[k]!.length },
          message: "the first comparison",
        };
        p.diags.push(
          diagnostic(
            p,
            D.chainedComparison.code,
            at,
            p.ends[p.pos],
            D.chainedComparison.text.chained(),
            [label],
            "split the comparison with `&&`, or parenthesize to compare a result",
          ),
        );
      }
    }
  }
  return left;
}

export function unary(p: Parser): A.Expr {
  const k = current(p);
  if (k === T.Minus || k === T.Bang) {
    const start = tokenStart(p);
    if (!enter(p)) return skipTooDeep(p);
    bump(p);
    const operand = unary(p);
    p.depth--;
    return {
      kind: "UnaryExpr",
      start,
      end: prevEnd(p),
      op: k === T.Minus ? "-" : "!",
      operand,
    };
  }
  return postfix(p);
}

export function postfix(p: Parser): A.Expr {
  let e = primary(p);
  let links = 0;
  while (true) {
    const k = current(p);
    if (k === T.LParen) {
      if (!chainLink(p, links++)) break;
      let args: A.Expr[] = [];
      args = list(p, T.RParen, innerExpr);
      e = { kind: "CallExpr", start: e.start, end: prevEnd(p), callee: e, typeArgs: null, args };
    } else if (k === T.LBracket && typeArgsAtCall(p, e)) {
      if (!chainLink(p, links++)) break;
      const start = tokenStart(p);
      const types = list(p, T.RBracket, typeExpr);
      const typeArgs = { start, end: prevEnd(p), types };
      const args = list(p, T.RParen, innerExpr);
      e = { kind: "CallExpr", start: e.start, end: prevEnd(p), callee: e, typeArgs, args };
    } else if (k === T.Dot) {
      if (!chainLink(p, links++)) break;
      bump(p);
      const name = nameRef(p);
      e = { kind: "FieldExpr", start: e.start, end: prevEnd(p), target: e, name };
    } else if (k === T.LBrace && p.noRecord && plainlyFields(p)) {
      const path = typePath(e);
      if (path === null || !isUpper(path[path.length - 1].text)) break;
      if (!chainLink(p, links++)) break;
      e = recordInHead(p, e, path);
    } else if (
      (k === T.LBrace && !p.noRecord) || (k === T.LBracket)
    ) {
      const path = typePath(e);
      if (path === null || !isUpper(path[path.length - 1].text)) break;
      if (!chainLink(p, links++)) break;
      e = recordLit(p, e, path);
    } else break;
  }
  return e;
}

/**
 * Whether the `[` here begins type arguments of a call, `empty[Int]()`:
 * after a function's path (its last name lower-case, so not a record
 * literal) and closed by a `]` right before `(`.
 */
function typeArgsAtCall(p: Parser, callee: A.Expr): boolean {
  const path = typePath(callee);
  if (path === null || isUpper(path[path.length - 1].text)) return false;
  const close = p.partner[p.pos];
  return close > p.pos && close < p.eof && p.kinds[close + 1] === T.LParen;
}

/** Whether the `{` here opens fields (`{ x: …`, `{ x, …`), which no block can begin with. */
function plainlyFields(p: Parser): boolean {
  const next = peek(p, 2);
  return peek(p) === T.Ident && (next === T.Colon || next === T.Comma);
}

/**
 * A record literal where the head of an `if` or `match` forbids one: read
 * as the literal it plainly is, so that the block after it parses and
 * nothing cascades, and reported (N0110) with the fix that wraps it in
 * parentheses.
 */
function recordInHead(p: Parser, target: A.Expr, path: A.NameRef[]): A.Expr {
  const literal = recordLit(p, target, path);
  const file = p.file;
  const shown = p.head === "if" ? "the `if`'s block" : "the `match`'s arms";
  p.diags.push(D.recordInHead.literal({
    file,
    span: literal,
    help: `here \`{\` would begin ${shown}: wrap the literal in parentheses`,
    fixes: [{
      title: "wrap the record literal in parentheses",
      applicability: "automatic",
      precondition: { kind: "none" },
      edits: [
        { file, span: { start: literal.start, end: literal.start }, replacement: "(" },
        { file, span: { start: literal.end, end: literal.end }, replacement: ")" },
      ],
    }],
  }, p.head));
  return literal;
}

/** One more link of a postfix chain; false (after a diagnostic) past the depth limit. */
export function chainLink(p: Parser, links: number): boolean {
  if (p.depth + links < MAX_DEPTH) return true;
  reportTooDeep(p);
  skipTo(p, STOP_EXPR);
  return false;
}

export function recordLit(p: Parser, target: A.Expr, path: A.NameRef[]): A.Expr {
  const start = target.start;
  let args: A.TypeExpr[] = [];
  if (atKind(p, T.LBracket)) args = list(p, T.RBracket, typeExpr);
  const type: A.NamedType = { kind: "NamedType", start, end: prevEnd(p), path, args };
  let fields: A.FieldInit[] = [];
  if (atKind(p, T.LBrace)) {
    const saved = p.noRecord;
    p.noRecord = false;
    fields = list(p, T.RBrace, fieldInit);
    p.noRecord = saved;
  } else expected(p, "`{`");
  return { kind: "RecordLit", start, end: prevEnd(p), type, fields };
}

export function fieldInit(p: Parser): A.FieldInit | null {
  const start = tokenStart(p);
  if (!atKind(p, T.Ident)) {
    expected(p, "field name");
    return null;
  }
  const name = nameRef(p);
  let value: A.Expr | null = null;
  if (eat(p, T.Colon)) value = expr(p);
  return { kind: "FieldInit", start, end: prevEnd(p), name, value };
}

export function primary(p: Parser): A.Expr {
  const start = tokenStart(p);
  const end = p.ends[p.pos];
  switch (current(p)) {
    case T.Int:
    case T.Float:
    case T.String:
    case T.KwTrue:
    case T.KwFalse:
      return parseLiteral(p);
    case T.Ident: {
      const name: A.NameRef = { kind: "NameRef", start, end, text: ident(p) };
      bump(p);
      return { kind: "NameExpr", start, end, name };
    }
    case T.LParen: {
      if (peek(p) === T.RParen) {
        bump(p);
        bump(p);
        return { kind: "UnitLit", start, end: prevEnd(p) };
      }
      const open = p.pos;
      bump(p);
      const inner = innerExpr(p);
      closeGroup(p, open, T.RParen);
      return { kind: "ParenExpr", start, end: prevEnd(p), inner };
    }
    case T.LBracket: {
      let elements: A.Expr[] = [];
      elements = list(p, T.RBracket, innerExpr);
      return { kind: "ListLit", start, end: prevEnd(p), elements };
    }
    case T.KwIf:
    case T.KwMatch:
    case T.LBrace:
      return blockLike(p);
    case T.KwReturn: {
      bump(p);
      let value: A.Expr | null = null;
      if (EXPR_START[current(p)] === 1) value = expr(p);
      return { kind: "ReturnExpr", start, end: prevEnd(p), value };
    }
    default:
      expected(p, "expression");
      return missingNode(p);
  }
}

export function blockLike(p: Parser): A.Expr {
  const k = current(p);
  if (k === T.LBrace) return block(p);
  if (k === T.KwIf) return ifExpr(p);
  return matchExpr(p);
}

/** The block after `if c`/`else`, or a zero-width stand-in after a diagnostic. */
export function requiredBlock(p: Parser): A.Block {
  if (atKind(p, T.LBrace)) return block(p);
  expected(p, "`{`");
  const at = prevEnd(p);
  return { kind: "Block", start: at, end: at, statements: [], tail: null };
}

export function condition(p: Parser, head: "if" | "match"): A.Expr {
  const saved = p.noRecord;
  const savedHead = p.head;
  p.noRecord = true;
  p.head = head;
  const e = expr(p);
  p.noRecord = saved;
  p.head = savedHead;
  return e;
}

export function ifExpr(p: Parser): A.Expr {
  const start = tokenStart(p);
  if (!enter(p)) return skipTooDeep(p);
  bump(p);
  const test = condition(p, "if");
  const then = requiredBlock(p);
  let otherwise: A.Block | A.IfExpr | null = null;
  if (eat(p, T.KwElse)) {
    if (atKind(p, T.KwIf)) {
      const nested = ifExpr(p);
      otherwise = nested.kind === "IfExpr" ? nested : null;
    } else otherwise = requiredBlock(p);
  }
  p.depth--;
  return { kind: "IfExpr", start, end: prevEnd(p), condition: test, then, otherwise };
}

export function matchExpr(p: Parser): A.Expr {
  const start = tokenStart(p);
  if (!enter(p)) return skipTooDeep(p);
  bump(p);
  const scrutinee = condition(p, "match");
  let arms: A.MatchArm[] = [];
  if (atKind(p, T.LBrace)) {
    const saved = p.noRecord;
    p.noRecord = false;
    const open = p.pos;
    bump(p);
    const scratch = p.scratch;
    const mark = scratch.length;
    while (!atClose(p, open, T.RBrace) && !atKind(p, T.Eof) && !isItemStart(p)) {
      const before = p.pos;
      const armPattern = pattern(p);
      let body: A.Expr;
      if (eat(p, T.FatArrow)) {
        // As a statement does, a block-like body ends at its `}` (§3.6.10):
        // `0 => { 10 }` then `-1 => 3` on the next line is two arms.
        const k = current(p);
        body = k === T.LBrace || k === T.KwIf || k === T.KwMatch ? blockLike(p) : expr(p);
      } else {
        expected(p, "`=>`");
        body = missingNode(p);
      }
      const armEnd = prevEnd(p);
      scratch.push({
        kind: "MatchArm",
        start: armPattern.start,
        end: armEnd,
        pattern: armPattern,
        body,
      });
      if (eat(p, T.Comma)) continue;
      if (atClose(p, open, T.RBrace)) break;
      const blockBody = body.kind === "Block" || body.kind === "IfExpr" ||
        body.kind === "MatchExpr";
      if (blockBody && p.pos > before) continue;
      expected(p, "`,` or `}`");
      skipTo(p, STOP_LIST);
      eat(p, T.Comma);
      if (p.pos === before) {
        if (OPENER_OF[current(p)] !== 0 && p.partner[p.pos] >= 0) break;
        if (isItemStart(p)) break;
        bump(p);
      }
    }
    arms = scratch.slice(mark) as A.MatchArm[];
    scratch.length = mark;
    closeGroup(p, open, T.RBrace);
    p.noRecord = saved;
  } else expected(p, "`{`");
  p.depth--;
  return { kind: "MatchExpr", start, end: prevEnd(p), scrutinee, arms };
}

/** The names of a pure path expression (`a`, `m.Point`), or null. */
export function typePath(e: A.Expr): A.NameRef[] | null {
  const names: A.NameRef[] = [];
  let cur: A.Expr = e;
  while (cur.kind === "FieldExpr") {
    names.push(cur.name);
    cur = cur.target;
  }
  if (cur.kind !== "NameExpr") return null;
  names.push(cur.name);
  return names.reverse();
}
