/**
 * The parser's state and the helpers every grammar area shares: the
 * significant tokens and the position, delimiters paired ahead of parsing,
 * diagnostics (one per position), recovery by skipping to a stop set,
 * names, comma-separated lists and number literals. Parsing never throws.
 *
 * @module
 */
import type * as A from "./ast.ts";
import type { Diagnostic, Fix, Label } from "../base/mod.ts";
import { decodeString, type LexError, TOKEN_NAMES, TokenKind as T } from "./lexer.ts";
import type { TokenStream } from "./lexer.ts";
import { DIAGNOSTICS as D } from "../base/mod.ts";
import { FOREIGN_TOKENS, foreignWordHelp, reservedHelp } from "./newcomer.ts";

/**
 * The deepest nesting of expressions, types and patterns the parser
 * accepts. An operator or postfix chain counts one level per link, so the
 * tree's depth is bounded and recursive walks are safe.
 */
export const MAX_DEPTH = 256;

export const CLOSER_OF = new Uint8Array(64);
CLOSER_OF[T.LParen] = T.RParen;
CLOSER_OF[T.LBrace] = T.RBrace;
CLOSER_OF[T.LBracket] = T.RBracket;

export const OPENER_OF = new Uint8Array(64);
OPENER_OF[T.RParen] = T.LParen;
OPENER_OF[T.RBrace] = T.LBrace;
OPENER_OF[T.RBracket] = T.LBracket;

export const CLOSER_TEXT: Record<number, string> = {
  [T.RParen]: ")",
  [T.RBrace]: "}",
  [T.RBracket]: "]",
};

export interface Unclosed {
  /** Significant-token positions of the openers left open, outermost first. */
  readonly openers: number[];
  /** Position of the mismatched closer, or -1 when the file ended. */
  readonly at: number;
  /** True when the closer is the wrong character for the one opener (`(1]`). */
  readonly replace: boolean;
}

/** The parser's state: the significant tokens, the position, and what recovery remembers. */
export interface Parser {
  readonly diags: Diagnostic[];
  readonly tokens: TokenStream;
  readonly file: string;
  /** Significant tokens (no trivia, no error tokens), the final Eof included. */
  sig: Uint32Array;
  kinds: Uint8Array;
  starts: Uint32Array;
  ends: Uint32Array;
  /** For each delimiter position, its partner's position, or -1. */
  partner: Int32Array;
  eof: number;
  /** True when the file ends with an unclosed delimiter (N0106 speaks for the end). */
  unclosedAtEof: boolean;
  /** Positions of mismatched closers (N0106 speaks for them). */
  readonly mismatched: Set<number>;
  /** Start offsets of unterminated strings: the `;` or `)` the parser misses next is inside them. */
  readonly unterminated: Set<number>;
  /** Start offsets of invalid characters (N0100), in order: the token after one is no news. */
  readonly invalid: number[];
  /** The current significant token. */
  pos: number;
  depth: number;
  tooDeep: boolean;
  noRecord: boolean;
  /** Skip function and test bodies (see parser.ts `skimDeclarations`). */
  skimBodies: boolean;
  /** The head being parsed while record literals are barred, for N0110's wording. */
  head: "if" | "match";
  lastErrorAt: number;
  /** Shared stack for list elements, statements and arms under construction (see {@link list}). */
  readonly scratch: unknown[];
  /** Open-addressing table of interned identifier texts (see {@link ident}). */
  names: (string | undefined)[];
  nameCount: number;
}

export const EMPTY8 = new Uint8Array(0);

export const EMPTY32 = new Uint32Array(0);

export const EMPTYI32 = new Int32Array(0);

