/**
 * The recursive-descent parser (docs/grammar.md §3). It never throws: bad
 * input yields `Error` nodes plus diagnostics, and recovery synchronizes at
 * item keywords, `;`, `,` and closing delimiters so the rest of the file
 * still parses. Nesting deeper than {@link MAX_DEPTH} gives a diagnostic and
 * the parser skips the rest of that group, so no input can overflow the
 * stack, here or in later layers that walk the tree recursively.
 *
 * @module
 */
import type * as A from "./ast.ts";
import type { Diagnostic, Fix, Label } from "../base/mod.ts";
import { decodeString, lex, type LexError, TOKEN_NAMES, TokenKind as T } from "./lexer.ts";
import type { TokenStream } from "./lexer.ts";
import { DIAGNOSTICS as D } from "../base/mod.ts";

/**
 * The deepest nesting of expressions, types and patterns the parser
 * accepts. An operator or postfix chain counts one level per link, so the
 * tree's depth is bounded and recursive walks are safe.
 */
export const MAX_DEPTH = 256;

/** What {@link parse} returns: always a tree, the lossless tokens, and the syntax diagnostics. */
export interface ParseResult {
  readonly tree: A.SourceFile;
  readonly tokens: TokenStream;
  /** Syntax diagnostics (codes N01xx), sorted by position. */
  readonly diagnostics: Diagnostic[];
}

const encoder = new TextEncoder();

/** Parses one file's bytes. Never throws; `file` is copied into every diagnostic. */
export function parse(source: Uint8Array, file = ""): ParseResult {
  const result = parseOnce(source, file);
  return offerDelimiterFixes(source, file, result);
}

// Kind tables: one byte load instead of a chain of comparisons.
const BIN_PREC = new Uint8Array(64);
BIN_PREC[T.PipePipe] = 1;
BIN_PREC[T.AmpAmp] = 2;
BIN_PREC[T.EqEq] = 3;
BIN_PREC[T.BangEq] = 3;
BIN_PREC[T.Lt] = 4;
BIN_PREC[T.Le] = 4;
BIN_PREC[T.Gt] = 4;
BIN_PREC[T.Ge] = 4;
BIN_PREC[T.Plus] = 5;
BIN_PREC[T.Minus] = 5;
BIN_PREC[T.Star] = 6;
BIN_PREC[T.Slash] = 6;
BIN_PREC[T.Percent] = 6;

const BIN_OP: (A.BinaryOp | null)[] = new Array(64).fill(null);
BIN_OP[T.PipePipe] = "||";
BIN_OP[T.AmpAmp] = "&&";
BIN_OP[T.EqEq] = "==";
BIN_OP[T.BangEq] = "!=";
BIN_OP[T.Lt] = "<";
BIN_OP[T.Le] = "<=";
BIN_OP[T.Gt] = ">";
BIN_OP[T.Ge] = ">=";
BIN_OP[T.Plus] = "+";
BIN_OP[T.Minus] = "-";
BIN_OP[T.Star] = "*";
BIN_OP[T.Slash] = "/";
BIN_OP[T.Percent] = "%";

const CLOSER_OF = new Uint8Array(64);
CLOSER_OF[T.LParen] = T.RParen;
CLOSER_OF[T.LBrace] = T.RBrace;
CLOSER_OF[T.LBracket] = T.RBracket;
const OPENER_OF = new Uint8Array(64);
OPENER_OF[T.RParen] = T.LParen;
OPENER_OF[T.RBrace] = T.LBrace;
OPENER_OF[T.RBracket] = T.LBracket;

const CLOSER_TEXT: Record<number, string> = { [T.RParen]: ")", [T.RBrace]: "}", [T.RBracket]: "]" };

/** Kinds that can begin an expression (for `return` without a value). */
const EXPR_START = new Uint8Array(64);
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

interface Unclosed {
  /** Significant-token positions of the openers left open, outermost first. */
  readonly openers: number[];
  /** Position of the mismatched closer, or -1 when the file ended. */
  readonly at: number;
  /** True when the closer is the wrong character for the one opener (`(1]`). */
  readonly replace: boolean;
}

/** One parse, without checking candidate fixes (that needs further parses). */
function parseOnce(source: Uint8Array, file: string): ParseResult {
  const { tokens, errors } = lex(source);
  const p = new Parser(tokens, file, errors);
  const tree = p.parseFile();
  p.diags.sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
  return { tree, tokens, diagnostics: p.diags };
}

/**
 * Adds the "insert the missing delimiter" fix to an unclosed-delimiter
 * diagnostic only when it is certain: the file with that one insertion
 * parses with no diagnostic at all.
 */
function offerDelimiterFixes(source: Uint8Array, file: string, r: ParseResult): ParseResult {
  const code = D.unclosedDelimiter.code;
  const unclosed = r.diagnostics.filter((d) => d.code === code && d.fixes.length > 0);
  if (unclosed.length === 0) return r;
  const verified = new Set<Diagnostic>();
  if (unclosed.length <= 2) {
    for (const d of unclosed) {
      const edit = d.fixes[0].edits[0];
      const head = source.subarray(0, edit.span.start);
      const text = encoder.encode(edit.replacement);
      const tail = source.subarray(edit.span.end);
      const patched = new Uint8Array(head.length + text.length + tail.length);
      patched.set(head, 0);
      patched.set(text, head.length);
      patched.set(tail, head.length + text.length);
      if (parseOnce(patched, file).diagnostics.length === 0) verified.add(d);
    }
  }
  const diagnostics = r.diagnostics.map((d) =>
    d.code === code && !verified.has(d) && d.fixes.length > 0 ? { ...d, fixes: [] } : d
  );
  return { tree: r.tree, tokens: r.tokens, diagnostics };
}

