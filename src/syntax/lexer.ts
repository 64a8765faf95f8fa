/**
 * The lossless lexer. It works on the file's UTF-8 bytes, so every token's
 * span is a byte range with no conversion, and it never fails: a byte that
 * cannot start a token becomes an `Error` token (with a diagnostic), so the
 * tokens always cover the file exactly.
 *
 * Tokens are stored as a struct of arrays (kinds, starts, ends): about nine
 * bytes a token instead of an object each, which matters at 100k lines.
 *
 * @module
 */
import { DIAGNOSTICS as D } from "../base/mod.ts";
import { lookAlikeHelp } from "./newcomer.ts";

import {
  ACTIVE_KEYWORDS,
  isTriviaKind,
  type LexError,
  RESERVED_WORDS,
  TOKEN_NAMES,
  TokenKind,
} from "./tokens.ts";

export { ACTIVE_KEYWORDS, isTriviaKind, type LexError, RESERVED_WORDS, TOKEN_NAMES, TokenKind };

const asciiDecoder = new TextDecoder("latin1");
const utf8Decoder = new TextDecoder("utf-8");

/**
 * The tokens of one file, lossless: token `i` covers bytes
 * `[start(i), end(i))`, consecutive tokens touch, and the last token is a
 * zero-width `Eof` at the file's length.
 */
export class TokenStream {
  /** The file's bytes. */
  readonly source: Uint8Array;
  readonly kinds: Uint8Array;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  /** Number of tokens, the final `Eof` included. */
  readonly count: number;
  /** True when every byte is ASCII: token text is then a slice of {@link asciiText}. */
  readonly #ascii: boolean;
  #text: string | null = null;

  constructor(
    source: Uint8Array,
    kinds: Uint8Array,
    starts: Uint32Array,
    ends: Uint32Array,
    count: number,
    ascii: boolean,
  ) {
    this.source = source;
    this.kinds = kinds;
    this.starts = starts;
    this.ends = ends;
    this.count = count;
    this.#ascii = ascii;
  }

  /** The kind of token `i`. */
  kind(i: number): TokenKind {
    return this.kinds[i] as TokenKind;
  }

  /** The byte offset where token `i` starts. */
  start(i: number): number {
    return this.starts[i];
  }

  /** The byte offset just past token `i`. */
  end(i: number): number {
    return this.ends[i];
  }

  /** True when token `i` is whitespace, a newline or a comment. */
  isTrivia(i: number): boolean {
    return isTriviaKind(this.kinds[i]);
  }

  /** The exact source text of token `i` (invalid UTF-8 shows as U+FFFD). */
  text(i: number): string {
    return this.slice(this.starts[i], this.ends[i]);
  }

  /** The source text of a byte range. */
  slice(start: number, end: number): string {
    if (this.#ascii) {
      // One native decode of the whole file, then substrings: cheaper than
      // a decode per token.
      if (this.#text === null) this.#text = asciiDecoder.decode(this.source);
      return this.#text.slice(start, end);
    }
    const src = this.source;
    if (end - start <= 32) {
      let ascii = true;
      for (let k = start; k < end; k++) {
        if (src[k] >= 0x80) {
          ascii = false;
          break;
        }
      }
      if (ascii) {
        let s = "";
        for (let k = start; k < end; k++) s += String.fromCharCode(src[k]);
        return s;
      }
    }
    return utf8Decoder.decode(src.subarray(start, end));
  }
}

// Byte classes, so the hot loop is one table load per byte.
const CLASS_OTHER = 0;
const CLASS_IDENT_START = 1;
const CLASS_DIGIT = 2;
const byteClass = new Uint8Array(256);
for (let c = 0x41; c <= 0x5a; c++) byteClass[c] = CLASS_IDENT_START;
for (let c = 0x61; c <= 0x7a; c++) byteClass[c] = CLASS_IDENT_START;
byteClass[0x5f] = CLASS_IDENT_START;
for (let c = 0x30; c <= 0x39; c++) byteClass[c] = CLASS_DIGIT;

function isIdentByte(b: number): boolean {
  return byteClass[b] !== CLASS_OTHER;
}

function isHexDigit(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46);
}