export function newParser(tokens: TokenStream, file: string, lexErrors: LexError[]): Parser {
  const p: Parser = {
    diags: [],
    tokens,
    file,
    sig: EMPTY32,
    kinds: EMPTY8,
    starts: EMPTY32,
    ends: EMPTY32,
    partner: EMPTYI32,
    eof: 0,
    unclosedAtEof: false,
    mismatched: new Set(),
    unterminated: new Set(),
    invalid: [],
    pos: 0,
    depth: 0,
    tooDeep: false,
    noRecord: false,
    skimBodies: false,
    head: "if",
    lastErrorAt: -1,
    scratch: [],
    names: new Array(1024),
    nameCount: 0,
  };
  for (const e of lexErrors) {
    p.diags.push(diagnostic(p, e.code, e.start, e.end, e.message, [], e.help ?? null));
    if (e.code === D.unterminatedString.code) p.unterminated.add(e.start);
    if (e.code === D.invalidCharacter.code) p.invalid.push(e.start);
  }
  // One pass into arrays sized for every token; views keep the used part.
  const n = tokens.count;
  const kinds = tokens.kinds;
  const starts = tokens.starts;
  const ends = tokens.ends;
  const sigAll = new Uint32Array(n);
  const skAll = new Uint8Array(n);
  const ssAll = new Uint32Array(n);
  const seAll = new Uint32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const k = kinds[i];
    if (k >= T.Whitespace && k <= T.Error) continue;
    sigAll[m] = i;
    skAll[m] = k;
    ssAll[m] = starts[i];
    seAll[m] = ends[i];
    m++;
  }
  const sig = sigAll.subarray(0, m);
  const sk = skAll.subarray(0, m);
  const ss = ssAll.subarray(0, m);
  const se = seAll.subarray(0, m);
  p.sig = sig;
  p.kinds = sk;
  p.starts = ss;
  p.ends = se;
  p.eof = m - 1;
  p.partner = new Int32Array(m).fill(-1);
  matchDelimiters(p);
  return p;
}

/**
 * Pairs delimiters ahead of parsing, like rustc's token trees: recovery
 * can then jump over a balanced group in one step, and an unclosed
 * opener is reported once, at its place, with the fix.
 */
export function matchDelimiters(p: Parser): void {
  const kinds = p.kinds;
  const match = p.partner;
  const stack: number[] = [];
  const open = new Int32Array(64);
  const problems: Unclosed[] = [];
  for (let i = 0; i < p.eof; i++) {
    const k = kinds[i];
    if (CLOSER_OF[k] !== 0) {
      stack.push(i);
      open[k]++;
    } else if (OPENER_OF[k] !== 0) {
      const want = OPENER_OF[k];
      if (open[want] === 0) {
        // No opener of this kind is open: with nothing open it is a stray
        // closer (the parser reports it); otherwise it was meant to close
        // the innermost group, written with the wrong character.
        if (stack.length === 0) continue;
        const top = stack.pop()!;
        open[kinds[top]]--;
        match[top] = i;
        match[i] = top;
        problems.push({ openers: [top], at: i, replace: true });
        continue;
      }
      const skipped: number[] = [];
      while (true) {
        const top = stack.pop()!;
        open[kinds[top]]--;
        if (kinds[top] === want) {
          match[top] = i;
          match[i] = top;
          break;
        }
        skipped.push(top);
      }
      if (skipped.length > 0) {
        problems.push({ openers: skipped.reverse(), at: i, replace: false });
      }
    }
  }
  if (stack.length > 0) problems.push({ openers: stack, at: -1, replace: false });
  for (const u of problems) {
    reportUnclosed(p, u);
    if (u.at < 0) p.unclosedAtEof = true;
    else p.mismatched.add(u.at);
  }
}

