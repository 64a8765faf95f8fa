/**
 * The token kinds, their names in messages, and the keywords: the
 * vocabulary the lexer produces and the parser and formatter read.
 *
 * @module
 */

/** Token kinds. Numbering is internal; compare with these constants only. */
export const TokenKind = {
  Eof: 0,
  Whitespace: 1,
  Newline: 2,
  LineComment: 3,
  DocComment: 4,
  BlockComment: 5,
  Error: 6,
  Ident: 7,
  Underscore: 8,
  Int: 9,
  Float: 10,
  String: 11,
  KwFn: 12,
  KwRecord: 13,
  KwEnum: 14,
  KwPub: 15,
  KwImport: 16,
  KwAs: 17,
  KwLet: 18,
  KwIf: 19,
  KwElse: 20,
  KwMatch: 21,
  KwReturn: 22,
  KwTrue: 23,
  KwFalse: 24,
  /** A word reserved for later versions (see {@link RESERVED_WORDS}). */
  KwReserved: 25,
  LParen: 26,
  RParen: 27,
  LBrace: 28,
  RBrace: 29,
  LBracket: 30,
  RBracket: 31,
  Comma: 32,
  Semi: 33,
  Colon: 34,
  Dot: 35,
  DotDot: 36,
  Arrow: 37,
  FatArrow: 38,
  Eq: 39,
  EqEq: 40,
  BangEq: 41,
  Lt: 42,
  Le: 43,
  Gt: 44,
  Ge: 45,
  Plus: 46,
  Minus: 47,
  Star: 48,
  Slash: 49,
  Percent: 50,
  Bang: 51,
  AmpAmp: 52,
  PipePipe: 53,
} as const;

/** One of the {@link TokenKind} values. */
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

/** Human names of token kinds, for messages (`expected `)`, found `;``). */
export const TOKEN_NAMES: readonly string[] = [
  "end of file",
  "whitespace",
  "newline",
  "comment",
  "doc comment",
  "comment",
  "invalid character",
  "identifier",
  "`_`",
  "integer literal",
  "float literal",
  "string literal",
  "keyword `fn`",
  "keyword `record`",
  "keyword `enum`",
  "keyword `pub`",
  "keyword `import`",
  "keyword `as`",
  "keyword `let`",
  "keyword `if`",
  "keyword `else`",
  "keyword `match`",
  "keyword `return`",
  "keyword `true`",
  "keyword `false`",
  "reserved keyword",
  "`(`",
  "`)`",
  "`{`",
  "`}`",
  "`[`",
  "`]`",
  "`,`",
  "`;`",
  "`:`",
  "`.`",
  "`..`",
  "`->`",
  "`=>`",
  "`=`",
  "`==`",
  "`!=`",
  "`<`",
  "`<=`",
  "`>`",
  "`>=`",
  "`+`",
  "`-`",
  "`*`",
  "`/`",
  "`%`",
  "`!`",
  "`&&`",
  "`||`",
];

/** The keywords of the language today, each with meaning. */
export const ACTIVE_KEYWORDS: readonly string[] = [
  "fn",
  "record",
  "enum",
  "pub",
  "import",
  "as",
  "let",
  "if",
  "else",
  "match",
  "return",
  "true",
  "false",
];

/**
 * Words kept back for the roadmap (loops, mutation, lambdas' companions):
 * reserving them now means a later version cannot break a program that
 * used one as a name.
 */
export const RESERVED_WORDS: readonly string[] = [
  "break",
  "continue",
  "for",
  "in",
  "loop",
  "mut",
  "while",
];

/** A diagnostic found by the lexer, before files and codes are attached by the parser. */
export interface LexError {
  readonly code: string;
  readonly start: number;
  readonly end: number;
  readonly message: string;
  /** What to write instead, where the character has a plain ASCII counterpart. */
  readonly help?: string;
}

/** True for the kinds the parser skips (whitespace, newlines, comments). */
export function isTriviaKind(kind: number): boolean {
  return kind >= TokenKind.Whitespace && kind <= TokenKind.BlockComment;
}