/** The keyword kind of the identifier bytes `[s, e)`, or `Ident`. */
function keywordKind(b: Uint8Array, s: number, e: number): number {
  const n = e - s;
  const c0 = b[s];
  switch (n) {
    case 1:
      return c0 === 0x5f ? TokenKind.Underscore : TokenKind.Ident;
    case 2:
      if (c0 === 0x66 && b[s + 1] === 0x6e) return TokenKind.KwFn; // fn
      if (c0 === 0x69 && b[s + 1] === 0x66) return TokenKind.KwIf; // if
      if (c0 === 0x61 && b[s + 1] === 0x73) return TokenKind.KwAs; // as
      if (c0 === 0x69 && b[s + 1] === 0x6e) return TokenKind.KwReserved; // in
      return TokenKind.Ident;
    case 3:
      if (eq(b, s, "let")) return TokenKind.KwLet;
      if (eq(b, s, "pub")) return TokenKind.KwPub;
      if (eq(b, s, "for") || eq(b, s, "mut")) return TokenKind.KwReserved;
      return TokenKind.Ident;
    case 4:
      if (eq(b, s, "enum")) return TokenKind.KwEnum;
      if (eq(b, s, "else")) return TokenKind.KwElse;
      if (eq(b, s, "true")) return TokenKind.KwTrue;
      if (eq(b, s, "loop")) return TokenKind.KwReserved;
      return TokenKind.Ident;
    case 5:
      if (eq(b, s, "match")) return TokenKind.KwMatch;
      if (eq(b, s, "false")) return TokenKind.KwFalse;
      if (eq(b, s, "while") || eq(b, s, "break")) return TokenKind.KwReserved;
      return TokenKind.Ident;
    case 6:
      if (eq(b, s, "record")) return TokenKind.KwRecord;
      if (eq(b, s, "import")) return TokenKind.KwImport;
      if (eq(b, s, "return")) return TokenKind.KwReturn;
      return TokenKind.Ident;
    case 8:
      if (eq(b, s, "continue")) return TokenKind.KwReserved;
      return TokenKind.Ident;
    default:
      return TokenKind.Ident;
  }
}

function eq(b: Uint8Array, s: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (b[s + k] !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * The length of the valid UTF-8 sequence at `i`, or 0 when the bytes there
 * are not one (overlong forms, surrogates and values past U+10FFFF included).
 */
export function utf8SequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const n = b.length;
  if (c >= 0xc2 && c <= 0xdf) {
    return i + 1 < n && (b[i + 1] & 0xc0) === 0x80 ? 2 : 0;
  }
  if (c >= 0xe0 && c <= 0xef) {
    if (i + 2 >= n) return 0;
    const c1 = b[i + 1];
    if ((c1 & 0xc0) !== 0x80 || (b[i + 2] & 0xc0) !== 0x80) return 0;
    if (c === 0xe0 && c1 < 0xa0) return 0;
    if (c === 0xed && c1 >= 0xa0) return 0;
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (i + 3 >= n) return 0;
    const c1 = b[i + 1];
    if (
      (c1 & 0xc0) !== 0x80 || (b[i + 2] & 0xc0) !== 0x80 || (b[i + 3] & 0xc0) !== 0x80
    ) return 0;
    if (c === 0xf0 && c1 < 0x90) return 0;
    if (c === 0xf4 && c1 >= 0x90) return 0;
    return 4;
  }
  return 0;
}

/** Growable struct-of-arrays storage for tokens. */
class TokenBuffer {
  kinds: Uint8Array;
  starts: Uint32Array;
  ends: Uint32Array;
  count = 0;

  constructor(capacity: number) {
    this.kinds = new Uint8Array(capacity);
    this.starts = new Uint32Array(capacity);
    this.ends = new Uint32Array(capacity);
  }

  push(kind: number, start: number, end: number): void {
    const i = this.count;
    if (i === this.kinds.length) this.#grow();
    this.kinds[i] = kind;
    this.starts[i] = start;
    this.ends[i] = end;
    this.count = i + 1;
  }

  /**
   * Drops the capacity beyond the tokens: a parse result keeps its tokens
   * (the language server's semantic tokens), and a long-lived caller keeps
   * every file's parse (measured: 6 MB of the generated 100,000-line
   * program's 15 MB of token arrays were unused capacity).
   */
  trim(): void {
    if (this.kinds.length - this.count < 64) return;
    this.kinds = this.kinds.slice(0, this.count);
    this.starts = this.starts.slice(0, this.count);
    this.ends = this.ends.slice(0, this.count);
  }

  #grow(): void {
    const cap = this.kinds.length * 2;
    const kinds = new Uint8Array(cap);
    kinds.set(this.kinds);
    this.kinds = kinds;
    const starts = new Uint32Array(cap);
    starts.set(this.starts);
    this.starts = starts;
    const ends = new Uint32Array(cap);
    ends.set(this.ends);
    this.ends = ends;
  }
}