export function reportUnclosed(p: Parser, u: Unclosed): void {
  const innermost = u.openers[u.openers.length - 1];
  const file = p.file;
  const labels: Label[] = [];
  // Many openers (say 100,000 nested parentheses) make a useless list:
  // keep the innermost few.
  const shown = u.openers.slice(-9, -1);
  for (const o of shown) {
    labels.push({
      file,
      span: { start: p.starts[o], end: p.ends[o] },
      message: "unclosed delimiter",
    });
  }
  let closers = "";
  for (let k = u.openers.length - 1; k >= 0; k--) {
    closers += CLOSER_TEXT[CLOSER_OF[p.kinds[u.openers[k]]]];
  }
  let at: number;
  let end: number;
  let message: string;
  if (u.at < 0) {
    at = end = p.tokens.source.length;
    message = D.unclosedDelimiter.text.atEnd();
    labels.push({ file, span: { start: at, end: at }, message: "the file ends here" });
  } else {
    const closer = CLOSER_TEXT[p.kinds[u.at]];
    message = D.unclosedDelimiter.text.mismatched(closer);
    labels.push({
      file,
      span: { start: p.starts[u.at], end: p.ends[u.at] },
      message: "mismatched closing delimiter",
    });
    if (u.replace) {
      at = p.starts[u.at];
      end = p.ends[u.at];
    } else {
      // Right after the previous significant token, so the insertion
      // keeps the closer on the line of the code it closes.
      at = end = u.at > 0 ? p.ends[u.at - 1] : p.starts[u.at];
    }
  }
  const fix: Fix = {
    title: u.replace ? `replace with \`${closers}\`` : `insert \`${closers}\``,
    applicability: "automatic",
    precondition: { kind: "none" },
    edits: [{ file, span: { start: at, end }, replacement: closers }],
  };
  p.diags.push({
    code: D.unclosedDelimiter.code,
    severity: "error",
    message,
    file,
    span: { start: p.starts[innermost], end: p.ends[innermost] },
    labels,
    help: null,
    fixes: [fix],
  });
}

export function current(p: Parser): number {
  return p.kinds[p.pos];
}

export function peek(p: Parser, n = 1): number {
  const q = p.pos + n;
  return q <= p.eof ? p.kinds[q] : T.Eof;
}

export function atKind(p: Parser, k: number): boolean {
  return p.kinds[p.pos] === k;
}

export function tokenStart(p: Parser): number {
  return p.starts[p.pos];
}

/** End of the last consumed token: where a node that just finished ends. */
export function prevEnd(p: Parser): number {
  return p.pos > 0 ? p.ends[p.pos - 1] : 0;
}

export function bump(p: Parser): void {
  if (p.pos < p.eof) p.pos++;
}

export function eat(p: Parser, k: number): boolean {
  if (p.kinds[p.pos] === k) {
    bump(p);
    return true;
  }
  return false;
}

export function tokenText(p: Parser): string {
  return p.tokens.slice(p.starts[p.pos], p.ends[p.pos]);
}

/**
 * The current identifier's text, interned: a file repeats its names
 * many times, and one string per distinct name keeps the tree small.
 */
export function ident(p: Parser): string {
  const src = p.tokens.source;
  const start = p.starts[p.pos];
  const end = p.ends[p.pos];
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ src[k], 0x01000193);
  let table = p.names;
  let mask = table.length - 1;
  let slot = h & mask;
  while (true) {
    const known = table[slot];
    if (known === undefined) break;
    if (known.length === end - start) {
      let same = true;
      for (let k = 0; k < known.length; k++) {
        if (known.charCodeAt(k) !== src[start + k]) {
          same = false;
          break;
        }
      }
      if (same) return known;
    }
    slot = (slot + 1) & mask;
  }
  const text = p.tokens.slice(start, end);
  if (++p.nameCount * 2 > table.length) {
    const old = table;
    table = p.names = new Array(old.length * 2);
    mask = table.length - 1;
    for (const name of old) {
      if (name === undefined) continue;
      let g = 0x811c9dc5;
      for (let k = 0; k < name.length; k++) g = Math.imul(g ^ name.charCodeAt(k), 0x01000193);
      let at = g & mask;
      while (table[at] !== undefined) at = (at + 1) & mask;
      table[at] = name;
    }
    slot = h & mask;
    while (table[slot] !== undefined) slot = (slot + 1) & mask;
  }
  table[slot] = text;
  return text;
}

export function foundText(p: Parser): string {
  const k = current(p);
  if (k === T.Eof) return "end of file";
  if (k === T.Ident || k === T.Int || k === T.Float || k === T.String || k === T.KwReserved) {
    const len = p.ends[p.pos] - p.starts[p.pos];
    if (k === T.KwReserved) return `reserved keyword \`${tokenText(p)}\``;
    return len <= 24 ? `\`${tokenText(p)}\`` : TOKEN_NAMES[k];
  }
  return TOKEN_NAMES[k];
}