class Parser {
  readonly diags: Diagnostic[] = [];
  readonly #tokens: TokenStream;
  readonly #file: string;
  /** Significant tokens (no trivia, no error tokens), the final Eof included. */
  readonly #sig: Uint32Array;
  readonly #kinds: Uint8Array;
  readonly #starts: Uint32Array;
  readonly #ends: Uint32Array;
  /** For each delimiter position, its partner's position, or -1. */
  readonly #partner: Int32Array;
  readonly #eof: number;
  /** True when the file ends with an unclosed delimiter (N0106 speaks for the end). */
  #unclosedAtEof = false;
  /** Positions of mismatched closers (N0106 speaks for them). */
  readonly #mismatched = new Set<number>();
  /** Start offsets of unterminated strings: the `;` or `)` the parser misses next is inside them. */
  readonly #unterminated = new Set<number>();
  #p = 0;
  #depth = 0;
  #tooDeep = false;
  #noRecord = false;
  #lastErrorAt = -1;
  /** Shared stack for list elements, statements and arms under construction (see #list). */
  readonly #scratch: unknown[] = [];
  // Element parsers for #list, bound once rather than a closure per list.
  readonly #innerExprFn = () => this.#innerExpr();
  readonly #typeFn = () => this.#type();
  readonly #patternFn = () => this.#pattern();
  readonly #paramFn = () => this.#param();
  readonly #fieldInitFn = () => this.#fieldInit();
  readonly #nameRefFn = () => this.#nameRef();
  readonly #nameDeclFn = () => this.#nameDecl();
  readonly #fieldDeclFn = () => this.#fieldDecl();
  readonly #variantFn = () => this.#variant();
  /** Open-addressing table of interned identifier texts (see #ident). */
  #names: (string | undefined)[] = new Array(1024);
  #nameCount = 0;

  constructor(tokens: TokenStream, file: string, lexErrors: LexError[]) {
    this.#tokens = tokens;
    this.#file = file;
    for (const e of lexErrors) {
      this.diags.push(this.#diag(e.code, e.start, e.end, e.message));
      if (e.code === D.unterminatedString.code) this.#unterminated.add(e.start);
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
    this.#sig = sig;
    this.#kinds = sk;
    this.#starts = ss;
    this.#ends = se;
    this.#eof = m - 1;
    this.#partner = new Int32Array(m).fill(-1);
    this.#matchDelimiters();
  }

  // ------------------------------------------------------------ delimiters

  /**
   * Pairs delimiters ahead of parsing, like rustc's token trees: recovery
   * can then jump over a balanced group in one step, and an unclosed
   * opener is reported once, at its place, with the fix.
   */
  #matchDelimiters(): void {
    const kinds = this.#kinds;
    const match = this.#partner;
    const stack: number[] = [];
    const open = new Int32Array(64);
    const problems: Unclosed[] = [];
    for (let i = 0; i < this.#eof; i++) {
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
      this.#reportUnclosed(u);
      if (u.at < 0) this.#unclosedAtEof = true;
      else this.#mismatched.add(u.at);
    }
  }

  #reportUnclosed(u: Unclosed): void {
    const innermost = u.openers[u.openers.length - 1];
    const file = this.#file;
    const labels: Label[] = [];
    // Many openers (say 100,000 nested parentheses) make a useless list:
    // keep the innermost few.
    const shown = u.openers.slice(-9, -1);
    for (const o of shown) {
      labels.push({
        file,
        span: { start: this.#starts[o], end: this.#ends[o] },
        message: "unclosed delimiter",
      });
    }
    let closers = "";
    for (let k = u.openers.length - 1; k >= 0; k--) {
      closers += CLOSER_TEXT[CLOSER_OF[this.#kinds[u.openers[k]]]];
    }
    let at: number;
    let end: number;
    let message: string;
    if (u.at < 0) {
      at = end = this.#tokens.source.length;
      message = D.unclosedDelimiter.text.atEnd();
      labels.push({ file, span: { start: at, end: at }, message: "the file ends here" });
    } else {
      const closer = CLOSER_TEXT[this.#kinds[u.at]];
      message = D.unclosedDelimiter.text.mismatched(closer);
      labels.push({
        file,
        span: { start: this.#starts[u.at], end: this.#ends[u.at] },
        message: "mismatched closing delimiter",
      });
      if (u.replace) {
        at = this.#starts[u.at];
        end = this.#ends[u.at];
      } else {
        // Right after the previous significant token, so the insertion
        // keeps the closer on the line of the code it closes.
        at = end = u.at > 0 ? this.#ends[u.at - 1] : this.#starts[u.at];
      }
    }
    const fix: Fix = {
      title: u.replace ? `replace with \`${closers}\`` : `insert \`${closers}\``,
      applicability: "automatic",
      precondition: { kind: "none" },
      edits: [{ file, span: { start: at, end }, replacement: closers }],
    };
    this.diags.push({
      code: D.unclosedDelimiter.code,
      severity: "error",
      message,
      file,
      span: { start: this.#starts[innermost], end: this.#ends[innermost] },
      labels,
      help: null,
      fixes: [fix],
    });
  }

  // ------------------------------------------------------------ tokens

  #kind(): number {
    return this.#kinds[this.#p];
  }

  #peek(n = 1): number {
    const q = this.#p + n;
    return q <= this.#eof ? this.#kinds[q] : T.Eof;
  }

  #at(k: number): boolean {
    return this.#kinds[this.#p] === k;
  }

  #start(): number {
    return this.#starts[this.#p];
  }

  /** End of the last consumed token: where a node that just finished ends. */
  #prevEnd(): number {
    return this.#p > 0 ? this.#ends[this.#p - 1] : 0;
  }

  #bump(): void {
    if (this.#p < this.#eof) this.#p++;
  }

  #eat(k: number): boolean {
    if (this.#kinds[this.#p] === k) {
      this.#bump();
      return true;
    }
    return false;
  }

