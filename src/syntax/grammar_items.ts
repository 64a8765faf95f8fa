/**
 * The grammar of a file: imports, then functions, records, enums and test
 * functions, each with its doc comment; recovery resumes at the next item.
 *
 * @module
 */
import type * as A from "./ast.ts";
import { TokenKind as T } from "./lexer.ts";
import { block } from "./grammar_expressions.ts";
import { typeExpr } from "./grammar_types.ts";
import {
  atKind,
  atTestStart,
  bump,
  closeGroup,
  current,
  eat,
  errorNode,
  expect,
  expected,
  isItemStart,
  list,
  missingNode,
  nameDecl,
  nameRef,
  OPENER_OF,
  type Parser,
  peek,
  prevEnd,
  skipTo,
  STOP_ITEM,
  tokenStart,
} from "./parser_state.ts";

export function parseFile(p: Parser): A.SourceFile {
  const imports: A.Import[] = [];
  const items: A.Item[] = [];
  while (!atKind(p, T.Eof)) {
    const k = current(p);
    if (k === T.KwImport) {
      imports.push(importDecl(p));
    } else if (k === T.KwPub || k === T.KwFn || k === T.KwRecord || k === T.KwEnum) {
      items.push(itemDecl(p));
    } else if (atTestStart(p)) {
      items.push(testDecl(p));
    } else {
      const start = tokenStart(p);
      expected(p, "an item");
      bump(p);
      skipTo(p, STOP_ITEM);
      while (OPENER_OF[current(p)] !== 0) {
        // A closer at top level closes nothing: skip it too.
        bump(p);
        skipTo(p, STOP_ITEM);
      }
      items.push(errorNode(start, prevEnd(p)));
    }
  }
  return { kind: "SourceFile", start: 0, end: p.tokens.source.length, imports, items };
}

export function importDecl(p: Parser): A.Import {
  const start = tokenStart(p);
  bump(p);
  const path = [nameRef(p)];
  let names: A.NameRef[] | null = null;
  while (atKind(p, T.Dot)) {
    const next = peek(p);
    if (next === T.LBrace) {
      bump(p);
      names = list(p, T.RBrace, nameRef);
      break;
    }
    bump(p);
    path.push(nameRef(p));
  }
  let alias: A.NameDecl | null = null;
  if (names === null && eat(p, T.KwAs)) alias = nameDecl(p);
  return { kind: "Import", start, end: prevEnd(p), path, alias, names };
}

/** The `///` lines right before significant token position `p`, as one node. */
export function docBefore(p: Parser, at: number): A.DocComment | null {
  const tokens = p.tokens;
  let t = p.sig[at] - 1;
  let first = -1;
  let last = -1;
  while (t >= 0) {
    const k = tokens.kinds[t];
    if (k === T.DocComment) {
      if (last < 0) last = t;
      first = t;
    } else if (k !== T.Whitespace && k !== T.Newline) break;
    t--;
  }
  if (first < 0) return null;
  const lines: string[] = [];
  for (let i = first; i <= last; i++) {
    if (tokens.kinds[i] !== T.DocComment) continue;
    let line = tokens.text(i).slice(3);
    if (line.startsWith(" ")) line = line.slice(1);
    lines.push(line.trimEnd());
  }
  return {
    kind: "DocComment",
    start: tokens.starts[first],
    end: tokens.ends[last],
    text: lines.join("\n"),
  };
}