export function diagnostic(
  p: Parser,
  code: string,
  start: number,
  end: number,
  message: string,
  labels: Label[] = [],
  help: string | null = null,
): Diagnostic {
  return {
    code,
    severity: "error",
    message,
    file: p.file,
    span: { start, end },
    labels,
    help,
    fixes: [],
  };
}

/** Reports at most one parse error per position: the first is the one worth reading. */
export function reportError(
  p: Parser,
  code: string,
  start: number,
  end: number,
  message: string,
  help: string | null = null,
) {
  if (start === p.lastErrorAt) return;
  p.lastErrorAt = start;
  p.diags.push(diagnostic(p, code, start, end, message, [], help));
}

/** "expected X, found Y" at the current token. */
export function expected(p: Parser, what: string): void {
  const k = current(p);
  // Where N0106 already speaks (the end of a file with an unclosed
  // delimiter, a mismatched closer), another error would only repeat it.
  if (k === T.Eof && p.unclosedAtEof) return;
  if (OPENER_OF[k] !== 0 && p.mismatched.has(p.pos)) return;
  if (p.pos > 0 && p.unterminated.has(p.starts[p.pos - 1])) return;
  if (p.tooDeep && k === T.Eof) return;
  // `a ≠ b`: N0100 at `≠` already says what is wrong; `b` being unexpected follows from it.
  if (afterInvalidCharacter(p)) return;
  const help = k === T.KwReserved ? reservedHelp(tokenText(p)) : foreignHelp(p, what);
  reportError(
    p,
    D.expectedToken.code,
    tokenStart(p),
    p.ends[p.pos],
    D.expectedToken.text.expected(what, foundText(p)),
    help,
  );
}

/** Whether an invalid character lies between the previous token and this one. */
function afterInvalidCharacter(p: Parser): boolean {
  const from = p.pos > 0 ? p.ends[p.pos - 1] : 0;
  const to = tokenStart(p);
  const list = p.invalid;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length && list[lo] < to;
}

/**
 * Help for what a newcomer brings from another language and the grammar
 * does not have: indexing, lambdas, assignment, `:` before a result type,
 * other languages' words for items.
 */
function foreignHelp(p: Parser, what: string): string | null {
  const k = current(p);
  if (k === T.LBracket && what !== "expression") return FOREIGN_TOKENS.indexing;
  if (k === T.PipePipe && what === "expression") return FOREIGN_TOKENS.lambda;
  if (k === T.Eq) return FOREIGN_TOKENS.assignment;
  if (k === T.Colon && what.includes("`{`")) return FOREIGN_TOKENS.resultColon;
  if (k === T.Ident) return foreignWordHelp(tokenText(p));
  return null;
}

export function expect(p: Parser, k: number): boolean {
  if (eat(p, k)) return true;
  expected(p, TOKEN_NAMES[k]);
  return false;
}

export function errorNode(start: number, end: number): A.ErrorNode {
  return { kind: "Error", start, end };
}

/**
 * A zero-width stand-in for something missing, placed right after the
 * last consumed token so it always lies inside the node being built.
 */
export function missingNode(p: Parser): A.ErrorNode {
  const at = prevEnd(p);
  return { kind: "Error", start: at, end: at };
}

/** Enters one nesting level; false (after a diagnostic) when too deep. */
export function enter(p: Parser): boolean {
  if (p.depth >= MAX_DEPTH) {
    reportTooDeep(p);
    return false;
  }
  p.depth++;
  return true;
}

export function reportTooDeep(p: Parser): void {
  if (!p.tooDeep) {
    p.tooDeep = true;
    p.diags.push(
      diagnostic(
        p,
        D.tooDeep.code,
        tokenStart(p),
        p.ends[p.pos],
        D.tooDeep.text.nesting(MAX_DEPTH),
      ),
    );
  }
}

/** Too deep: skip the rest of the construct (balanced) and stand in an error node. */
export function skipTooDeep(p: Parser): A.ErrorNode {
  const before = p.pos;
  const start = tokenStart(p);
  skipTo(p, STOP_EXPR);
  return p.pos === before ? missingNode(p) : errorNode(start, prevEnd(p));
}

