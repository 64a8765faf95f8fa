/**
 * The grammar of types: `Int`, `List[T]`, `geo.Shape`, `fn(Int) -> Int`, `()`.
 *
 * @module
 */
import type * as A from "./ast.ts";
import { TokenKind as T } from "./lexer.ts";
import {
  atKind,
  bump,
  current,
  dottedPath,
  enter,
  expect,
  expected,
  list,
  missingNode,
  type Parser,
  prevEnd,
  skipTooDeep,
  tokenStart,
} from "./parser_state.ts";

export function typeExpr(p: Parser): A.TypeExpr {
  const start = tokenStart(p);
  if (!enter(p)) return skipTooDeep(p);
  let node: A.TypeExpr;
  switch (current(p)) {
    case T.Ident: {
      const path = dottedPath(p);
      let args: A.TypeExpr[] = [];
      if (atKind(p, T.LBracket)) args = list(p, T.RBracket, typeExpr);
      node = { kind: "NamedType", start, end: prevEnd(p), path, args };
      break;
    }
    case T.LParen:
      bump(p);
      expect(p, T.RParen);
      node = { kind: "UnitType", start, end: prevEnd(p) };
      break;
    case T.KwFn: {
      bump(p);
      let params: A.TypeExpr[] = [];
      if (atKind(p, T.LParen)) params = list(p, T.RParen, typeExpr);
      else expected(p, "`(`");
      let result: A.TypeExpr;
      if (expect(p, T.Arrow)) result = typeExpr(p);
      else result = missingNode(p);
      node = { kind: "FnType", start, end: prevEnd(p), params, result };
      break;
    }
    default:
      expected(p, "type");
      node = missingNode(p);
  }
  p.depth--;
  return node;
}
