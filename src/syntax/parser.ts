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
import type { Diagnostic } from "../base/mod.ts";
import { lex } from "./lexer.ts";
import type { TokenStream } from "./lexer.ts";
import { DIAGNOSTICS as D } from "../base/mod.ts";
import { parseFile } from "./grammar_items.ts";
import { newParser } from "./parser_state.ts";
export { MAX_DEPTH } from "./parser_state.ts";

/** What {@link parse} returns: always a tree, the lossless tokens, and the syntax diagnostics. */
export interface ParseResult {
  readonly tree: A.SourceFile;
  /**
   * Lexed again from the source when first read, then kept: a compilation
   * holds every file's result, and only the files an editor shows need
   * their tokens (9 bytes a token, some 9 MiB on 100,000 lines).
   */
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

/**
 * The declarations of one file without its bodies: every function's and
 * test's body is an empty block over its braces, jumped over unparsed.
 * For a file whose {@link parse} reports no diagnostic, the tree is that
 * parse's tree with each such body emptied, and the diagnostics are none
 * (the parse is the same up to each body's `{`, and a body of a file
 * without diagnostics ends at the `}` paired with its `{`). Of any other
 * file it says nothing exact: what a body hides, this does not report.
 * What it is for: reading a program's interfaces (names, imports,
 * signatures and types) at a fraction of a parse's cost, when another
 * parse has already found the file clean. That parse's body spans
 * ({@link bodySpans}), given as `bodies`, spare the lexing of the bodies too.
 */
export function skimDeclarations(
  source: Uint8Array,
  file = "",
  bodies?: ArrayLike<number>,
): ParseResult {
  return parseOnce(source, file, { bodies });
}

/**
 * The `[start, end)` pairs of a tree's function and test bodies, braces
 * included, ascending: what {@link skimDeclarations} may leave unlexed.
 */
export function bodySpans(tree: A.SourceFile): number[] {
  const spans: number[] = [];
  for (const item of tree.items) {
    if (item.kind === "FnDecl" || item.kind === "TestDecl") {
      spans.push(item.body.start, item.body.end);
    }
  }
  return spans;
}

/**
 * One parse, without checking candidate fixes (that needs further parses);
 * with `skim`, of the declarations alone (see {@link skimDeclarations}).
 */
function parseOnce(
  source: Uint8Array,
  file: string,
  skim?: { readonly bodies: ArrayLike<number> | undefined },
): ParseResult {
  const { tokens, errors } = lex(source, skim?.bodies);
  const p = newParser(tokens, file, errors);
  p.skimBodies = skim !== undefined;
  const tree = parseFile(p);
  p.diags.sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
  return resultOf(tree, source, p.diags);
}

function resultOf(tree: A.SourceFile, source: Uint8Array, diagnostics: Diagnostic[]): ParseResult {
  let tokens: TokenStream | undefined;
  return {
    tree,
    get tokens() {
      return tokens ??= lex(source).tokens;
    },
    diagnostics,
  };
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
  return resultOf(r.tree, source, diagnostics);
}