/** The lexer's output: the tokens and the lexical diagnostics, in source order. */
export interface LexResult {
  readonly tokens: TokenStream;
  readonly errors: LexError[];
}

/**
 * Splits a file's bytes into tokens. Never throws.
 *
 * `skip` (pairs of offsets, ascending, each `[start, end)` a run from a `{`
 * to its `}`: a function's body, as an earlier parse of the same bytes
 * found it) leaves those runs unlexed: each becomes its braces around one
 * whitespace token, so a skim (parser.ts `skimDeclarations`) costs the
 * declarations alone. The caller vouches for the pairs: one that does not
 * begin where a token would, or does not run from a `{` to a `}`, is
 * ignored; any other is taken as it is.
 */
export function lex(source: Uint8Array, skip: ArrayLike<number> = NO_SKIPS): LexResult {
  const n = source.length;
  // Most files have about one token per 3-4 bytes; grow by doubling beyond.
  const buf = new TokenBuffer(Math.max(64, (n >>> 2) + 16));
  let ascii = true;
  const errors: LexError[] = [];
  const b = source;

  /** Scans UTF-8 text inside a comment or string: reports invalid sequences, returns the next offset. */
  const checkUtf8 = (i: number): number => {
    ascii = false;
    const len = utf8SequenceLength(b, i);
    if (len > 0) return i + len;
    errors.push({
      code: D.invalidCharacter.code,
      start: i,
      end: i + 1,
      message: D.invalidCharacter.text.invalidUtf8(),
    });
    return i + 1;
  };

  let i = 0;
  let skipAt = 0;
  let nextSkip = skip.length >= 2 ? skip[0] : -1;
  while (i < n) {
    if (i >= nextSkip && nextSkip >= 0) {
      const from = skip[skipAt];
      const to = skip[skipAt + 1];
      skipAt += 2;
      nextSkip = skipAt + 1 < skip.length ? skip[skipAt] : -1;
      if (from === i && to - 2 >= from && to <= n && b[from] === 0x7b && b[to - 1] === 0x7d) {
        buf.push(TokenKind.LBrace, from, from + 1);
        if (to - 1 > from + 1) buf.push(TokenKind.Whitespace, from + 1, to - 1);
        buf.push(TokenKind.RBrace, to - 1, to);
        // Token text is sliced from the whole file decoded as latin1 while
        // every byte is ASCII: a skipped run counts too.
        if (ascii) { for (let k = from + 1; k < to - 1; k++) if (b[k] >= 0x80) ascii = false; }
        i = to;
        continue;
      }
    }
    const c = b[i];
    const start = i;
    const cls = byteClass[c];
    if (cls === CLASS_IDENT_START) {
      i++;
      while (i < n && isIdentByte(b[i])) i++;
      buf.push(keywordKind(b, start, i), start, i);
      continue;
    }
    if (cls === CLASS_DIGIT) {
      i = scanNumber(b, i, errors);
      const kind = isFloatText(b, start, i) ? TokenKind.Float : TokenKind.Int;
      buf.push(kind, start, i);
      continue;
    }
    if (c === 0x20 || c === 0x09) {
      i++;
      while (i < n && (b[i] === 0x20 || b[i] === 0x09)) i++;
      buf.push(TokenKind.Whitespace, start, i);
      continue;
    }
    if (c === 0x0a || c === 0x0d) {
      // A lone carriage return is spacing, not a line break: lines are
      // counted by `\n` everywhere (LineIndex does the same).
      const crlf = c === 0x0d && i + 1 < n && b[i + 1] === 0x0a;
      i += crlf ? 2 : 1;
      buf.push(c === 0x0a || crlf ? TokenKind.Newline : TokenKind.Whitespace, start, i);
      continue;
    }
    if (c === 0x22) { // "
      i = scanString(b, i, errors, checkUtf8);
      buf.push(TokenKind.String, start, i);
      continue;
    }
    if (c === 0x2f && i + 1 < n && b[i + 1] === 0x2f) { // //
      i = scanLineComment(b, i, checkUtf8);
      buf.push(isDocComment(b, start) ? TokenKind.DocComment : TokenKind.LineComment, start, i);
      continue;
    }
    if (c === 0x2f && i + 1 < n && b[i + 1] === 0x2a) { // /*
      i = scanBlockComment(b, i, errors, checkUtf8);
      buf.push(TokenKind.BlockComment, start, i);
      continue;
    }
    const kind = c < 0x80 ? punctuation(b, i) : -1;
    if (kind >= 0) {
      i += TWO_BYTE_KINDS[kind] ? 2 : 1;
      buf.push(kind, start, i);
      continue;
    }
    // Nothing above starts here: one error token for the whole run of
    // characters that cannot start a token, one diagnostic for it.
    i = skipInvalid(b, i);
    if (i === start) i++;
    let nonAscii = false;
    for (let k = start; k < i; k++) if (b[k] >= 0x80) nonAscii = true;
    if (nonAscii) ascii = false;
    errors.push({
      code: D.invalidCharacter.code,
      start,
      end: i,
      ...invalidCharacter(b, start, i),
    });
    buf.push(TokenKind.Error, start, i);
  }
  buf.push(TokenKind.Eof, n, n);
  buf.trim();
  return {
    tokens: new TokenStream(source, buf.kinds, buf.starts, buf.ends, buf.count, ascii),
    errors,
  };
}