  #text(): string {
    return this.#tokens.slice(this.#starts[this.#p], this.#ends[this.#p]);
  }

  /**
   * The current identifier's text, interned: a file repeats its names
   * many times, and one string per distinct name keeps the tree small.
   */
  #ident(): string {
    const src = this.#tokens.source;
    const start = this.#starts[this.#p];
    const end = this.#ends[this.#p];
    let h = 0x811c9dc5;
    for (let k = start; k < end; k++) h = Math.imul(h ^ src[k], 0x01000193);
    let table = this.#names;
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
    const text = this.#tokens.slice(start, end);
    if (++this.#nameCount * 2 > table.length) {
      const old = table;
      table = this.#names = new Array(old.length * 2);
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

  #found(): string {
    const k = this.#kind();
    if (k === T.Eof) return "end of file";
    if (k === T.Ident || k === T.Int || k === T.Float || k === T.String || k === T.KwReserved) {
      const len = this.#ends[this.#p] - this.#starts[this.#p];
      if (k === T.KwReserved) return `reserved keyword \`${this.#text()}\``;
      return len <= 24 ? `\`${this.#text()}\`` : TOKEN_NAMES[k];
    }
    return TOKEN_NAMES[k];
  }

  // ------------------------------------------------------------ diagnostics

  #diag(
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
      file: this.#file,
      span: { start, end },
      labels,
      help,
      fixes: [],
    };
  }

  /** Reports at most one parse error per position: the first is the one worth reading. */
  #error(code: string, start: number, end: number, message: string, help: string | null = null) {
    if (start === this.#lastErrorAt) return;
    this.#lastErrorAt = start;
    this.diags.push(this.#diag(code, start, end, message, [], help));
  }

  /** "expected X, found Y" at the current token. */
  #expected(what: string): void {
    const k = this.#kind();
    // Where N0106 already speaks (the end of a file with an unclosed
    // delimiter, a mismatched closer), another error would only repeat it.
    if (k === T.Eof && this.#unclosedAtEof) return;
    if (OPENER_OF[k] !== 0 && this.#mismatched.has(this.#p)) return;
    if (this.#p > 0 && this.#unterminated.has(this.#starts[this.#p - 1])) return;
    if (this.#tooDeep && k === T.Eof) return;
    const help = k === T.KwReserved
      ? "this word is reserved for a later version of Nazm and cannot be used as a name"
      : null;
    this.#error(
      D.expectedToken.code,
      this.#start(),
      this.#ends[this.#p],
      D.expectedToken.text.expected(what, this.#found()),
      help,
    );
  }

  #expect(k: number): boolean {
    if (this.#eat(k)) return true;
    this.#expected(TOKEN_NAMES[k]);
    return false;
  }

  #errorNode(start: number, end: number): A.ErrorNode {
    return { kind: "Error", start, end };
  }

  /**
   * A zero-width stand-in for something missing, placed right after the
   * last consumed token so it always lies inside the node being built.
   */
  #missing(): A.ErrorNode {
    const at = this.#prevEnd();
    return { kind: "Error", start: at, end: at };
  }

  /** Enters one nesting level; false (after a diagnostic) when too deep. */
  #enter(): boolean {
    if (this.#depth >= MAX_DEPTH) {
      this.#reportTooDeep();
      return false;
    }
    this.#depth++;
    return true;
  }

  #reportTooDeep(): void {
    if (!this.#tooDeep) {
      this.#tooDeep = true;
      this.diags.push(
        this.#diag(
          D.tooDeep.code,
          this.#start(),
          this.#ends[this.#p],
          D.tooDeep.text.nesting(MAX_DEPTH),
        ),
      );
    }
  }

  /** Too deep: skip the rest of the construct (balanced) and stand in an error node. */
  #skipTooDeep(): A.ErrorNode {
    const before = this.#p;
    const start = this.#start();
    this.#skipTo(STOP_EXPR);
    return this.#p === before ? this.#missing() : this.#errorNode(start, this.#prevEnd());
  }

  /**
   * Skips tokens up to one in `stop` (or an unmatched closer, or the end),
   * jumping over balanced groups.
   */
  #skipTo(stop: Uint8Array): void {
    while (this.#p < this.#eof) {
      const k = this.#kinds[this.#p];
      if (stop[k] === 1) return;
      // Every set that stops at items stops at `fn name` too; a bare `fn`
      // may be a function type (`fn(Int) -> Int`) and is skipped.
      if (k === T.KwFn && this.#peek() === T.Ident && stop[T.KwRecord] === 1) return;
      if (stop[T.KwRecord] === 1 && this.#atTestStart()) return;
      if (CLOSER_OF[k] !== 0) {
        // An opener: jump past its group (or past it alone when unclosed).
        const m = this.#partner[this.#p];
        if (m < 0) {
          this.#p++;
          continue;
        }
        this.#p = m + 1;
        continue;
      }
      if (OPENER_OF[k] !== 0) {
        if (this.#partner[this.#p] >= 0) return; // it closes an enclosing group
        this.#p++; // a stray closer
        continue;
      }
      this.#p++;
    }
  }

  // ------------------------------------------------------------ names

  #isItemStart(): boolean {
    const k = this.#kind();
    return k === T.KwRecord || k === T.KwEnum || k === T.KwPub || k === T.KwImport ||
      (k === T.KwFn && this.#peek() === T.Ident) || this.#atTestStart();
  }

  /** `test fn`: the contextual word `test` starts a test function only right before `fn`. */
  #atTestStart(): boolean {
    return this.#kinds[this.#p] === T.Ident && this.#peek() === T.KwFn &&
      this.#ends[this.#p] - this.#starts[this.#p] === 4 && this.#text() === "test";
  }

  #nameDecl(): A.NameDecl {
    return this.#name("NameDecl");
  }

  #nameRef(): A.NameRef {
    return this.#name("NameRef");
  }

  /** An identifier as a declaration or a reference; a missing one is an empty name where it belongs. */
  #name<K extends "NameDecl" | "NameRef">(
    kind: K,
  ): { kind: K; start: number; end: number; text: string } {
    if (this.#at(T.Ident)) {
      const node = { kind, start: this.#start(), end: this.#ends[this.#p], text: this.#ident() };
      this.#bump();
      return node;
    }
    this.#expected("identifier");
    const at = this.#prevEnd();
    return { kind, start: at, end: at, text: "" };
  }

  /** A dotted path of names: `a`, `geometry.shapes`, `Shape.Circle`. */
  #path(): A.NameRef[] {
    const path = [this.#nameRef()];
    while (this.#at(T.Dot) && this.#peek() === T.Ident) {
      this.#bump();
      path.push(this.#nameRef());
    }
    return path;
  }

  /**
   * A comma-separated list between `open` and its closer, trailing comma
   * allowed. Returns the end offset (past the closer when present).
   */
  #list<N>(close: number, element: () => N | null): N[] {
    // Elements gather on a shared stack and leave as one exact-size array:
    // a pushed-to array would keep room for 17, and most lists hold 1 to 3.
    const scratch = this.#scratch;
    const mark = scratch.length;
    const open = this.#p;
    this.#bump();
    while (true) {
      if (this.#atClose(open, close)) {
        this.#bump();
        break;
      }
      if (this.#at(T.Eof) || this.#isItemStart()) {
        this.#closeGroup(open, close);
        break;
      }
      const el = element();
      if (el !== null) scratch.push(el);
      if (this.#eat(T.Comma)) continue;
      if (this.#atClose(open, close)) {
        this.#bump();
        break;
      }
      this.#expected(`\`,\` or ${TOKEN_NAMES[close]}`);
      this.#skipTo(STOP_LIST);
      if (this.#eat(T.Comma)) continue;
      this.#closeGroup(open, close);
      break;
    }
    const out = scratch.slice(mark) as N[];
    scratch.length = mark;
    return out;
  }

  /** True at the closer of the group opened at `open` (even written with the wrong character). */
  #atClose(open: number, close: number): boolean {
    return this.#kinds[this.#p] === close || this.#partner[open] === this.#p;
  }

  /**
   * Ends the group opened at `open`: consumes its closer, or reports the
   * unexpected token and jumps to the closer paired with `open`, so that
   * whatever was left inside the group cannot derail what follows.
   */
  #closeGroup(open: number, close: number): void {
    if (this.#atClose(open, close)) {
      this.#bump();
      return;
    }
    this.#expected(TOKEN_NAMES[close]);
    const partner = this.#partner[open];
    if (partner > this.#p && !this.#isItemStart()) this.#p = partner + 1;
  }

  // ------------------------------------------------------------ file and items

  parseFile(): A.SourceFile {
    const imports: A.Import[] = [];
    const items: A.Item[] = [];
    while (!this.#at(T.Eof)) {
      const k = this.#kind();
      if (k === T.KwImport) {
        imports.push(this.#import());
      } else if (k === T.KwPub || k === T.KwFn || k === T.KwRecord || k === T.KwEnum) {
        items.push(this.#item());
      } else if (this.#atTestStart()) {
        items.push(this.#test());
      } else {
        const start = this.#start();
        this.#expected("an item");
        this.#bump();
        this.#skipTo(STOP_ITEM);
        while (OPENER_OF[this.#kind()] !== 0) {
          // A closer at top level closes nothing: skip it too.
          this.#bump();
          this.#skipTo(STOP_ITEM);
        }
        items.push(this.#errorNode(start, this.#prevEnd()));
      }
    }
    return { kind: "SourceFile", start: 0, end: this.#tokens.source.length, imports, items };
  }

  #import(): A.Import {
    const start = this.#start();
    this.#bump();
    const path = [this.#nameRef()];
    let names: A.NameRef[] | null = null;
    while (this.#at(T.Dot)) {
      const next = this.#peek();
      if (next === T.LBrace) {
        this.#bump();
        names = this.#list(T.RBrace, this.#nameRefFn);
        break;
      }
      this.#bump();
      path.push(this.#nameRef());
    }
    let alias: A.NameDecl | null = null;
    if (names === null && this.#eat(T.KwAs)) alias = this.#nameDecl();
    return { kind: "Import", start, end: this.#prevEnd(), path, alias, names };
  }

  /** The `///` lines right before significant token position `p`, as one node. */
  #docBefore(p: number): A.DocComment | null {
    const tokens = this.#tokens;
    let t = this.#sig[p] - 1;
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

  #item(): A.Item {
    const doc = this.#docBefore(this.#p);
    const first = this.#start();
    const start = doc !== null ? doc.start : first;
    let pub: A.NodeBase | null = null;
    if (this.#at(T.KwPub)) {
      pub = { start: first, end: this.#ends[this.#p] };
      this.#bump();
    }
    const k = this.#kind();
    if (k !== T.KwFn && k !== T.KwRecord && k !== T.KwEnum) {
      this.#expected("`fn`, `record` or `enum`");
      this.#skipTo(STOP_ITEM);
      return this.#errorNode(first, Math.max(first, this.#prevEnd()));
    }
    this.#bump();
    const name = this.#nameDecl();
    let typeParams: A.NameDecl[] = [];
    if (this.#at(T.LBracket)) typeParams = this.#list(T.RBracket, this.#nameDeclFn);
    if (k === T.KwFn) {
      let params: A.Param[] = [];
      if (this.#at(T.LParen)) params = this.#list(T.RParen, this.#paramFn);
      else this.#expected("`(`");
      let returnType: A.TypeExpr | null = null;
      if (this.#eat(T.Arrow)) returnType = this.#type();
      let body: A.Block;
      if (this.#at(T.LBrace)) body = this.#block();
      else {
        this.#expected(returnType === null ? "`->` or `{`" : "`{`");
        const at = this.#prevEnd();
        body = { kind: "Block", start: at, end: at, statements: [], tail: null };
        if (!this.#isItemStart()) this.#skipTo(STOP_ITEM);
      }
      return {
        kind: "FnDecl",
        start,
        end: this.#prevEnd(),
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
      if (this.#at(T.LBrace)) fields = this.#list(T.RBrace, this.#fieldDeclFn);
      else this.#expected("`{`");
      return {
        kind: "RecordDecl",
        start,
        end: this.#prevEnd(),
        doc,
        pub,
        name,
        typeParams,
        fields,
      };
    }
    let variants: A.VariantDecl[] = [];
    if (this.#at(T.LBrace)) variants = this.#list(T.RBrace, this.#variantFn);
    else this.#expected("`{`");
    return { kind: "EnumDecl", start, end: this.#prevEnd(), doc, pub, name, typeParams, variants };
  }

  /** `test fn name() { ... }`: no parameters, no result type, no type parameters. */
  #test(): A.TestDecl {
    const doc = this.#docBefore(this.#p);
    const first = this.#start();
    const test = { start: first, end: this.#ends[this.#p] };
    this.#bump();
    this.#bump(); // `fn`
    const name = this.#nameDecl();
    if (this.#at(T.LParen)) {
      const open = this.#p;
      this.#bump();
      this.#closeGroup(open, T.RParen);
    } else this.#expected("`(`");
    let body: A.Block;
    if (this.#at(T.LBrace)) body = this.#block();
    else {
      this.#expected("`{`");
      const at = this.#prevEnd();
      body = { kind: "Block", start: at, end: at, statements: [], tail: null };
      if (!this.#isItemStart()) this.#skipTo(STOP_ITEM);
    }
    return {
      kind: "TestDecl",
      start: doc !== null ? doc.start : first,
      end: this.#prevEnd(),
      doc,
      test,
      name,
      body,
    };
  }

  #param(): A.Param | null {
    return this.#typedName("Param", "parameter name");
  }

  #fieldDecl(): A.FieldDecl | null {
    return this.#typedName("FieldDecl", "field name");
  }

  /** `name: Type`, a parameter or a record field: the two share their syntax. */
  #typedName<K extends "Param" | "FieldDecl">(
    kind: K,
    what: string,
  ): { kind: K; start: number; end: number; name: A.NameDecl; type: A.TypeExpr } | null {
    const start = this.#start();
    if (!this.#at(T.Ident)) {
      this.#expected(what);
      return null;
    }
    const name = this.#nameDecl();
    const type = this.#expect(T.Colon) ? this.#type() : this.#missing();
    return { kind, start, end: this.#prevEnd(), name, type };
  }

  #variant(): A.VariantDecl | null {
    const start = this.#start();
    if (!this.#at(T.Ident)) {
      this.#expected("variant name");
      return null;
    }
    const name = this.#nameDecl();
    let fields: A.TypeExpr[] = [];
    if (this.#at(T.LParen)) fields = this.#list(T.RParen, this.#typeFn);
    return { kind: "VariantDecl", start, end: this.#prevEnd(), name, fields };
  }

  // ------------------------------------------------------------ types

  #type(): A.TypeExpr {
    const start = this.#start();
    if (!this.#enter()) return this.#skipTooDeep();
    let node: A.TypeExpr;
    switch (this.#kind()) {
      case T.Ident: {
        const path = this.#path();
        let args: A.TypeExpr[] = [];
        if (this.#at(T.LBracket)) args = this.#list(T.RBracket, this.#typeFn);
        node = { kind: "NamedType", start, end: this.#prevEnd(), path, args };
        break;
      }
      case T.LParen:
        this.#bump();
        this.#expect(T.RParen);
        node = { kind: "UnitType", start, end: this.#prevEnd() };
        break;
      case T.KwFn: {
        this.#bump();
        let params: A.TypeExpr[] = [];
        if (this.#at(T.LParen)) params = this.#list(T.RParen, this.#typeFn);
        else this.#expected("`(`");
        let result: A.TypeExpr;
        if (this.#expect(T.Arrow)) result = this.#type();
        else result = this.#missing();
        node = { kind: "FnType", start, end: this.#prevEnd(), params, result };
        break;
      }
      default:
        this.#expected("type");
        node = this.#missing();
    }
    this.#depth--;
    return node;
  }

  // ------------------------------------------------------------ statements and blocks

  #block(): A.Block {
    const start = this.#start();
    if (!this.#enter()) {
      const skipped = this.#skipGroup();
      return { kind: "Block", start, end: skipped, statements: [], tail: null };
    }
    const saved = this.#noRecord;
    this.#noRecord = false;
    const open = this.#p;
    this.#bump();
    const scratch = this.#scratch;
    const mark = scratch.length;
    let tail: A.Expr | null = null;
    while (true) {
      const k = this.#kind();
      if (this.#atClose(open, T.RBrace) || k === T.Eof || this.#isItemStart()) break;
      if (k === T.Semi) {
        this.#bump();
        continue;
      }
      const before = this.#p;
      if (k === T.KwLet) {
        scratch.push(this.#let());
        continue;
      }
      const blockLike = k === T.KwIf || k === T.KwMatch || k === T.LBrace;
      // A block-like expression starting a statement ends at its `}`
      // (as in Rust): `if c { a } else { b }` needs no `;`.
      const expr = blockLike ? this.#blockLike() : this.#expr();
      if (this.#at(T.Semi)) {
        this.#bump();
        scratch.push({ kind: "ExprStmt", start: expr.start, end: this.#prevEnd(), expr });
        continue;
      }
      if (this.#atClose(open, T.RBrace)) {
        tail = expr;
        break;
      }
      if (blockLike && this.#p > before) {
        scratch.push({ kind: "ExprStmt", start: expr.start, end: this.#prevEnd(), expr });
        continue;
      }
      this.#expected("`;` or `}`");
      if (this.#p > before) {
        scratch.push({ kind: "ExprStmt", start: expr.start, end: this.#prevEnd(), expr });
      }
      this.#skipTo(STOP_STMT);
      if (this.#at(T.Semi)) this.#bump();
      else if (this.#p === before && OPENER_OF[this.#kind()] !== 0) {
        // A stray `)` or `]` inside a block: drop it, or nothing moves.
        if (this.#partner[this.#p] < 0) this.#bump();
        else break;
      }
    }
    this.#closeGroup(open, T.RBrace);
    this.#noRecord = saved;
    this.#depth--;
    const statements = scratch.slice(mark) as A.Statement[];
    scratch.length = mark;
    return { kind: "Block", start, end: this.#prevEnd(), statements, tail };
  }

  /** Skips a whole group from its opener (too deep to parse); returns its end. */
  #skipGroup(): number {
    const m = this.#partner[this.#p];
    if (m >= 0) this.#p = m + 1;
    else this.#p = this.#eof;
    return this.#prevEnd();
  }

  #let(): A.LetStmt {
    const start = this.#start();
    this.#bump();
    let binding: A.NameDecl | A.WildcardPattern;
    if (this.#at(T.Underscore)) {
      binding = { kind: "WildcardPattern", start: this.#start(), end: this.#ends[this.#p] };
      this.#bump();
    } else binding = this.#nameDecl();
    let type: A.TypeExpr | null = null;
    if (this.#eat(T.Colon)) type = this.#type();
    let value: A.Expr;
    if (this.#expect(T.Eq)) value = this.#expr();
    else value = this.#missing();
    if (!this.#eat(T.Semi)) {
      this.#expected("`;`");
      if (!this.#at(T.RBrace)) {
        this.#skipTo(STOP_STMT);
        this.#eat(T.Semi);
      }
    }
    return { kind: "LetStmt", start, end: this.#prevEnd(), binding, type, value };
  }

  // ------------------------------------------------------------ expressions

  #expr(): A.Expr {
    if (!this.#enter()) return this.#skipTooDeep();
    const e = this.#binary(1);
    this.#depth--;
    return e;
  }

  /** An expression inside a delimited group: record literals are allowed again. */
  #innerExpr(): A.Expr {
    const saved = this.#noRecord;
    this.#noRecord = false;
    const e = this.#expr();
    this.#noRecord = saved;
    return e;
  }

  #binary(minPrec: number): A.Expr {
    let left = this.#unary();
    let links = 0;
    while (true) {
      const k = this.#kind();
      const prec = BIN_PREC[k];
      if (prec === 0 || prec < minPrec) break;
      if (this.#depth + links >= MAX_DEPTH) {
        this.#reportTooDeep();
        this.#skipTo(STOP_EXPR);
        break;
      }
      links++;
      const opStart = this.#start();
      this.#bump();
      const right = this.#binary(prec + 1);
      left = {
        kind: "BinaryExpr",
        start: left.start,
        end: this.#prevEnd(),
        op: BIN_OP[k]!,
        opStart,
        left,
        right,
      };
      if ((prec === 3 || prec === 4) && BIN_PREC[this.#kind()] === prec) {
        const at = this.#start();
        if (at !== this.#lastErrorAt) {
          this.#lastErrorAt = at;
          const label: Label = {
            file: this.#file,
            span: { start: opStart, end: opStart + BIN_OP[k]!.length },
            message: "the first comparison",
          };
          this.diags.push(
            this.#diag(
              D.chainedComparison.code,
              at,
              this.#ends[this.#p],
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

  #unary(): A.Expr {
    const k = this.#kind();
    if (k === T.Minus || k === T.Bang) {
      const start = this.#start();
      if (!this.#enter()) return this.#skipTooDeep();
      this.#bump();
      const operand = this.#unary();
      this.#depth--;
      return {
        kind: "UnaryExpr",
        start,
        end: this.#prevEnd(),
        op: k === T.Minus ? "-" : "!",
        operand,
      };
    }
    return this.#postfix();
  }

  #postfix(): A.Expr {
    let e = this.#primary();
    let links = 0;
    while (true) {
      const k = this.#kind();
      if (k === T.LParen) {
        if (!this.#link(links++)) break;
        let args: A.Expr[] = [];
        args = this.#list(T.RParen, this.#innerExprFn);
        e = { kind: "CallExpr", start: e.start, end: this.#prevEnd(), callee: e, args };
      } else if (k === T.Dot) {
        if (!this.#link(links++)) break;
        this.#bump();
        const name = this.#nameRef();
        e = { kind: "FieldExpr", start: e.start, end: this.#prevEnd(), target: e, name };
      } else if (
        (k === T.LBrace && !this.#noRecord) || (k === T.LBracket)
      ) {
        const path = typePath(e);
        if (path === null || !isUpper(path[path.length - 1].text)) break;
        if (!this.#link(links++)) break;
        e = this.#recordLit(e, path);
      } else break;
    }
    return e;
  }

  /** One more link of a postfix chain; false (after a diagnostic) past the depth limit. */
  #link(links: number): boolean {
    if (this.#depth + links < MAX_DEPTH) return true;
    this.#reportTooDeep();
    this.#skipTo(STOP_EXPR);
    return false;
  }

  #recordLit(target: A.Expr, path: A.NameRef[]): A.Expr {
    const start = target.start;
    let args: A.TypeExpr[] = [];
    if (this.#at(T.LBracket)) args = this.#list(T.RBracket, this.#typeFn);
    const type: A.NamedType = { kind: "NamedType", start, end: this.#prevEnd(), path, args };
    let fields: A.FieldInit[] = [];
    if (this.#at(T.LBrace)) {
      const saved = this.#noRecord;
      this.#noRecord = false;
      fields = this.#list(T.RBrace, this.#fieldInitFn);
      this.#noRecord = saved;
    } else this.#expected("`{`");
    return { kind: "RecordLit", start, end: this.#prevEnd(), type, fields };
  }

  #fieldInit(): A.FieldInit | null {
    const start = this.#start();
    if (!this.#at(T.Ident)) {
      this.#expected("field name");
      return null;
    }
    const name = this.#nameRef();
    let value: A.Expr | null = null;
    if (this.#eat(T.Colon)) value = this.#expr();
    return { kind: "FieldInit", start, end: this.#prevEnd(), name, value };
  }

  #primary(): A.Expr {
    const start = this.#start();
    const end = this.#ends[this.#p];
    switch (this.#kind()) {
      case T.Int: {
        const value = this.#intValue(false);
        this.#bump();
        return { kind: "IntLit", start, end, value };
      }
      case T.Float: {
        const value = this.#floatValue(false);
        this.#bump();
        return { kind: "FloatLit", start, end, value };
      }
      case T.String: {
        const value = decodeString(this.#tokens, this.#sig[this.#p]);
        this.#bump();
        return { kind: "StringLit", start, end, value };
      }
      case T.KwTrue:
        this.#bump();
        return { kind: "BoolLit", start, end, value: true };
      case T.KwFalse:
        this.#bump();
        return { kind: "BoolLit", start, end, value: false };
      case T.Ident: {
        const name: A.NameRef = { kind: "NameRef", start, end, text: this.#ident() };
        this.#bump();
        return { kind: "NameExpr", start, end, name };
      }
      case T.LParen: {
        if (this.#peek() === T.RParen) {
          this.#bump();
          this.#bump();
          return { kind: "UnitLit", start, end: this.#prevEnd() };
        }
        const open = this.#p;
        this.#bump();
        const inner = this.#innerExpr();
        this.#closeGroup(open, T.RParen);
        return { kind: "ParenExpr", start, end: this.#prevEnd(), inner };
      }
      case T.LBracket: {
        let elements: A.Expr[] = [];
        elements = this.#list(T.RBracket, this.#innerExprFn);
        return { kind: "ListLit", start, end: this.#prevEnd(), elements };
      }
      case T.KwIf:
      case T.KwMatch:
      case T.LBrace:
        return this.#blockLike();
      case T.KwReturn: {
        this.#bump();
        let value: A.Expr | null = null;
        if (EXPR_START[this.#kind()] === 1) value = this.#expr();
        return { kind: "ReturnExpr", start, end: this.#prevEnd(), value };
      }
      default:
        this.#expected("expression");
        return this.#missing();
    }
  }

  #blockLike(): A.Expr {
    const k = this.#kind();
    if (k === T.LBrace) return this.#block();
    if (k === T.KwIf) return this.#if();
    return this.#match();
  }

  /** The block after `if c`/`else`, or a zero-width stand-in after a diagnostic. */
  #requiredBlock(): A.Block {
    if (this.#at(T.LBrace)) return this.#block();
    this.#expected("`{`");
    const at = this.#prevEnd();
    return { kind: "Block", start: at, end: at, statements: [], tail: null };
  }

  #condition(): A.Expr {
    const saved = this.#noRecord;
    this.#noRecord = true;
    const e = this.#expr();
    this.#noRecord = saved;
    return e;
  }

  #if(): A.Expr {
    const start = this.#start();
    if (!this.#enter()) return this.#skipTooDeep();
    this.#bump();
    const condition = this.#condition();
    const then = this.#requiredBlock();
    let otherwise: A.Block | A.IfExpr | null = null;
    if (this.#eat(T.KwElse)) {
      if (this.#at(T.KwIf)) {
        const nested = this.#if();
        otherwise = nested.kind === "IfExpr" ? nested : null;
      } else otherwise = this.#requiredBlock();
    }
    this.#depth--;
    return { kind: "IfExpr", start, end: this.#prevEnd(), condition, then, otherwise };
  }

  #match(): A.Expr {
    const start = this.#start();
    if (!this.#enter()) return this.#skipTooDeep();
    this.#bump();
    const scrutinee = this.#condition();
    let arms: A.MatchArm[] = [];
    if (this.#at(T.LBrace)) {
      const saved = this.#noRecord;
      this.#noRecord = false;
      const open = this.#p;
      this.#bump();
      const scratch = this.#scratch;
      const mark = scratch.length;
      while (!this.#atClose(open, T.RBrace) && !this.#at(T.Eof) && !this.#isItemStart()) {
        const before = this.#p;
        const pattern = this.#pattern();
        let body: A.Expr;
        if (this.#eat(T.FatArrow)) {
          // As a statement does, a block-like body ends at its `}` (§3.6.10):
          // `0 => { 10 }` then `-1 => 3` on the next line is two arms.
          const k = this.#kind();
          body = k === T.LBrace || k === T.KwIf || k === T.KwMatch
            ? this.#blockLike()
            : this.#expr();
        } else {
          this.#expected("`=>`");
          body = this.#missing();
        }
        const armEnd = this.#prevEnd();
        scratch.push({ kind: "MatchArm", start: pattern.start, end: armEnd, pattern, body });
        if (this.#eat(T.Comma)) continue;
        if (this.#atClose(open, T.RBrace)) break;
        const blockBody = body.kind === "Block" || body.kind === "IfExpr" ||
          body.kind === "MatchExpr";
        if (blockBody && this.#p > before) continue;
        this.#expected("`,` or `}`");
        this.#skipTo(STOP_LIST);
        this.#eat(T.Comma);
        if (this.#p === before) {
          if (OPENER_OF[this.#kind()] !== 0 && this.#partner[this.#p] >= 0) break;
          if (this.#isItemStart()) break;
          this.#bump();
        }
      }
      arms = scratch.slice(mark) as A.MatchArm[];
      scratch.length = mark;
      this.#closeGroup(open, T.RBrace);
      this.#noRecord = saved;
    } else this.#expected("`{`");
    this.#depth--;
    return { kind: "MatchExpr", start, end: this.#prevEnd(), scrutinee, arms };
  }

  // ------------------------------------------------------------ literals

  #intValue(negative: boolean): bigint | null {
    const i = this.#p;
    const text = this.#tokens.slice(this.#starts[i], this.#ends[i]);
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
      this.diags.push(
        this.#diag(
          D.badNumber.code,
          this.#starts[i],
          this.#ends[i],
          D.badNumber.text.intTooLarge(),
          [],
          "`Int` holds 64-bit signed values, from -9223372036854775808 to 9223372036854775807",
        ),
      );
      return null;
    }
    return negative ? -value : value;
  }

  #floatValue(negative: boolean): number | null {
    const i = this.#p;
    const text = this.#tokens.slice(this.#starts[i], this.#ends[i]).replaceAll("_", "");
    if (!/^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) return null;
    const value = Number(text);
    if (!Number.isFinite(value)) {
      this.diags.push(
        this.#diag(
          D.badNumber.code,
          this.#starts[i],
          this.#ends[i],
          D.badNumber.text.floatTooLarge(),
        ),
      );
      return null;
    }
    return negative ? -value : value;
  }

  // ------------------------------------------------------------ patterns

  #pattern(): A.Pattern {
    const start = this.#start();
    if (!this.#enter()) return this.#skipTooDeep();
    const end = this.#ends[this.#p];
    let node: A.Pattern;
    switch (this.#kind()) {
      case T.Underscore:
        this.#bump();
        node = { kind: "WildcardPattern", start, end };
        break;
      case T.Int:
      case T.Float:
      case T.String:
      case T.KwTrue:
      case T.KwFalse: {
        const literal = this.#primary() as A.IntLit | A.FloatLit | A.StringLit | A.BoolLit;
        node = { kind: "LiteralPattern", start, end: literal.end, literal };
        break;
      }
      case T.Minus: {
        this.#bump();
        const k = this.#kind();
        if (k === T.Int || k === T.Float) {
          const litEnd = this.#ends[this.#p];
          const literal: A.IntLit | A.FloatLit = k === T.Int
            ? { kind: "IntLit", start, end: litEnd, value: this.#intValue(true) }
            : { kind: "FloatLit", start, end: litEnd, value: this.#floatValue(true) };
          this.#bump();
          node = { kind: "LiteralPattern", start, end: litEnd, literal };
        } else {
          this.#expected("number after `-` in a pattern");
          node = this.#errorNode(start, this.#prevEnd());
        }
        break;
      }
      case T.LParen:
        if (this.#peek() === T.RParen) {
          this.#bump();
          this.#bump();
          const literal: A.UnitLit = { kind: "UnitLit", start, end: this.#prevEnd() };
          node = { kind: "LiteralPattern", start, end: literal.end, literal };
        } else {
          this.#expected("pattern");
          node = this.#missing();
        }
        break;
      case T.LBracket:
        node = this.#listPattern();
        break;
      case T.Ident: {
        const path = this.#path();
        if (this.#at(T.LParen)) {
          let args: A.Pattern[] = [];
          args = this.#list(T.RParen, this.#patternFn);
          node = { kind: "VariantPattern", start, end: this.#prevEnd(), path, args };
        } else if (path.length === 1 && !isUpper(path[0].text)) {
          const only = path[0];
          node = {
            kind: "BindingPattern",
            start,
            end: only.end,
            name: { kind: "NameDecl", start: only.start, end: only.end, text: only.text },
          };
        } else {
          node = { kind: "VariantPattern", start, end: this.#prevEnd(), path, args: null };
        }
        break;
      }
      default:
        this.#expected("pattern");
        node = this.#missing();
    }
    this.#depth--;
    return node;
  }

  #listPattern(): A.ListPattern {
    const start = this.#start();
    let elements: A.Pattern[] = [];
    let rest: A.RestPattern | null = null;
    const element = (): A.Pattern | null => {
      if (!this.#at(T.DotDot)) {
        const pat = this.#pattern();
        if (rest !== null) this.#restNotLast(rest);
        return pat;
      }
      const restStart = this.#start();
      this.#bump();
      let binding: A.NameDecl | null = null;
      if (this.#at(T.Ident)) binding = this.#nameDecl();
      else this.#eat(T.Underscore);
      const node: A.RestPattern = {
        kind: "RestPattern",
        start: restStart,
        end: this.#prevEnd(),
        binding,
      };
      if (rest !== null) this.#restNotLast(rest);
      else rest = node;
      return null;
    };
    elements = this.#list(T.RBracket, element);
    return { kind: "ListPattern", start, end: this.#prevEnd(), elements, rest };
  }

  #restNotLast(rest: A.RestPattern): void {
    this.#error(
      D.restNotLast.code,
      rest.start,
      rest.end,
      D.restNotLast.text.notLast(),
    );
  }
}

/** The names of a pure path expression (`a`, `m.Point`), or null. */
function typePath(e: A.Expr): A.NameRef[] | null {
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

function isUpper(name: string): boolean {
  const c = name.charCodeAt(0);
  return c >= 0x41 && c <= 0x5a;
}

function stopSet(kinds: number[]): Uint8Array {
  const set = new Uint8Array(64);
  for (const k of kinds) set[k] = 1;
  return set;
}

const ITEM_KINDS = [T.KwRecord, T.KwEnum, T.KwPub, T.KwImport];
/** Top level: the next item (`fn` counts when a name follows; see #skipTo). */
const STOP_ITEM = stopSet([...ITEM_KINDS, T.KwFn]);
const STOP_STMT = stopSet([T.Semi, T.KwLet, ...ITEM_KINDS]);
const STOP_LIST = stopSet([T.Comma, ...ITEM_KINDS]);
const STOP_EXPR = stopSet([T.Semi, T.Comma, T.FatArrow, ...ITEM_KINDS]);