/**
 * Skips tokens up to one in `stop` (or an unmatched closer, or the end),
 * jumping over balanced groups.
 */
export function skipTo(p: Parser, stop: Uint8Array): void {
  while (p.pos < p.eof) {
    const k = p.kinds[p.pos];
    if (stop[k] === 1) return;
    // Every set that stops at items stops at `fn name` too; a bare `fn`
    // may be a function type (`fn(Int) -> Int`) and is skipped.
    if (k === T.KwFn && peek(p) === T.Ident && stop[T.KwRecord] === 1) return;
    if (stop[T.KwRecord] === 1 && atTestStart(p)) return;
    if (CLOSER_OF[k] !== 0) {
      // An opener: jump past its group (or past it alone when unclosed).
      const m = p.partner[p.pos];
      if (m < 0) {
        p.pos++;
        continue;
      }
      p.pos = m + 1;
      continue;
    }
    if (OPENER_OF[k] !== 0) {
      if (p.partner[p.pos] >= 0) return; // it closes an enclosing group
      p.pos++; // a stray closer
      continue;
    }
    p.pos++;
  }
}

export function isItemStart(p: Parser): boolean {
  const k = current(p);
  return k === T.KwRecord || k === T.KwEnum || k === T.KwPub || k === T.KwImport ||
    (k === T.KwFn && peek(p) === T.Ident) || atTestStart(p);
}

/** `test fn`: the contextual word `test` starts a test function only right before `fn`. */
export function atTestStart(p: Parser): boolean {
  return p.kinds[p.pos] === T.Ident && peek(p) === T.KwFn &&
    p.ends[p.pos] - p.starts[p.pos] === 4 && tokenText(p) === "test";
}

export function nameDecl(p: Parser): A.NameDecl {
  return nameNode(p, "NameDecl");
}

export function nameRef(p: Parser): A.NameRef {
  return nameNode(p, "NameRef");
}

/** An identifier as a declaration or a reference; a missing one is an empty name where it belongs. */
export function nameNode<K extends "NameDecl" | "NameRef">(
  p: Parser,
  kind: K,
): { kind: K; start: number; end: number; text: string } {
  if (atKind(p, T.Ident)) {
    const node = { kind, start: tokenStart(p), end: p.ends[p.pos], text: ident(p) };
    bump(p);
    return node;
  }
  expected(p, "identifier");
  const at = prevEnd(p);
  return { kind, start: at, end: at, text: "" };
}

/** A dotted path of names: `a`, `geometry.shapes`, `Shape.Circle`. */
export function dottedPath(p: Parser): A.NameRef[] {
  const path = [nameRef(p)];
  while (atKind(p, T.Dot) && peek(p) === T.Ident) {
    bump(p);
    path.push(nameRef(p));
  }
  return path;
}

/**
 * A comma-separated list between `open` and its closer, trailing comma
 * allowed. Returns the end offset (past the closer when present).
 */
export function list<N>(p: Parser, close: number, element: (p: Parser) => N | null): N[] {
  // Elements gather on a shared stack and leave as one exact-size array:
  // a pushed-to array would keep room for 17, and most lists hold 1 to 3.
  const scratch = p.scratch;
  const mark = scratch.length;
  const open = p.pos;
  bump(p);
  while (true) {
    if (atClose(p, open, close)) {
      bump(p);
      break;
    }
    if (atKind(p, T.Eof) || isItemStart(p)) {
      closeGroup(p, open, close);
      break;
    }
    const el = element(p);
    if (el !== null) scratch.push(el);
    if (eat(p, T.Comma)) continue;
    if (atClose(p, open, close)) {
      bump(p);
      break;
    }
    expected(p, `\`,\` or ${TOKEN_NAMES[close]}`);
    skipTo(p, STOP_LIST);
    if (eat(p, T.Comma)) continue;
    closeGroup(p, open, close);
    break;
  }
  const out = scratch.slice(mark) as N[];
  scratch.length = mark;
  return out;
}

/** True at the closer of the group opened at `open` (even written with the wrong character). */
export function atClose(p: Parser, open: number, close: number): boolean {
  return p.kinds[p.pos] === close || p.partner[open] === p.pos;
}