const NO_SKIPS: readonly number[] = [];

/** Single-byte punctuation: the token kind of a byte, or -1. */
const ONE_BYTE = new Int16Array(128).fill(-1);
/** Two-byte punctuation: `TWO_BYTE[first]` lists `[second, kind]` pairs. */
const TWO_BYTE: [number, number][][] = Array.from({ length: 128 }, () => []);
/** Whether a token kind is two bytes long. */
const TWO_BYTE_KINDS: boolean[] = [];

function punctuator(text: string, kind: number): void {
  if (text.length === 1) ONE_BYTE[text.charCodeAt(0)] = kind;
  else {
    TWO_BYTE[text.charCodeAt(0)].push([text.charCodeAt(1), kind]);
    TWO_BYTE_KINDS[kind] = true;
  }
}

for (
  const [text, kind] of [
    ["(", TokenKind.LParen],
    [")", TokenKind.RParen],
    ["{", TokenKind.LBrace],
    ["}", TokenKind.RBrace],
    ["[", TokenKind.LBracket],
    ["]", TokenKind.RBracket],
    [",", TokenKind.Comma],
    [";", TokenKind.Semi],
    [":", TokenKind.Colon],
    [".", TokenKind.Dot],
    ["..", TokenKind.DotDot],
    ["-", TokenKind.Minus],
    ["->", TokenKind.Arrow],
    ["=", TokenKind.Eq],
    ["=>", TokenKind.FatArrow],
    ["==", TokenKind.EqEq],
    ["!", TokenKind.Bang],
    ["!=", TokenKind.BangEq],
    ["<", TokenKind.Lt],
    ["<=", TokenKind.Le],
    [">", TokenKind.Gt],
    [">=", TokenKind.Ge],
    ["+", TokenKind.Plus],
    ["*", TokenKind.Star],
    ["/", TokenKind.Slash],
    ["%", TokenKind.Percent],
    ["&&", TokenKind.AmpAmp],
    ["||", TokenKind.PipePipe],
  ] as const
) punctuator(text, kind);

