/**
 * The grammar of patterns: `_`, names, literals (a negative number with its
 * sign), variants with their fields, and list patterns with one `..rest`.
 *
 * @module
 */
import type * as A from "./ast.ts";
import { TokenKind as T } from "./lexer.ts";
import { DIAGNOSTICS as D } from "../base/mod.ts";
import { isUpper, parseLiteral } from "./parser_state.ts";
import {
  atKind,
  bump,
  current,
  dottedPath,
  eat,
  enter,
  errorNode,
  expected,
  floatValue,
  intValue,
  list,
  missingNode,
  nameDecl,
  type Parser,
  peek,
  prevEnd,
  reportError,
  skipTooDeep,
  tokenStart,
} from "./parser_state.ts";

export function pattern(p: Parser): A.Pattern {
  const start = tokenStart(p);
  if (!enter(p)) return skipTooDeep(p);
  const end = p.ends[p.pos];
  let node: A.Pattern;
  switch (current(p)) {
    case T.Underscore:
      bump(p);
      node = { kind: "WildcardPattern", start, end };
      break;
    case T.Int:
    case T.Float:
    case T.String:
    case T.KwTrue:
    case T.KwFalse: {
      const literal = parseLiteral(p);
      node = { kind: "LiteralPattern", start, end: literal.end, literal };
      break;
    }
    case T.Minus: {
      bump(p);
      const k = current(p);
      if (k === T.Int || k === T.Float) {
        const litEnd = p.ends[p.pos];
        const literal: A.IntLit | A.FloatLit = k === T.Int
          ? { kind: "IntLit", start, end: litEnd, value: intValue(p, true) }
          : { kind: "FloatLit", start, end: litEnd, value: floatValue(p, true) };
        bump(p);
        node = { kind: "LiteralPattern", start, end: litEnd, literal };
      } else {
        expected(p, "number after `-` in a pattern");
        node = errorNode(start, prevEnd(p));
      }
      break;
    }
    case T.LParen:
      if (peek(p) === T.RParen) {
        bump(p);
        bump(p);
        const literal: A.UnitLit = { kind: "UnitLit", start, end: prevEnd(p) };
        node = { kind: "LiteralPattern", start, end: literal.end, literal };
      } else {
        expected(p, "pattern");
        node = missingNode(p);
      }
      break;
    case T.LBracket:
      node = listPattern(p);
      break;
    case T.Ident: {
      const path = dottedPath(p);
      if (atKind(p, T.LParen)) {
        let args: A.Pattern[] = [];
        args = list(p, T.RParen, pattern);
        node = { kind: "VariantPattern", start, end: prevEnd(p), path, args };
      } else if (path.length === 1 && !isUpper(path[0].text)) {
        const only = path[0];
        node = {
          kind: "BindingPattern",
          start,
          end: only.end,
          name: { kind: "NameDecl", start: only.start, end: only.end, text: only.text },
        };
      } else {
        node = { kind: "VariantPattern", start, end: prevEnd(p), path, args: null };
      }
      break;
    }
    default:
      expected(p, "pattern");
      node = missingNode(p);
  }
  p.depth--;
  return node;
}

export function listPattern(p: Parser): A.ListPattern {
  const start = tokenStart(p);
  let elements: A.Pattern[] = [];
  let rest: A.RestPattern | null = null;
  const element = (): A.Pattern | null => {
    if (!atKind(p, T.DotDot)) {
      const pat = pattern(p);
      if (rest !== null) restNotLast(p, rest);
      return pat;
    }
    const restStart = tokenStart(p);
    bump(p);
    let binding: A.NameDecl | null = null;
    if (atKind(p, T.Ident)) binding = nameDecl(p);
    else eat(p, T.Underscore);
    const node: A.RestPattern = {
      kind: "RestPattern",
      start: restStart,
      end: prevEnd(p),
      binding,
    };
    if (rest !== null) restNotLast(p, rest);
    else rest = node;
    return null;
  };
  elements = list(p, T.RBracket, element);
  return { kind: "ListPattern", start, end: prevEnd(p), elements, rest };
}

export function restNotLast(p: Parser, rest: A.RestPattern): void {
  reportError(p, D.restNotLast.code, rest.start, rest.end, D.restNotLast.text.notLast());
}
