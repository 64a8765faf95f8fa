/**
 * The syntax layer's public entry: parse a file's bytes into a lossless
 * token stream and a syntax tree with exact byte spans, format a file, and
 * validate names. Nothing here knows about modules or types.
 *
 * @module
 */
import { parse, type ParseResult } from "./parser.ts";
import { ACTIVE_KEYWORDS, RESERVED_WORDS } from "./lexer.ts";

export * from "./ast.ts";
export { bodySpans, MAX_DEPTH, parse, type ParseResult, skimDeclarations } from "./parser.ts";
export {
  ACTIVE_KEYWORDS,
  isTriviaKind,
  lex,
  type LexResult,
  RESERVED_WORDS,
  TOKEN_NAMES,
  TokenKind,
  TokenStream,
} from "./lexer.ts";
export { children, walk } from "./walk.ts";
export { format, type FormatResult } from "./format.ts";
export {
  BINARY_OPERATORS,
  BINARY_PRECEDENCE,
  type BinaryOperator,
  UNARY_OPERATORS,
} from "./operators.ts";

const encoder = new TextEncoder();

/** {@link parse} on a string (encoded as UTF-8 first). */
export function parseText(text: string, file = ""): ParseResult {
  return parse(encoder.encode(text), file);
}

/** Every word a name cannot be: the keywords and the reserved words, sorted. */
export const KEYWORDS: readonly string[] = [...ACTIVE_KEYWORDS, ...RESERVED_WORDS].sort();

const keywordSet = new Set(KEYWORDS);

/** True when `name` is a keyword or a reserved word. */
export function isKeyword(name: string): boolean {
  return keywordSet.has(name);
}

/**
 * True when `name` can name something: ASCII `[A-Za-z_][A-Za-z0-9_]*`, not a
 * keyword, and not `_` alone (which is the wildcard).
 */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && name !== "_" && !keywordSet.has(name);
}
