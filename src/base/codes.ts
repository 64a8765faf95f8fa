/**
 * The one table of diagnostic codes: every code the compiler can report,
 * syntax included, with its severity, group, title, explanation, example,
 * the kinds of fix it may carry, and its messages. Each message is a typed
 * constructor beside its code (`DIAGNOSTICS.unknownName.module(at, name)`),
 * so a message is written once, here, and a code's severity can never
 * disagree with what is reported. Everything else about codes is derived
 * from this table: the registry (docs/diagnostics.md is generated from it),
 * `CODES`, {@link codeInfo} and {@link isSyntaxCode}.
 *
 * Groups: N01xx syntax, N02xx resolution, N03xx types, N04xx lints,
 * N05xx program, N06xx loading (what happens before a file is parsed).
 *
 * Messages are lowercase, without a final period, stand alone and do not
 * suggest the fix (help and fixes do that). To teach more about a code, add
 * to its entry: a message, its explanation, or a fix kind.
 *
 * @module
 */
import type {
  Applicability,
  Diagnostic,
  Fix,
  Label,
  Precondition,
  Severity,
} from "./diagnostic.ts";

export type CodeGroup = "syntax" | "resolution" | "types" | "lints" | "program" | "loading";

/** A kind of fix a code may carry, as its diagnostics' fixes will state it. */
export interface FixKind {
  readonly title: string;
  readonly applicability: Applicability;
  readonly precondition: Precondition["kind"];
}

/** What the registry says of a code. */
export interface CodeInfo {
  /** `N` and four digits. */
  readonly code: string;
  readonly severity: Severity;
  readonly group: CodeGroup;
  /** Short, lowercase, e.g. `unknown name`. */
  readonly title: string;
  /** What is wrong, why it matters, and what to do. */
  readonly explanation: string;
  /** A small Nazm program that has the diagnostic: what a newcomer might write. */
  readonly example: string;
  /**
   * The example repaired: the same program without the diagnostic (and
   * without any other but a missing `main` and an unused helper, since
   * examples are fragments). In parentheses, prose, where the repair is not a
   * program (a file's encoding, size or permissions).
   */
  readonly repair: string;
  readonly fixes: readonly FixKind[];
}

/** Where a diagnostic is reported, and what it carries besides its message. */
export interface At {
  /** Null for a program-level diagnostic. */
  readonly file: string | null;
  /** The primary place (copied: a syntax node may be passed); null with no file. */
  readonly span: { readonly start: number; readonly end: number } | null;
  readonly labels?: readonly Label[];
  readonly help?: string | null;
  readonly fixes?: readonly Fix[];
}

// deno-lint-ignore no-explicit-any
type Messages = { readonly [name: string]: (...args: any[]) => string };

/** One constructor per message: the place first, then the message's own arguments. */
export type Reporters<M extends Messages> = {
  readonly [K in keyof M]: (at: At, ...args: Parameters<M[K]>) => Diagnostic;
};

/** A code of the table: its registry entry, its message texts and a constructor per message. */
export type CodeEntry<M extends Messages> = Reporters<M> & {
  readonly info: CodeInfo;
  readonly code: string;
  /** The message texts alone, for a layer that builds its diagnostics itself (the lexer). */
  readonly text: M;
};

function define<M extends Messages & { info?: never; code?: never; text?: never }>(
  info: CodeInfo,
  messages: M,
): CodeEntry<M> {
  const reporters: Record<string, (at: At, ...args: unknown[]) => Diagnostic> = {};
  for (const [name, message] of Object.entries(messages)) {
    reporters[name] = (at, ...args) => ({
      code: info.code,
      severity: info.severity,
      message: message(...args),
      file: at.file,
      span: at.span === null ? null : { start: at.span.start, end: at.span.end },
      labels: [...(at.labels ?? [])],
      help: at.help ?? null,
      fixes: [...(at.fixes ?? [])],
    });
  }
  return { ...(reporters as Reporters<M>), info, code: info.code, text: messages };
}