/**
 * Ends the group opened at `open`: consumes its closer, or reports the
 * unexpected token and jumps to the closer paired with `open`, so that
 * whatever was left inside the group cannot derail what follows.
 */
export function closeGroup(p: Parser, open: number, close: number): void {
  if (atClose(p, open, close)) {
    bump(p);
    return;
  }
  expected(p, TOKEN_NAMES[close]);
  const partner = p.partner[open];
  if (partner > p.pos && !isItemStart(p)) p.pos = partner + 1;
}

export function intValue(p: Parser, negative: boolean): bigint | null {
  const i = p.pos;
  const text = p.tokens.slice(p.starts[i], p.ends[i]);
  let digits = text.indexOf("_") >= 0 ? text.replaceAll("_", "") : text;
  if (!/^(0[xX][0-9a-fA-F]+|[0-9]+)$/.test(digits)) return null; // diagnosed by the lexer
  let value: bigint;
  if (digits.length <= 15 && digits.charCodeAt(1) !== 0x78 && digits.charCodeAt(1) !== 0x58) {
    value = BigInt(Number(digits));
  } else {
    if (digits.charCodeAt(1) === 0x58) digits = "0x" + digits.slice(2);
    value = BigInt(digits);
  }
  const limit = negative ? 9223372036854775808n : 9223372036854775807n;
  if (value > limit) {
    p.diags.push(
      diagnostic(
        p,
        D.badNumber.code,
        p.starts[i],
        p.ends[i],
        D.badNumber.text.intTooLarge(),
        [],
        "`Int` holds 64-bit signed values, from -9223372036854775808 to 9223372036854775807",
      ),
    );
    return null;
  }
  return negative ? -value : value;
}

export function floatValue(p: Parser, negative: boolean): number | null {
  const i = p.pos;
  const text = p.tokens.slice(p.starts[i], p.ends[i]).replaceAll("_", "");
  if (!/^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) return null;
  const value = Number(text);
  if (!Number.isFinite(value)) {
    p.diags.push(
      diagnostic(p, D.badNumber.code, p.starts[i], p.ends[i], D.badNumber.text.floatTooLarge()),
    );
    return null;
  }
  return negative ? -value : value;
}

export function stopSet(kinds: number[]): Uint8Array {
  const set = new Uint8Array(64);
  for (const k of kinds) set[k] = 1;
  return set;
}

export const ITEM_KINDS = [T.KwRecord, T.KwEnum, T.KwPub, T.KwImport];

/** Top level: the next item (`fn` counts when a name follows; see #skipTo). */
export const STOP_ITEM = stopSet([...ITEM_KINDS, T.KwFn]);

export const STOP_STMT = stopSet([T.Semi, T.KwLet, ...ITEM_KINDS]);

export const STOP_LIST = stopSet([T.Comma, ...ITEM_KINDS]);

export const STOP_EXPR = stopSet([T.Semi, T.Comma, T.FatArrow, ...ITEM_KINDS]);

/** A literal at the current token (an Int, Float, String, `true` or `false` token). */
export function parseLiteral(p: Parser): A.IntLit | A.FloatLit | A.StringLit | A.BoolLit {
  const start = tokenStart(p);
  const end = p.ends[p.pos];
  switch (current(p)) {
    case T.Int: {
      const value = intValue(p, false);
      bump(p);
      return { kind: "IntLit", start, end, value };
    }
    case T.Float: {
      const value = floatValue(p, false);
      bump(p);
      return { kind: "FloatLit", start, end, value };
    }
    case T.String: {
      const value = decodeString(p.tokens, p.sig[p.pos]);
      bump(p);
      return { kind: "StringLit", start, end, value };
    }
    case T.KwTrue:
      bump(p);
      return { kind: "BoolLit", start, end, value: true };
    default:
      bump(p);
      return { kind: "BoolLit", start, end, value: false };
  }
}

/** Whether a name starts with an uppercase ASCII letter. */
export function isUpper(name: string): boolean {
  const c = name.charCodeAt(0);
  return c >= 0x41 && c <= 0x5a;
}