/** The punctuation token at `b[i]` (ASCII), the longest that matches, or -1. */
function punctuation(b: Uint8Array, i: number): number {
  if (i + 1 < b.length) {
    for (const [second, kind] of TWO_BYTE[b[i]]) if (b[i + 1] === second) return kind;
  }
  return ONE_BYTE[b[i]];
}

/** `///` starts a doc comment, but `////` is an ordinary comment again. */
function isDocComment(b: Uint8Array, start: number): boolean {
  const n = b.length;
  return start + 2 < n && b[start + 2] === 0x2f && !(start + 3 < n && b[start + 3] === 0x2f);
}

/** A `//` comment from `i` to the end of its line (the line break not included). */
function scanLineComment(b: Uint8Array, i: number, checkUtf8: (i: number) => number): number {
  const n = b.length;
  i += 2;
  while (i < n && b[i] !== 0x0a) {
    if (b[i] === 0x0d && i + 1 < n && b[i + 1] === 0x0a) break;
    if (b[i] >= 0x80) i = checkUtf8(i);
    else i++;
  }
  return i;
}

/** A block comment from `i` (its opening `/*`); comments nest, and an unclosed one runs to the end. */
function scanBlockComment(
  b: Uint8Array,
  i: number,
  errors: LexError[],
  checkUtf8: (i: number) => number,
): number {
  const n = b.length;
  const start = i;
  i += 2;
  let depth = 1;
  while (i < n) {
    const d = b[i];
    if (d === 0x2a && i + 1 < n && b[i + 1] === 0x2f) {
      i += 2;
      if (--depth === 0) break;
    } else if (d === 0x2f && i + 1 < n && b[i + 1] === 0x2a) {
      i += 2;
      depth++;
    } else if (d >= 0x80) {
      i = checkUtf8(i);
    } else {
      i++;
    }
  }
  if (depth > 0) {
    errors.push({
      code: D.unterminatedComment.code,
      start,
      end: start + 2,
      message: D.unterminatedComment.text.comment(),
    });
  }
  return i;
}

/** True when `b[i]` can start a token (so an invalid run stops before it). */
function startsToken(b: Uint8Array, i: number): boolean {
  const c = b[i];
  if (byteClass[c] !== CLASS_OTHER) return true;
  if (c === 0x26) return i + 1 < b.length && b[i + 1] === 0x26;
  if (c === 0x7c) return i + 1 < b.length && b[i + 1] === 0x7c;
  if (c === 0x0d) return true;
  return c < 0x80 && c >= 0x09 && c !== 0x0b && c !== 0x0c && STARTERS[c] === 1;
}

const STARTERS = new Uint8Array(128);
for (const ch of ' \t\n\r"/(){}[],;:.-=!<>+*%') STARTERS[ch.charCodeAt(0)] = 1;

function skipInvalid(b: Uint8Array, i: number): number {
  const n = b.length;
  while (i < n && !startsToken(b, i)) {
    const len = utf8SequenceLength(b, i);
    i += len > 0 ? len : 1;
  }
  return i;
}

/** The message of an invalid character run, and what to write instead where that is known. */
function invalidCharacter(b: Uint8Array, s: number, e: number): { message: string; help?: string } {
  if (utf8SequenceLength(b, s) === 0) return { message: D.invalidCharacter.text.invalidUtf8() };
  const text = utf8Decoder.decode(b.subarray(s, e));
  const first = String.fromCodePoint(text.codePointAt(0) ?? 0xfffd);
  const shown = first.charCodeAt(0) < 0x20 || first.charCodeAt(0) === 0x7f
    ? `U+${first.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`
    : `\`${first}\``;
  const help = lookAlikeHelp(first);
  return { message: D.invalidCharacter.text.inCode(shown), help };
}