/** `1 argument`, `2 arguments`. */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Every code, by the name its reporters use. */
export const DIAGNOSTICS = {
  // ---------------------------------------------------------------- syntax
  invalidCharacter: define({
    code: "N0100",
    severity: "error",
    group: "syntax",
    title: "invalid character",
    explanation:
      "A character that cannot start any token appears in code (outside strings and comments), or the file holds bytes that are not valid UTF-8. Code is ASCII; other characters belong in strings and comments.",
    example: "fn main() -> Unit {\n  let price = 5 €;\n  print(to_string(price))\n}",
    repair: 'fn main() -> Unit {\n  let price = 5;\n  print(to_string(price) + " €")\n}',
    fixes: [],
  }, {
    invalidUtf8: () => "invalid UTF-8 byte",
    inCode: (shown: string) => `invalid character ${shown} in code`,
  }),
  expectedToken: define({
    code: "N0101",
    severity: "error",
    group: "syntax",
    title: "expected token",
    explanation:
      "The parser found a token where the grammar allows another (or an item, an expression, a pattern, a type). It reports the first such place and resumes at the next item, statement, list element or match arm, so the rest of the file is still checked. Where the token is what another language writes (indexing `xs[0]`, assignment `x = 1`, `for` loops, `struct`, `def`, `: Int` for a result type), the help says what Nazm has instead.",
    example: "fn f(x: Int) -> Int { x + }",
    repair: "fn f(x: Int) -> Int { x + 1 }",
    fixes: [],
  }, {
    expected: (what: string, found: string) => `expected ${what}, found ${found}`,
  }),
  unterminatedString: define({
    code: "N0102",
    severity: "error",
    group: "syntax",
    title: "unterminated string",
    explanation:
      'A string literal has no closing `"` before the end of its line. Strings cannot span lines; write `\\n` for a line break.',
    example: 'fn greeting() -> String { "hello }',
    repair: 'fn greeting() -> String { "hello" }',
    fixes: [],
  }, {
    string: () => "unterminated string literal",
  }),
  unterminatedComment: define({
    code: "N0103",
    severity: "error",
    group: "syntax",
    title: "unterminated block comment",
    explanation:
      "A `/*` comment has no matching `*/` before the end of the file. Block comments nest, so every `/*` inside needs its own `*/`.",
    example: "/* a comment /* nested */ that never ends",
    repair: "/* a comment /* nested */ that ends */",
    fixes: [],
  }, {
    comment: () => "unterminated block comment",
  }),
  badEscape: define({
    code: "N0104",
    severity: "error",
    group: "syntax",
    title: "invalid escape",
    explanation:
      "A backslash in a string is followed by something other than `n`, `t`, `r`, `0`, `\\\\`, `\"` or `u{…}` with one to six hex digits naming a Unicode scalar value. The escape is kept as written in the string's value.",
    example: 'fn path() -> String { "C:\\data" }',
    repair: 'fn path() -> String { "C:\\\\data" }',
    fixes: [],
  }, {
    unknown: (shown: string) => `unknown character escape${shown}`,
    unicodeNoBrace: () => "incorrect unicode escape: expected `{` after `\\u`",
    unicodeUnterminated: () => "unterminated unicode escape",
    unicodeEmpty: () => "empty unicode escape",
    unicodeTooLong: () => "unicode escape has more than six digits",
    unicodeNotScalar: () => "unicode escape is not a Unicode scalar value",
  }),
  badNumber: define({
    code: "N0105",
    severity: "error",
    group: "syntax",
    title: "invalid number literal",
    explanation:
      "A number literal is malformed (a letter suffix, `0x` or an exponent without digits) or does not fit its type: integers are 64-bit signed (at most 9223372036854775807; in a pattern, `-9223372036854775808` is allowed) and floats must be finite.",
    example: "fn big() -> Int { 99999999999999999999 }",
    repair: "fn big() -> Float { 99999999999999999999.0 }",
    fixes: [],
  }, {
    hexNoDigits: () => "hexadecimal literal has no digits",
    exponentNoDigits: () => "exponent has no digits",
    suffix: (suffix: string) => `invalid suffix \`${suffix}\` on number literal`,
    intTooLarge: () => "integer literal is too large for `Int`",
    floatTooLarge: () => "float literal is too large for `Float`",
  }),
  unclosedDelimiter: define({
    code: "N0106",
    severity: "error",
    group: "syntax",
    title: "unclosed delimiter",
    explanation:
      "An opening `(`, `[` or `{` is never closed: the file ends first, or a different closing delimiter comes first. The primary place is the innermost unclosed opener.",
    example: 'fn main() {\n  print("hi")\n',
    repair: 'fn main() -> Unit {\n  print("hi")\n}',
    fixes: [
      {
        title: "insert the missing closing delimiters",
        applicability: "automatic",
        precondition: "none",
      },
    ],
  }, {
    atEnd: () => "this file contains an unclosed delimiter",
    mismatched: (closer: string) => `mismatched closing delimiter \`${closer}\``,
  }),
  tooDeep: define({
    code: "N0107",
    severity: "error",
    group: "syntax",
    title: "too deeply nested",
    explanation:
      "Expressions, types or patterns nest deeper than 256 levels (each link of an operator or call chain counts as one). The parser skips the rest of that construct; the limit keeps every later phase safe from stack exhaustion.",
    example: "let x = ((((((((((((((((((((…1…))))))))))))))))))));",
    repair: "let inner = ((((…1…))));\nlet x = ((((…inner…))));",
    fixes: [],
  }, {
    nesting: (limit: number) => `nesting exceeds the limit of ${limit} levels`,
  }),
  chainedComparison: define({
    code: "N0108",
    severity: "error",
    group: "syntax",
    title: "chained comparison",
    explanation:
      "Comparison operators (`==`, `!=`, `<`, `<=`, `>`, `>=`) do not associate: `a < b < c` would compare a `Bool` with `c`. Combine the comparisons with `&&`, or parenthesize.",
    example: "fn ok(x: Int) -> Bool { 1 < x < 10 }",
    repair: "fn ok(x: Int) -> Bool { 1 < x && x < 10 }",
    fixes: [],
  }, {
    chained: () => "comparison operators cannot be chained",
  }),
  restNotLast: define({
    code: "N0109",
    severity: "error",
    group: "syntax",
    title: "rest pattern not last",
    explanation:
      "In a list pattern, `..rest` (or `.._`, `..`) matches the remaining elements, so it must be the last element, and there can be only one.",
    example:
      "fn final_item(xs: List[Int]) -> Int {\n  match xs { [..rest, item] => item, [] => 0 }\n}",
    repair:
      "fn final_item(xs: List[Int]) -> Int {\n  match reverse(xs) { [item, .._] => item, [] => 0 }\n}",
    fixes: [],
  }, {
    notLast: () => "`..` must be the last element of a list pattern",
  }),

  recordInHead: define({
    code: "N0110",
    severity: "error",
    group: "syntax",
    title: "record literal in an `if` or `match` head",
    explanation:
      "In the head of an `if` or a `match`, a `{` begins the block or the arms, so a record literal there (`if p == Point { x: 0 } { … }`) would be cut in two. Where the braces plainly hold fields (`{ x: …` or `{ x, …`), the parser reads the literal, reports it, and offers to wrap it in parentheses, which is how a record literal is written there.",
    example:
      "record P { x: Int }\n\nfn at_origin(p: P) -> Bool {\n  if p == P { x: 0 } { true } else { false }\n}",
    repair:
      "record P { x: Int }\n\nfn at_origin(p: P) -> Bool {\n  if p == (P { x: 0 }) { true } else { false }\n}",
    fixes: [
      {
        title: "wrap the record literal in parentheses",
        applicability: "automatic",
        precondition: "none",
      },
    ],
  }, {
    literal: (head: "if" | "match") =>
      `record literal in the head of ${head === "if" ? "an" : "a"} \`${head}\``,
  }),

  // ---------------------------------------------------------------- resolution
  unknownName: define({
    code: "N0201",
    severity: "error",
    group: "resolution",
    title: "unknown name",
    explanation:
      "A name in an expression or a type does not refer to any local, parameter, definition of the module, imported name or prelude item. Check the spelling, or import the definition from the module that declares it. A name another language uses for something Nazm spells differently (`length`, `println`, `null`, `i32`, `Vec`) gets a help that says what Nazm writes, offered as the closest name.",
    example: 'fn main() -> Unit {\n  let greeting = "hi";\n  print(greting)\n}',
    repair: 'fn main() -> Unit {\n  let greeting = "hi";\n  print(greeting)\n}',
    fixes: [
      {
        title: "use the closest name in scope",
        applicability: "needs_review",
        precondition: "intended_name",
      },
      {
        title: "import the exported definition of that name",
        applicability: "needs_review",
        precondition: "intended_definition",
      },
    ],
  }, {
    inScope: (what: "value" | "type", name: string) =>
      `cannot find ${what} \`${name}\` in this scope`,
    module: (name: string) => `cannot find module \`${name}\``,
    inModule: (name: string, module: string) => `cannot find \`${name}\` in module \`${module}\``,
    path: (what: "type" | "variant", path: string) => `cannot find ${what} \`${path}\``,
  }),
  unknownModule: define({
    code: "N0202",
    severity: "error",
    group: "resolution",
    title: "unknown module",
    explanation:
      "An import names a module that has no file under the source root: `import a.b` reads `a/b.nz`. Check the path, or create the module.",
    example:
      '// @file: main.nz\nimport util.strings\n\nfn main() -> Unit { print(strings.shout("hi")) }\n// @file: util/text.nz\npub fn shout(s: String) -> String { s + "!" }',
    repair:
      '// @file: main.nz\nimport util.text\n\nfn main() -> Unit { print(text.shout("hi")) }\n// @file: util/text.nz\npub fn shout(s: String) -> String { s + "!" }',
    fixes: [],
  }, {
    module: (name: string) => `unknown module \`${name}\``,
  }),
  notExported: define({
    code: "N0203",
    severity: "error",
    group: "resolution",
    title: "not exported",
    explanation:
      "Only `pub` definitions can be imported or reached through a module alias. Mark the definition `pub` in its module, or use something that is exported.",
    example:
      '// @file: main.nz\nimport util.{secret}\n\nfn main() -> Unit { print(secret()) }\n// @file: util.nz\nfn secret() -> String { "x" }',
    repair:
      '// @file: main.nz\nimport util.{secret}\n\nfn main() -> Unit { print(secret()) }\n// @file: util.nz\npub fn secret() -> String { "x" }',
    fixes: [],
  }, {
    private: (name: string, module: string) => `\`${name}\` is private to module \`${module}\``,
  }),
  duplicateDefinition: define({
    code: "N0204",
    severity: "error",
    group: "resolution",
    title: "duplicate definition",
    explanation:
      "Top-level names share one namespace per module (definitions and imported names alike), and the parameters, type parameters, fields and variants of one declaration must have distinct names. Rename or remove one of them.",
    example: "fn f() -> Int { 1 }\nfn f() -> Int { 2 }\n\nfn main() -> Unit {}",
    repair: "fn f() -> Int { 1 }\nfn g() -> Int { 2 }\n\nfn main() -> Unit {}",
    fixes: [],
  }, {
    name: (name: string) => `the name \`${name}\` is defined more than once`,
  }),
  duplicateBinding: define({
    code: "N0205",
    severity: "error",
    group: "resolution",
    title: "duplicate binding in a pattern",
    explanation:
      "One pattern binds the same name twice, so the second would hide the first. Give each binding its own name.",
    example: "fn first(xs: List[Int]) -> Int {\n  match xs { [x, x] => x, _ => 0 }\n}",
    repair: "fn first(xs: List[Int]) -> Int {\n  match xs { [x, y] => x + y, _ => 0 }\n}",
    fixes: [],
  }, {
    binding: (name: string) => `\`${name}\` is bound more than once in this pattern`,
  }),
  unknownField: define({
    code: "N0206",
    severity: "error",
    group: "resolution",
    title: "unknown field",
    explanation:
      "A field access names a field the value's record does not have, or the value is not a record at all.",
    example: "record Point { x: Int, y: Int }\n\nfn f(p: Point) -> Int { p.z }",
    repair: "record Point { x: Int, y: Int }\n\nfn f(p: Point) -> Int { p.x }",
    fixes: [],
  }, {
    ofRecord: (record: string, field: string) => `record \`${record}\` has no field \`${field}\``,
    ofType: (type: string, field: string) => `type \`${type}\` has no field \`${field}\``,
  }),
  unknownVariant: define({
    code: "N0207",
    severity: "error",
    group: "resolution",
    title: "unknown variant",
    explanation: "An enum is followed by a name that is not one of its variants.",
    example: "enum Color { Red, Green }\n\nfn f() -> Color { Color.Blue }",
    repair: "enum Color { Red, Green, Blue }\n\nfn f() -> Color { Color.Blue }",
    fixes: [],
  }, {
    ofEnum: (enumName: string, variant: string) =>
      `enum \`${enumName}\` has no variant \`${variant}\``,
    notAnEnum: (name: string) => `\`${name}\` is not an enum`,
  }),
  typeAsValue: define({
    code: "N0208",
    severity: "error",
    group: "resolution",
    title: "type used as a value",
    explanation:
      "A record, enum, type parameter, built-in type or module alias stands where a value is expected. Construct a record with `Name { field: value }`, name a variant with `Enum.Variant`, or reach a module's definition with `module.name`.",
    example: "record Point { x: Int, y: Int }\n\nfn f() -> Int {\n  let p = Point;\n  p.x\n}",
    repair:
      "record Point { x: Int, y: Int }\n\nfn f() -> Int {\n  let p = Point { x: 1, y: 2 };\n  p.x\n}",
    fixes: [],
  }, {
    notAValue: (name: string, what: string) => `\`${name}\` is ${what}, not a value`,
  }),
  valueAsType: define({
    code: "N0209",
    severity: "error",
    group: "resolution",
    title: "value used as a type",
    explanation: "A function or module stands where a type is expected.",
    example: "fn helper() -> Int { 1 }\n\nfn f(x: helper) -> Int { x }",
    repair: "fn helper() -> Int { 1 }\n\nfn f(x: Int) -> Int { x + helper() }",
    fixes: [],
  }, {
    notAType: (name: string, what: "a module" | "a function") =>
      `\`${name}\` is ${what}, not a type`,
  }),

  // ---------------------------------------------------------------- types
  mismatch: define({
    code: "N0301",
    severity: "error",
    group: "types",
    title: "type mismatch",
    explanation:
      "An expression has a type other than the one its place requires (a parameter, an annotation, a return type, another branch). Nazm has no implicit conversions: convert explicitly (`to_string` for text, `int_to_float`, or `float_to_int`, which truncates toward zero) or change one side. Where the conversion is certain the diagnostic carries it as a fix.",
    example: "fn label(n: Int) -> String { n }",
    repair: "fn label(n: Int) -> String { to_string(n) }",
    fixes: [
      {
        title:
          "convert the value with `to_string` or `int_to_float`, where its place's type says which",
        applicability: "automatic",
        precondition: "none",
      },
    ],
  }, {
    types: (expected: string, found: string) =>
      `mismatched types: expected \`${expected}\`, found \`${found}\``,
    /** `len` takes a list or a string. */
    listOrString: (found: string) =>
      `mismatched types: expected \`List[_]\` or \`String\`, found \`${found}\``,
  }),
  argumentCount: define({
    code: "N0302",
    severity: "error",
    group: "types",
    title: "wrong number of arguments",
    explanation:
      "A call passes more or fewer arguments than the function takes, or a variant pattern has more or fewer sub-patterns than the variant has fields.",
    example: "fn add(a: Int, b: Int) -> Int { a + b }\n\nfn f() -> Int { add(1) }",
    repair: "fn add(a: Int, b: Int) -> Int { a + b }\n\nfn f() -> Int { add(1, 2) }",
    fixes: [],
  }, {
    call: (takes: number, given: number) =>
      `this function takes ${count(takes, "argument")} but ${given} ${
        given === 1 ? "was" : "were"
      } given`,
    pattern: (variant: string, fields: number, given: number) =>
      `variant \`${variant}\` has ${count(fields, "field")} but the pattern has ${given}`,
  }),
  notCallable: define({
    code: "N0303",
    severity: "error",
    group: "types",
    title: "not callable",
    explanation: "A value that is not a function (or a variant with fields) is called.",
    example: "fn first(xs: List[Int]) -> Int { xs(0) }",
    repair: "fn first(xs: List[Int]) -> Int {\n  match xs { [x, .._] => x, [] => 0 }\n}",
    fixes: [],
  }, {
    value: (type: string) => `a value of type \`${type}\` is not a function`,
  }),
  missingFields: define({
    code: "N0304",
    severity: "error",
    group: "types",
    title: "missing record fields",
    explanation: "A record literal must give every field of the record exactly once.",
    example: "record Point { x: Int, y: Int }\n\nfn f() -> Point { Point { x: 1 } }",
    repair: "record Point { x: Int, y: Int }\n\nfn f() -> Point { Point { x: 1, y: 0 } }",
    fixes: [],
  }, {
    literal: (fields: readonly string[], record: string) =>
      `missing field${fields.length === 1 ? "" : "s"} ${
        fields.map((f) => `\`${f}\``).join(", ")
      } in \`${record}\` literal`,
  }),
  extraField: define({
    code: "N0305",
    severity: "error",
    group: "types",
    title: "extra record field",
    explanation:
      "A record literal gives a field the record does not declare, or gives a field twice.",
    example: "record Point { x: Int, y: Int }\n\nfn f() -> Point { Point { x: 1, y: 2, z: 3 } }",
    repair: "record Point { x: Int, y: Int }\n\nfn f() -> Point { Point { x: 1, y: 2 } }",
    fixes: [],
  }, {
    unknown: (record: string, field: string) => `record \`${record}\` has no field \`${field}\``,
    repeated: (field: string) => `field \`${field}\` is given more than once`,
  }),
  nonExhaustive: define({
    code: "N0306",
    severity: "error",
    group: "types",
    title: "non-exhaustive match",
    explanation:
      "Some values of the scrutinee's type match no arm. The message lists the patterns that are not covered (the first 16, then how many more); add arms for them (or a wildcard arm).",
    example:
      "enum Color { Red, Green }\n\nfn f(c: Color) -> Int {\n  match c { Color.Red => 1 }\n}",
    repair:
      "enum Color { Red, Green }\n\nfn f(c: Color) -> Int {\n  match c { Color.Red => 1, Color.Green => 2 }\n}",
    fixes: [
      {
        title:
          "add one arm per missing pattern (past 64: the first 16 and a `_` arm) with placeholder bodies",
        applicability: "needs_review",
        precondition: "placeholders_to_complete",
      },
    ],
  }, {
    notCovered: (patterns: string) => `non-exhaustive match: ${patterns} not covered`,
  }),
  unreachableArm: define({
    code: "N0307",
    severity: "warning",
    group: "types",
    title: "unreachable arm",
    explanation:
      "Earlier arms already match every value this arm's pattern matches, so it never runs.",
    example: "fn f(n: Int) -> Int {\n  match n { _ => 0, 1 => 1 }\n}",
    repair: "fn f(n: Int) -> Int {\n  match n { 1 => 1, _ => 0 }\n}",
    fixes: [],
  }, {
    arm: () => "unreachable match arm",
  }),
  typeArgumentCount: define({
    code: "N0308",
    severity: "error",
    group: "types",
    title: "wrong number of type arguments",
    explanation:
      "A type is written with more or fewer type arguments than it declares (`List[Int]`, `Result[Int, String]`, `Int`).",
    example: "fn count(xs: List) -> Int { len(xs) }",
    repair: "fn count(xs: List[Int]) -> Int { len(xs) }",
    fixes: [],
  }, {
    type: (type: string, takes: number, given: number) =>
      `\`${type}\` takes ${count(takes, "type argument")} but ${given} ${
        given === 1 ? "was" : "were"
      } given`,
    typeParameter: (name: string) => `type parameter \`${name}\` takes no type arguments`,
  }),
  cannotInfer: define({
    code: "N0309",
    severity: "error",
    group: "types",
    title: "cannot infer a type",
    explanation:
      "Nothing in the function fixes the type of a `let` binding (for example an empty list never used as a list of something). Annotate it: `let xs: List[Int] = []`.",
    example: "fn main() -> Unit {\n  let xs = [];\n  print(to_string(len(xs)))\n}",
    repair: "fn main() -> Unit {\n  let xs: List[Int] = [];\n  print(to_string(len(xs)))\n}",
    fixes: [],
  }, {
    binding: (name: string) => `cannot infer the type of \`${name}\``,
    fieldOwner: (field: string) =>
      `cannot infer the type of this value to find its field \`${field}\``,
  }),
  badOperands: define({
    code: "N0310",
    severity: "error",
    group: "types",
    title: "unsupported operand types",
    explanation:
      'An operator is applied to types it does not accept: arithmetic takes two `Int` or two `Float` (`+` also two `String`), comparison `<` `<=` `>` `>=` two `Int`, `Float` or `String`, `&&` `||` `!` take `Bool`, unary `-` a number. Nothing is converted implicitly: join text with `"n = " + to_string(n)`, and mix numbers with `int_to_float(i) * 3.14` or `float_to_int(x)` (toward zero). Where the expected type makes the conversion certain, the diagnostic carries it as a fix.',
    example: 'fn label(n: Int) -> String { "n = " + n }',
    repair: 'fn label(n: Int) -> String { "n = " + to_string(n) }',
    fixes: [
      {
        title:
          "convert the value with `to_string` or `int_to_float`, where its place's type says which",
        applicability: "automatic",
        precondition: "none",
      },
    ],
  }, {
    not: (type: string) => `cannot apply \`!\` to \`${type}\``,
    negate: (type: string) => `cannot negate a value of type \`${type}\``,
    binary: (op: string, left: string, right: string) =>
      `cannot apply \`${op}\` to \`${left}\` and \`${right}\``,
  }),
  notARecord: define({
    code: "N0311",
    severity: "error",
    group: "types",
    title: "not a record",
    explanation: "A record literal names a type that is not a record (an enum or a built-in type).",
    example: "enum Color { Red }\n\nfn f() -> Color { Color { } }",
    repair: "enum Color { Red }\n\nfn f() -> Color { Color.Red }",
    fixes: [],
  }, {
    type: (type: string) => `\`${type}\` is not a record type`,
  }),

  typeArgumentsAtCall: define({
    code: "N0312",
    severity: "error",
    group: "types",
    title: "type arguments at a call",
    explanation:
      "A call is written with type arguments, `empty[Int]()`. Nazm infers a call's type arguments from its arguments and from the type its result must have; they are never written at the call. Where nothing fixes them, annotate the binding that receives the result: `let xs: List[Int] = empty();`. The checker uses the written ones, so nothing else is reported for the call, and when the call is a `let`'s whole value it offers that rewrite as a fix.",
    example:
      "fn empty[T]() -> List[T] { [] }\n\nfn main() -> Unit {\n  let xs = empty[Int]();\n  print(to_string(len(xs)))\n}",
    repair:
      "fn empty[T]() -> List[T] { [] }\n\nfn main() -> Unit {\n  let xs: List[Int] = empty();\n  print(to_string(len(xs)))\n}",
    fixes: [
      {
        title: "annotate the binding with the result's type, and drop the type arguments",
        applicability: "automatic",
        precondition: "none",
      },
    ],
  }, {
    call: () => "type arguments are not written at a call",
  }),

  // ---------------------------------------------------------------- lints
  unusedLocal: define({
    code: "N0401",
    severity: "warning",
    group: "lints",
    title: "unused local or parameter",
    explanation:
      "A `let` binding, parameter or pattern binding is never read. Remove it, or prefix its name with `_` to say it is unused on purpose.",
    example: "fn f(n: Int) -> Int {\n  let unused = 1;\n  n\n}",
    repair: "fn f(n: Int) -> Int {\n  n\n}",
    fixes: [
      {
        title: "prefix the name with `_` (`_name2`, … where `_name` is taken or would capture)",
        applicability: "automatic",
        precondition: "none",
      },
    ],
  }, {
    local: (what: "parameter" | "variable", name: string) => `unused ${what} \`${name}\``,
  }),
  unusedImport: define({
    code: "N0402",
    severity: "warning",
    group: "lints",
    title: "unused import",
    explanation: "An imported module alias or name is never used in the module.",
    example:
      "// @file: main.nz\nimport util.{helper}\n\nfn main() -> Unit {}\n// @file: util.nz\npub fn helper() -> Int { 1 }",
    repair:
      "// @file: main.nz\nimport util.{helper}\n\nfn main() -> Unit { print(to_string(helper())) }\n// @file: util.nz\npub fn helper() -> Int { 1 }",
    fixes: [
      {
        title: "remove the unused import",
        applicability: "automatic",
        precondition: "none",
      },
    ],
  }, {
    name: (name: string) => `unused import \`${name}\``,
  }),
  unusedDefinition: define({
    code: "N0403",
    severity: "warning",
    group: "lints",
    title: "unused private definition",
    explanation:
      "A definition without `pub` is used nowhere but in itself: nothing outside its module can reach it, and nothing inside does. Remove it, use it, or export it.",
    example: "fn forgotten() -> Int { 1 }\n\nfn main() -> Unit {}",
    repair: "fn forgotten() -> Int { 1 }\n\nfn main() -> Unit { print(to_string(forgotten())) }",
    fixes: [],
  }, {
    definition: (kind: string, name: string) => `${kind} \`${name}\` is never used`,
  }),

  shadowsPrelude: define({
    code: "N0404",
    severity: "warning",
    group: "lints",
    title: "definition shadows the prelude",
    explanation:
      "A top-level definition has the name of a prelude function or type. Where it is in scope (its module, and wherever it is imported) the name means the definition, and the prelude's cannot be reached: a call written for the prelude's then fails, and its error names this definition. Rename the definition, unless replacing the prelude's is the point.",
    example: "fn push(n: Int) -> Int { n + 1 }\n\nfn main() -> Unit { print(to_string(push(1))) }",
    repair: "fn bump(n: Int) -> Int { n + 1 }\n\nfn main() -> Unit { print(to_string(bump(1))) }",
    fixes: [],
  }, {
    function: (name: string) => `function \`${name}\` shadows the prelude function \`${name}\``,
    type: (kind: string, name: string) =>
      `${kind} \`${name}\` shadows the prelude type \`${name}\``,
  }),

  // ---------------------------------------------------------------- program
  missingMain: define({
    code: "N0501",
    severity: "error",
    group: "program",
    title: "missing main",
    explanation:
      "A program's root module must define `fn main() -> Unit` (or `fn main() -> Int`, whose result is the exit status).",
    example: "fn helper() -> Int { 1 }",
    repair: "fn helper() -> Int { 1 }\n\nfn main() -> Unit { print(to_string(helper())) }",
    fixes: [],
  }, {
    root: (module: string) => `the root module \`${module}\` has no \`main\` function`,
  }),
  mainType: define({
    code: "N0502",
    severity: "error",
    group: "program",
    title: "main has the wrong type",
    explanation:
      "The root module's `main` must be a function without parameters or type parameters returning `Unit` or `Int`.",
    example: "fn main(args: List[String]) -> Unit {}",
    repair: "fn main() -> Unit {}",
    fixes: [],
  }, {
    notAFunction: (what: string) => `\`main\` must be a function, not ${what}`,
    typeParameters: (names: string) =>
      `\`main\` must not have type parameters, but it has ${names}`,
    parameters: (given: number) =>
      `\`main\` must take no parameters, but it takes ${count(given, "parameter")}`,
    result: (type: string) => `\`main\` must return \`Unit\` or \`Int\`, not \`${type}\``,
  }),

  // ---------------------------------------------------------------- loading
  notUtf8: define({
    code: "N0601",
    severity: "error",
    group: "loading",
    title: "file is not UTF-8",
    explanation:
      "Nazm source files are UTF-8. The file is reported at its first invalid byte and not parsed.",
    example: "(a file containing the byte 0xFF)",
    repair: "(the same file saved as UTF-8)",
    fixes: [],
  }, {
    at: (offset: number) => `invalid UTF-8 at byte ${offset}`,
  }),
  fileTooLarge: define({
    code: "N0602",
    severity: "error",
    group: "loading",
    title: "file too large",
    explanation:
      "A source file may hold at most 8 MiB (8,388,608 bytes); a larger one is not parsed, and no more than the limit and one byte of it is ever read.",
    example: "(a file of 9 MiB)",
    repair: "(the module split into modules of at most 8 MiB each)",
    fixes: [],
  }, {
    overLimit: (size: number, limit: number) =>
      `the file is ${size} bytes, over the limit of ${limit}`,
    refused: (why: string) => why,
  }),
  tooManyFiles: define({
    code: "N0603",
    severity: "error",
    group: "loading",
    title: "too many files",
    explanation:
      "A compilation may hold at most 10,000 files; the imports past that limit are not loaded.",
    example: "(a root importing 10,000 modules)",
    repair: "(a program of at most 10,000 modules)",
    fixes: [],
  }, {
    overflow: (limit: number, module: string) =>
      `the compilation exceeds ${limit} files; \`${module}\` and later imports are not loaded`,
  }),
  unreadableFile: define({
    code: "N0604",
    severity: "error",
    group: "loading",
    title: "file cannot be read",
    explanation:
      "The file of an imported module (or the root itself) exists but could not be read (for example, permission denied).",
    example: "(a module file without read permission)",
    repair: "(the file made readable to the user running nazm: `chmod a+r util.nz`)",
    fixes: [],
  }, {
    root: (path: string, why: string) => `cannot read the root file \`${path}\`: ${why}`,
    file: (path: string, why: string) => `cannot read \`${path}\`: ${why}`,
  }),
  notRegularFile: define({
    code: "N0605",
    severity: "error",
    group: "loading",
    title: "not a regular file",
    explanation:
      "Only regular files are read as modules. A named pipe (FIFO), a device, a socket or a directory where a module's file should be is refused by its kind without being read or waited on, and the module is not loaded.",
    example: "(a named pipe `util.nz`, imported as `import util`)",
    repair: "(a regular file `util.nz` in place of the pipe)",
    fixes: [],
  }, {
    root: (path: string, why: string) => `cannot read the root file \`${path}\`: ${why}`,
    file: (path: string, kind: string) => `\`${path}\` is a ${kind}, not a regular file`,
  }),
  linkOutside: define({
    code: "N0606",
    severity: "error",
    group: "loading",
    title: "link out of the source root",
    explanation:
      "A module's file is a symbolic link, or lies behind one, that does not lead to a file inside the source root: it points outside it, at nothing, or round in a loop. Nothing it points at is read, and the answer is the same whatever exists there. Copy the file into the source root, or point the link at a file inside it.",
    example: "(a link `util.nz` to `/elsewhere/util.nz`, imported as `import util`)",
    repair: "(the file `util.nz` copied into the source root in place of the link)",
    fixes: [],
  }, {
    root: (path: string, why: string) => `cannot read the root file \`${path}\`: ${why}`,
    file: (path: string) =>
      `\`${path}\` is a symbolic link, or lies behind one, that does not lead to a file inside the source root`,
  }),
} as const;