export function itemDecl(p: Parser): A.Item {
  const doc = docBefore(p, p.pos);
  const first = tokenStart(p);
  const start = doc !== null ? doc.start : first;
  let pub: A.NodeBase | null = null;
  if (atKind(p, T.KwPub)) {
    pub = { start: first, end: p.ends[p.pos] };
    bump(p);
  }
  const k = current(p);
  if (k !== T.KwFn && k !== T.KwRecord && k !== T.KwEnum) {
    expected(p, "`fn`, `record` or `enum`");
    skipTo(p, STOP_ITEM);
    return errorNode(first, Math.max(first, prevEnd(p)));
  }
  bump(p);
  const name = nameDecl(p);
  let typeParams: A.NameDecl[] = [];
  if (atKind(p, T.LBracket)) typeParams = list(p, T.RBracket, nameDecl);
  if (k === T.KwFn) {
    let params: A.Param[] = [];
    if (atKind(p, T.LParen)) params = list(p, T.RParen, param);
    else expected(p, "`(`");
    let returnType: A.TypeExpr | null = null;
    if (eat(p, T.Arrow)) returnType = typeExpr(p);
    let body: A.Block;
    if (atKind(p, T.LBrace)) body = bodyBlock(p);
    else {
      expected(p, returnType === null ? "`->` or `{`" : "`{`");
      const at = prevEnd(p);
      body = { kind: "Block", start: at, end: at, statements: [], tail: null };
      if (!isItemStart(p)) skipTo(p, STOP_ITEM);
    }
    return {
      kind: "FnDecl",
      start,
      end: prevEnd(p),
      doc,
      pub,
      name,
      typeParams,
      params,
      returnType,
      body,
    };
  }
  if (k === T.KwRecord) {
    let fields: A.FieldDecl[] = [];
    if (atKind(p, T.LBrace)) fields = list(p, T.RBrace, fieldDecl);
    else expected(p, "`{`");
    return {
      kind: "RecordDecl",
      start,
      end: prevEnd(p),
      doc,
      pub,
      name,
      typeParams,
      fields,
    };
  }
  let variants: A.VariantDecl[] = [];
  if (atKind(p, T.LBrace)) variants = list(p, T.RBrace, variantDecl);
  else expected(p, "`{`");
  return { kind: "EnumDecl", start, end: prevEnd(p), doc, pub, name, typeParams, variants };
}

/** `test fn name() { ... }`: no parameters, no result type, no type parameters. */
export function testDecl(p: Parser): A.TestDecl {
  const doc = docBefore(p, p.pos);
  const first = tokenStart(p);
  const test = { start: first, end: p.ends[p.pos] };
  bump(p);
  bump(p); // `fn`
  const name = nameDecl(p);
  if (atKind(p, T.LParen)) {
    const open = p.pos;
    bump(p);
    closeGroup(p, open, T.RParen);
  } else expected(p, "`(`");
  let body: A.Block;
  if (atKind(p, T.LBrace)) body = bodyBlock(p);
  else {
    expected(p, "`{`");
    const at = prevEnd(p);
    body = { kind: "Block", start: at, end: at, statements: [], tail: null };
    if (!isItemStart(p)) skipTo(p, STOP_ITEM);
  }
  return {
    kind: "TestDecl",
    start: doc !== null ? doc.start : first,
    end: prevEnd(p),
    doc,
    test,
    name,
    body,
  };
}

export function param(p: Parser): A.Param | null {
  return typedName(p, "Param", "parameter name");
}

export function fieldDecl(p: Parser): A.FieldDecl | null {
  return typedName(p, "FieldDecl", "field name");
}

/** `name: Type`, a parameter or a record field: the two share their syntax. */
export function typedName<K extends "Param" | "FieldDecl">(
  p: Parser,
  kind: K,
  what: string,
): { kind: K; start: number; end: number; name: A.NameDecl; type: A.TypeExpr } | null {
  const start = tokenStart(p);
  if (!atKind(p, T.Ident)) {
    expected(p, what);
    return null;
  }
  const name = nameDecl(p);
  const type = expect(p, T.Colon) ? typeExpr(p) : missingNode(p);
  return { kind, start, end: prevEnd(p), name, type };
}

export function variantDecl(p: Parser): A.VariantDecl | null {
  const start = tokenStart(p);
  if (!atKind(p, T.Ident)) {
    expected(p, "variant name");
    return null;
  }
  const name = nameDecl(p);
  let fields: A.TypeExpr[] = [];
  if (atKind(p, T.LParen)) fields = list(p, T.RParen, typeExpr);
  return { kind: "VariantDecl", start, end: prevEnd(p), name, fields };
}

/**
 * A function's or test's body; when skimming, the braces alone, jumped over
 * in one step to the `}` the delimiter matching paired with the `{`.
 */
function bodyBlock(p: Parser): A.Block {
  const close = p.partner[p.pos];
  if (!p.skimBodies || close < p.pos) return block(p);
  const start = tokenStart(p);
  p.pos = close + 1;
  return { kind: "Block", start, end: prevEnd(p), statements: [], tail: null };
}