/** True when the number token `[s, e)` is a float: a `.` or an exponent outside hex. */
function isFloatText(b: Uint8Array, s: number, e: number): boolean {
  if (e - s > 1 && b[s] === 0x30 && (b[s + 1] === 0x78 || b[s + 1] === 0x58)) return false;
  for (let k = s; k < e; k++) {
    const c = b[k];
    if (c === 0x2e || c === 0x65 || c === 0x45) return true;
  }
  return false;
}

/**
 * Scans a number from `i` (a digit) and returns its end. The token takes
 * every identifier byte that follows, so `12abc` is one bad literal rather
 * than a number glued to a name.
 */
function scanNumber(b: Uint8Array, i: number, errors: LexError[]): number {
  const n = b.length;
  const start = i;
  let bad: string | null = null;
  const messages = D.badNumber.text;
  if (b[i] === 0x30 && i + 1 < n && (b[i + 1] === 0x78 || b[i + 1] === 0x58)) {
    i += 2;
    let digits = 0;
    while (i < n && (isHexDigit(b[i]) || b[i] === 0x5f)) {
      if (b[i] !== 0x5f) digits++;
      i++;
    }
    if (digits === 0) bad = messages.hexNoDigits();
  } else {
    while (i < n && (byteClass[b[i]] === CLASS_DIGIT || b[i] === 0x5f)) i++;
    if (i + 1 < n && b[i] === 0x2e && byteClass[b[i + 1]] === CLASS_DIGIT) {
      i++;
      while (i < n && (byteClass[b[i]] === CLASS_DIGIT || b[i] === 0x5f)) i++;
    }
    if (i < n && (b[i] === 0x65 || b[i] === 0x45)) {
      i++;
      if (i < n && (b[i] === 0x2b || b[i] === 0x2d)) i++;
      let digits = 0;
      while (i < n && (byteClass[b[i]] === CLASS_DIGIT || b[i] === 0x5f)) {
        if (b[i] !== 0x5f) digits++;
        i++;
      }
      if (digits === 0) bad = messages.exponentNoDigits();
    }
  }
  if (i < n && isIdentByte(b[i])) {
    const suffixStart = i;
    while (i < n && isIdentByte(b[i])) i++;
    if (bad === null) {
      let suffix = "";
      for (let k = suffixStart; k < i; k++) suffix += String.fromCharCode(b[k]);
      bad = messages.suffix(suffix);
    }
  }
  if (bad !== null) {
    errors.push({ code: D.badNumber.code, start, end: i, message: bad });
  }
  return i;
}

/**
 * Scans a string literal from its opening quote and returns its end. A
 * string stops at the end of its line: a raw newline never belongs to a
 * string, so a missing quote costs one line, not the rest of the file.
 */
function scanString(
  b: Uint8Array,
  i: number,
  errors: LexError[],
  checkUtf8: (i: number) => number,
): number {
  const n = b.length;
  const start = i;
  i++;
  while (i < n) {
    const c = b[i];
    if (c === 0x22) return i + 1;
    if (c === 0x0a || (c === 0x0d && i + 1 < n && b[i + 1] === 0x0a)) break;
    if (c === 0x5c) {
      const escStart = i;
      i++;
      if (i >= n || b[i] === 0x0a) {
        errors.push({
          code: D.badEscape.code,
          start: escStart,
          end: i,
          message: D.badEscape.text.unknown(""),
        });
        continue;
      }
      const e = b[i];
      if (
        e === 0x6e || e === 0x74 || e === 0x72 || e === 0x30 || e === 0x5c || e === 0x22
      ) {
        i++;
        continue;
      }
      if (e === 0x75) {
        i = scanUnicodeEscape(b, escStart, errors);
        continue;
      }
      const len = e >= 0x80 ? Math.max(1, utf8SequenceLength(b, i)) : 1;
      const shown = e >= 0x20 && e < 0x7f ? ` \`\\${String.fromCharCode(e)}\`` : "";
      errors.push({
        code: D.badEscape.code,
        start: escStart,
        end: i + len,
        message: D.badEscape.text.unknown(shown),
      });
      if (e >= 0x80) i = checkUtf8(i);
      else i++;
      continue;
    }
    if (c >= 0x80) i = checkUtf8(i);
    else i++;
  }
  errors.push({
    code: D.unterminatedString.code,
    start,
    end: i,
    message: D.unterminatedString.text.string(),
  });
  return i;
}