/** Every code, sorted by code: the registry docs/diagnostics.md is generated from. */
export const REGISTRY: readonly CodeInfo[] = Object.values(DIAGNOSTICS)
  .map((entry) => entry.info)
  .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

/** The codes by name, for code that compares a diagnostic's code with one. */
export const CODES: { readonly [K in keyof typeof DIAGNOSTICS]: string } = Object.fromEntries(
  Object.entries(DIAGNOSTICS).map(([name, entry]) => [name, entry.code]),
) as { readonly [K in keyof typeof DIAGNOSTICS]: string };

const BY_CODE: ReadonlyMap<string, CodeInfo> = new Map(REGISTRY.map((c) => [c.code, c]));

/**
 * The groups as docs/diagnostics.md heads them, in order: the heading's title
 * and the id segment the docs corpus derives from it (its slug), so that a
 * code's section id is known here, below the docs layer. A test loads the
 * corpus and checks every code's section id against it.
 */
export const CODE_GROUPS: readonly {
  readonly group: CodeGroup;
  readonly heading: string;
  readonly slug: string;
}[] = [
  { group: "syntax", heading: "Syntax (N01xx)", slug: "syntax-n01xx" },
  { group: "resolution", heading: "Resolution (N02xx)", slug: "resolution-n02xx" },
  { group: "types", heading: "Types (N03xx)", slug: "types-n03xx" },
  { group: "lints", heading: "Lints (N04xx)", slug: "lints-n04xx" },
  { group: "program", heading: "Program (N05xx)", slug: "program-n05xx" },
  { group: "loading", heading: "Loading (N06xx)", slug: "loading-n06xx" },
];

/** The id of the docs document the registry is published as. */
export const DIAGNOSTICS_DOCUMENT = "diagnostics";

/**
 * The docs section id (for `nazm.docs_section`, `nazm docs section`) of the
 * section of docs/diagnostics.md that explains a code: its heading is the
 * code, under its group's heading. Null for an unregistered code.
 */
export function docsSectionOf(code: string): string | null {
  const info = BY_CODE.get(code);
  if (info === undefined) return null;
  const group = CODE_GROUPS.find((g) => g.group === info.group)!;
  return `${DIAGNOSTICS_DOCUMENT}/${group.slug}/${code.toLowerCase()}`;
}

/** The registry entry of a code, or undefined for an unregistered one. */
export function codeInfo(code: string): CodeInfo | undefined {
  return BY_CODE.get(code);
}

/** Whether a code is reported by the lexer or parser (its group is `syntax`). */
export function isSyntaxCode(code: string): boolean {
  return BY_CODE.get(code)?.group === "syntax";
}
