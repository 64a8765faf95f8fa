/**
 * What a newcomer brings from another language that Nazm's syntax does not
 * have, and what to say instead: characters that look like Nazm's (curly
 * quotes, arrows, `≠`) or ASCII Nazm does not use, reserved words, other
 * languages' words for items, and tokens such as indexing brackets. The
 * lexer and the parser attach these as help; nothing here decides what is
 * an error.
 *
 * @module
 */

/**
 * Characters that editors, documents and other languages put where Nazm
 * code has ASCII: what to write instead.
 */
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map([
  ["\u201c", 'strings are written between straight double quotes: `"text"`'],
  ["\u201d", 'strings are written between straight double quotes: `"text"`'],
  ["'", 'strings are written between double quotes, `"text"`; there is no character type'],
  ["\u2018", 'strings are written between straight double quotes: `"text"`'],
  ["\u2019", 'strings are written between straight double quotes: `"text"`'],
  ["`", 'strings are written between double quotes: `"text"`'],
  ["\u2192", "write `->`"],
  ["\u21d2", "write `=>`"],
  ["\u2260", "write `!=`"],
  ["\u2264", "write `<=`"],
  ["\u2265", "write `>=`"],
  ["\u00d7", "write `*`"],
  ["\u00f7", "write `/`"],
  ["\u2212", "write `-`"],
  ["\u2013", "write `-`"],
  ["\u2026", "write `..` in a list pattern (`[x, ..rest]`)"],
  ["?", "Nazm has no `?` operator: `match` the `Option` or `Result` (`Some(x) => …, None => …`)"],
  ["&", "Nazm has no references: pass the value itself; `&&` is logical and"],
  ["|", "Nazm has no lambdas: pass a named function; `||` is logical or"],
  ["#", "comments start with `//`"],
  ["$", "names are letters, digits and `_`; text is joined with `+` and `to_string`"],
  ["@", 'Nazm has no attributes or decorators; a test is `test "name" { … }`'],
]);

/** What to write instead of a character that cannot start a token, where that is known. */
export function lookAlikeHelp(character: string): string | undefined {
  return LOOK_ALIKES.get(character) ??
    (character.codePointAt(0)! >= 0x80
      ? "code is ASCII; other characters belong in strings and comments"
      : undefined);
}

const LOOPS =
  "Nazm has no loops: write a recursive function, or `match` a list (`[x, ..rest] => …`)";

/** Help at a reserved word: what Nazm has instead, today. */
export function reservedHelp(word: string): string {
  const later = `\`${word}\` is reserved for a later version of Nazm and cannot be used as a name`;
  if (word === "mut") return `Nazm has no mutation: each \`let\` binds a new name; ${later}`;
  if (word === "in") return `${later}`;
  return `${LOOPS}; ${later}`;
}

/** Other languages' words for Nazm's items, where an item or statement was expected. */
const FOREIGN_WORDS: ReadonlyMap<string, string> = new Map([
  ...["struct", "class", "type", "interface", "trait", "data", "object"].map((w) =>
    [
      w,
      "a record type is `record Name { field: Type }`, a sum type `enum Name { A, B(Int) }`",
    ] as const
  ),
  ...["def", "function", "func", "fun", "proc", "sub"].map((w) =>
    [w, "a function is `fn name(param: Type) -> Result { … }`"] as const
  ),
  ...["const", "var", "val", "static"].map((w) =>
    [
      w,
      "a binding is `let name = value;` inside a function; at the top level, write a function without parameters",
    ] as const
  ),
  ["impl", "Nazm has no methods: write functions that take the value as a parameter"],
  ...["use", "require", "include", "from", "using"].map((w) =>
    [w, "a module is imported with `import a.b`, or `import a.b.{name}`"] as const
  ),
  ["export", "a definition is exported with `pub` before it: `pub fn name(…)`"],
  ["public", "a definition is exported with `pub` before it: `pub fn name(…)`"],
  ["switch", "`match value { pattern => result, … }` chooses by pattern"],
  ["case", "`match value { pattern => result, … }` chooses by pattern"],
  ["elif", "write `else if`"],
  ["elsif", "write `else if`"],
]);

/** Help at an identifier that another language uses for one of Nazm's items. */
export function foreignWordHelp(word: string): string | null {
  return FOREIGN_WORDS.get(word) ?? null;
}

/** Help at a token another language uses where Nazm has something else. */
export const FOREIGN_TOKENS = {
  indexing:
    "Nazm has no indexing: take elements with `match xs { [first, ..rest] => …, [] => … }`, or `head(xs)`",
  lambda: "Nazm has no lambdas: pass a named function (`let f = double;`)",
  assignment:
    "Nazm has no assignment: bind the new value to a name with `let`, as in `let total = total + x;`",
  resultColon: "a function's result type follows `->`: `fn f(x: Int) -> Int { … }`",
} as const;