/** `\u{1F600}`: one to six hex digits naming a Unicode scalar value. */
function scanUnicodeEscape(b: Uint8Array, escStart: number, errors: LexError[]): number {
  const n = b.length;
  let i = escStart + 2; // past `\u`
  if (i >= n || b[i] !== 0x7b) {
    errors.push({
      code: D.badEscape.code,
      start: escStart,
      end: i,
      message: D.badEscape.text.unicodeNoBrace(),
    });
    return i;
  }
  i++;
  let digits = 0;
  let value = 0;
  while (i < n && isHexDigit(b[i])) {
    if (digits < 7) value = value * 16 + parseInt(String.fromCharCode(b[i]), 16);
    digits++;
    i++;
  }
  if (i >= n || b[i] !== 0x7d) {
    errors.push({
      code: D.badEscape.code,
      start: escStart,
      end: i,
      message: D.badEscape.text.unicodeUnterminated(),
    });
    return i;
  }
  i++;
  if (digits === 0 || digits > 6) {
    errors.push({
      code: D.badEscape.code,
      start: escStart,
      end: i,
      message: digits === 0 ? D.badEscape.text.unicodeEmpty() : D.badEscape.text.unicodeTooLong(),
    });
  } else if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
    errors.push({
      code: D.badEscape.code,
      start: escStart,
      end: i,
      message: D.badEscape.text.unicodeNotScalar(),
    });
  }
  return i;
}

/**
 * The value of a string token's text (quotes included), escapes applied.
 * An invalid escape is kept as written, so the value is still defined.
 */
export function decodeString(tokens: TokenStream, i: number): string {
  const b = tokens.source;
  const s = tokens.start(i) + 1;
  const tokenEnd = tokens.end(i);
  // The content ends at the first unescaped quote, or at the token's end
  // when the string is unterminated.
  let e = s;
  while (e < tokenEnd && b[e] !== 0x22) e += b[e] === 0x5c ? 2 : 1;
  if (e > tokenEnd) e = tokenEnd;
  let simple = true;
  for (let k = s; k < e; k++) {
    if (b[k] === 0x5c) {
      simple = false;
      break;
    }
  }
  if (simple) return tokens.slice(s, e);
  let out = "";
  let k = s;
  let runStart = s;
  while (k < e) {
    if (b[k] !== 0x5c) {
      k++;
      continue;
    }
    out += tokens.slice(runStart, k);
    const c = k + 1 < e ? b[k + 1] : -1;
    let consumed = 2;
    switch (c) {
      case 0x6e:
        out += "\n";
        break;
      case 0x74:
        out += "\t";
        break;
      case 0x72:
        out += "\r";
        break;
      case 0x30:
        out += "\0";
        break;
      case 0x5c:
        out += "\\";
        break;
      case 0x22:
        out += '"';
        break;
      case 0x75: {
        let j = k + 2;
        let ok = j < e && b[j] === 0x7b;
        let value = 0;
        let digits = 0;
        if (ok) {
          j++;
          while (j < e && isHexDigit(b[j])) {
            if (digits < 7) value = value * 16 + parseInt(String.fromCharCode(b[j]), 16);
            digits++;
            j++;
          }
          ok = j < e && b[j] === 0x7d && digits >= 1 && digits <= 6 && value <= 0x10ffff &&
            !(value >= 0xd800 && value <= 0xdfff);
        }
        if (ok) {
          out += String.fromCodePoint(value);
          consumed = j + 1 - k;
        } else {
          consumed = Math.max(1, j - k);
          out += tokens.slice(k, k + consumed);
        }
        break;
      }
      default:
        consumed = c === -1 ? 1 : 2;
        // A bad escape (diagnosed by the lexer) keeps its text.
        if (c >= 0x80) consumed = 1;
        out += tokens.slice(k, k + consumed);
    }
    k += consumed;
    runStart = k;
  }
  out += tokens.slice(runStart, e);
  return out;
}
