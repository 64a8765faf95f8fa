/**
 * The syntax diagnostics (N0100–N01xx): one entry each, with the text that
 * docs/diagnostics.md shows. The semantics layer's registry imports this
 * table and merges it with its own; a golden test covers every code.
 *
 * @module
 */

/** One registry entry. */
export interface DiagnosticCodeInfo {
  /** `N` and four digits. */
  readonly code: string;
  /** A short title, lowercase like the messages. */
  readonly title: string;
  /** What is wrong and why, in a sentence or two. */
  readonly explanation: string;
  /** A small Nazm snippet that raises it. */
  readonly example: string;
  /** What fixes the diagnostic can carry, in words; empty when none. */
  readonly fixes: string;
}

/** The codes by role, for the lexer and parser. */
export const SYNTAX_CODES = {
  invalidCharacter: "N0100",
  expectedToken: "N0101",
  unterminatedString: "N0102",
  unterminatedComment: "N0103",
  badEscape: "N0104",
  badNumber: "N0105",
  unclosedDelimiter: "N0106",
  tooDeep: "N0107",
  chainedComparison: "N0108",
  restNotLast: "N0109",
} as const;

/** Every syntax diagnostic, in code order. */
export const SYNTAX_DIAGNOSTICS: readonly DiagnosticCodeInfo[] = [
  {
    code: "N0100",
    title: "invalid character",
    explanation:
      "A character that cannot start any token appears in code (outside strings and comments), or the file holds bytes that are not valid UTF-8. Code is ASCII; other characters belong in strings and comments.",
    example: "let price = 5 €;",
    fixes: "",
  },
  {
    code: "N0101",
    title: "expected token",
    explanation:
      "The parser found a token where the grammar allows another (or an item, an expression, a pattern, a type). It reports the first such place and resumes at the next item, statement, list element or match arm, so the rest of the file is still checked.",
    example: "fn f(x: Int) -> Int { x + }",
    fixes: "",
  },
  {
    code: "N0102",
    title: "unterminated string",
    explanation:
      'A string literal has no closing `"` before the end of its line. Strings cannot span lines; write `\\n` for a line break.',
    example: 'let s = "hello;',
    fixes: "",
  },
  {
    code: "N0103",
    title: "unterminated block comment",
    explanation:
      "A `/*` comment has no matching `*/` before the end of the file. Block comments nest, so every `/*` inside needs its own `*/`.",
    example: "/* a comment /* nested */ that never ends",
    fixes: "",
  },
  {
    code: "N0104",
    title: "invalid escape",
    explanation:
      "A backslash in a string is followed by something other than `n`, `t`, `r`, `0`, `\\\\`, `\"` or `u{…}` with one to six hex digits naming a Unicode scalar value. The escape is kept as written in the string's value.",
    example: 'let path = "C:\\temp";',
    fixes: "",
  },
  {
    code: "N0105",
    title: "invalid number literal",
    explanation:
      "A number literal is malformed (a letter suffix, `0x` or an exponent without digits) or does not fit its type: integers are 64-bit signed (at most 9223372036854775807; in a pattern, `-9223372036854775808` is allowed) and floats must be finite.",
    example: "let big = 99999999999999999999;",
    fixes: "",
  },
  {
    code: "N0106",
    title: "unclosed delimiter",
    explanation:
      "An opening `(`, `[` or `{` is never closed: the file ends first, or a different closing delimiter comes first. The primary place is the innermost unclosed opener.",
    example: 'fn main() {\n  print("hi")\n',
    fixes:
      "Insert the missing closing delimiters (automatic, precondition none), offered only when the file then parses without any diagnostic.",
  },
  {
    code: "N0107",
    title: "too deeply nested",
    explanation:
      "Expressions, types or patterns nest deeper than 256 levels (each link of an operator or call chain counts as one). The parser skips the rest of that construct; the limit keeps every later phase safe from stack exhaustion.",
    example: "let x = ((((((((((((((((((((…1…))))))))))))))))))));",
    fixes: "",
  },
  {
    code: "N0108",
    title: "chained comparison",
    explanation:
      "Comparison operators (`==`, `!=`, `<`, `<=`, `>`, `>=`) do not associate: `a < b < c` would compare a `Bool` with `c`. Combine the comparisons with `&&`, or parenthesize.",
    example: "let ok = 1 < x < 10;",
    fixes: "",
  },
  {
    code: "N0109",
    title: "rest pattern not last",
    explanation:
      "In a list pattern, `..rest` (or `.._`, `..`) matches the remaining elements, so it must be the last element, and there can be only one.",
    example: "match xs { [..rest, last] => last, [] => 0 }",
    fixes: "",
  },
];
