/**
 * The one registry of diagnostic codes: every code the compiler can report,
 * syntax included (merged from the syntax layer's table), with its severity,
 * title, explanation, example and the kinds of fix it offers.
 * docs/diagnostics.md is generated from it (scripts/gen_diagnostics_doc.ts)
 * and a test checks every code has a golden case.
 *
 * Groups: N01xx syntax, N02xx resolution, N03xx types, N04xx lints,
 * N05xx program, N06xx loading (what happens before a file is parsed).
 *
 * @module
 */
import type { Applicability, Precondition, Severity } from "../base/mod.ts";
import { SYNTAX_CODE_TABLE } from "./_syntax_codes.ts";

export type CodeGroup = "syntax" | "resolution" | "types" | "lints" | "program" | "loading";

/** A kind of fix a code may carry. */
export interface FixKind {
  readonly title: string;
  readonly applicability: Applicability;
  readonly precondition: Precondition["kind"];
}

export interface CodeInfo {
  readonly code: string;
  readonly severity: Severity;
  readonly group: CodeGroup;
  /** Short, lowercase, e.g. `unknown name`. */
  readonly title: string;
  /** What is wrong, why it matters, and what to do. */
  readonly explanation: string;
  /** A small Nazm program that has the diagnostic. */
  readonly example: string;
  readonly fixes: readonly FixKind[];
}

/** The semantic codes by name, so that the checker never spells a code twice. */
export const CODES = {
  unknownName: "N0201",
  unknownModule: "N0202",
  notExported: "N0203",
  duplicateDefinition: "N0204",
  duplicateBinding: "N0205",
  unknownField: "N0206",
  unknownVariant: "N0207",
  typeAsValue: "N0208",
  valueAsType: "N0209",
  mismatch: "N0301",
  argumentCount: "N0302",
  notCallable: "N0303",
  missingFields: "N0304",
  extraField: "N0305",
  nonExhaustive: "N0306",
  unreachableArm: "N0307",
  typeArgumentCount: "N0308",
  cannotInfer: "N0309",
  badOperands: "N0310",
  notARecord: "N0311",
  unusedLocal: "N0401",
  unusedImport: "N0402",
  unusedDefinition: "N0403",
  missingMain: "N0501",
  mainType: "N0502",
  notUtf8: "N0601",
  fileTooLarge: "N0602",
  tooManyFiles: "N0603",
  unreadableFile: "N0604",
  notRegularFile: "N0605",
  linkOutside: "N0606",
} as const;

const SEMANTIC: readonly CodeInfo[] = [
  {
    code: CODES.unknownName,
    severity: "error",
    group: "resolution",
    title: "unknown name",
    explanation:
      "A name in an expression or a type does not refer to any local, parameter, definition of the module, imported name or prelude item. Check the spelling, or import the definition from the module that declares it.",
    example: "fn main() -> Unit {\n  print(greting)\n}",
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
  },
  {
    code: CODES.unknownModule,
    severity: "error",
    group: "resolution",
    title: "unknown module",
    explanation:
      "An import names a module that has no file under the source root: `import a.b` reads `a/b.nz`. Check the path, or create the module.",
    example: "import util.nothing_here\n\nfn main() -> Unit {}",
    fixes: [],
  },
  {
    code: CODES.notExported,
    severity: "error",
    group: "resolution",
    title: "not exported",
    explanation:
      "Only `pub` definitions can be imported or reached through a module alias. Mark the definition `pub` in its module, or use something that is exported.",
    example:
      '// @file: main.nz\nimport util.{secret}\n\nfn main() -> Unit { print(secret()) }\n// @file: util.nz\nfn secret() -> String { "x" }',
    fixes: [],
  },
  {
    code: CODES.duplicateDefinition,
    severity: "error",
    group: "resolution",
    title: "duplicate definition",
    explanation:
      "Top-level names share one namespace per module (definitions and imported names alike), and the parameters, type parameters, fields and variants of one declaration must have distinct names. Rename or remove one of them.",
    example: "fn f() -> Int { 1 }\nfn f() -> Int { 2 }\n\nfn main() -> Unit {}",
    fixes: [],
  },
  {
    code: CODES.duplicateBinding,
    severity: "error",
    group: "resolution",
    title: "duplicate binding in a pattern",
    explanation:
      "One pattern binds the same name twice, so the second would hide the first. Give each binding its own name.",
    example: "fn first(xs: List[Int]) -> Int {\n  match xs { [x, x] => x, _ => 0 }\n}",
    fixes: [],
  },
  {
    code: CODES.unknownField,
    severity: "error",
    group: "resolution",
    title: "unknown field",
    explanation:
      "A field access names a field the value's record does not have, or the value is not a record at all.",
    example: "record Point { x: Int, y: Int }\n\nfn f(p: Point) -> Int { p.z }",
    fixes: [],
  },
  {
    code: CODES.unknownVariant,
    severity: "error",
    group: "resolution",
    title: "unknown variant",
    explanation: "An enum is followed by a name that is not one of its variants.",
    example: "enum Color { Red, Green }\n\nfn f() -> Color { Color.Blue }",
    fixes: [],
  },
  {
    code: CODES.typeAsValue,
    severity: "error",
    group: "resolution",
    title: "type used as a value",
    explanation:
      "A record, enum, type parameter, built-in type or module alias stands where a value is expected. Construct a record with `Name { field: value }`, name a variant with `Enum.Variant`, or reach a module's definition with `module.name`.",
    example: "record Point { x: Int, y: Int }\n\nfn f() -> Int {\n  let p = Point;\n  0\n}",
    fixes: [],
  },
  {
    code: CODES.valueAsType,
    severity: "error",
    group: "resolution",
    title: "value used as a type",
    explanation: "A function or module stands where a type is expected.",
    example: "fn helper() -> Int { 1 }\n\nfn f(x: helper) -> Int { 1 }",
    fixes: [],
  },
  {
    code: CODES.mismatch,
    severity: "error",
    group: "types",
    title: "type mismatch",
    explanation:
      "An expression has a type other than the one its place requires (a parameter, an annotation, a return type, another branch). Nazm has no implicit conversions: convert explicitly (`to_string`, `int_to_float`) or change one side.",
    example: 'fn f() -> Int { "one" }',
    fixes: [],
  },
  {
    code: CODES.argumentCount,
    severity: "error",
    group: "types",
    title: "wrong number of arguments",
    explanation:
      "A call passes more or fewer arguments than the function takes, or a variant pattern has more or fewer sub-patterns than the variant has fields.",
    example: "fn add(a: Int, b: Int) -> Int { a + b }\n\nfn f() -> Int { add(1) }",
    fixes: [],
  },
  {
    code: CODES.notCallable,
    severity: "error",
    group: "types",
    title: "not callable",
    explanation: "A value that is not a function (or a variant with fields) is called.",
    example: "fn f(n: Int) -> Int { n(1) }",
    fixes: [],
  },
  {
    code: CODES.missingFields,
    severity: "error",
    group: "types",
    title: "missing record fields",
    explanation: "A record literal must give every field of the record exactly once.",
    example: "record Point { x: Int, y: Int }\n\nfn f() -> Point { Point { x: 1 } }",
    fixes: [],
  },
  {
    code: CODES.extraField,
    severity: "error",
    group: "types",
    title: "extra record field",
    explanation:
      "A record literal gives a field the record does not declare, or gives a field twice.",
    example: "record Point { x: Int, y: Int }\n\nfn f() -> Point { Point { x: 1, y: 2, z: 3 } }",
    fixes: [],
  },
  {
    code: CODES.nonExhaustive,
    severity: "error",
    group: "types",
    title: "non-exhaustive match",
    explanation:
      "Some values of the scrutinee's type match no arm. The message lists the patterns that are not covered (the first 16, then how many more); add arms for them (or a wildcard arm).",
    example:
      "enum Color { Red, Green }\n\nfn f(c: Color) -> Int {\n  match c { Color.Red => 1 }\n}",
    fixes: [{
      title:
        "add one arm per missing pattern (past 64: the first 16 and a `_` arm) with placeholder bodies",
      applicability: "needs_review",
      precondition: "placeholders_to_complete",
    }],
  },
  {
    code: CODES.unreachableArm,
    severity: "warning",
    group: "types",
    title: "unreachable arm",
    explanation:
      "Earlier arms already match every value this arm's pattern matches, so it never runs.",
    example: "fn f(n: Int) -> Int {\n  match n { _ => 0, 1 => 1 }\n}",
    fixes: [],
  },
  {
    code: CODES.typeArgumentCount,
    severity: "error",
    group: "types",
    title: "wrong number of type arguments",
    explanation:
      "A type is written with more or fewer type arguments than it declares (`List[Int]`, `Result[Int, String]`, `Int`).",
    example: "fn f(xs: List) -> Int { 0 }",
    fixes: [],
  },
  {
    code: CODES.cannotInfer,
    severity: "error",
    group: "types",
    title: "cannot infer a type",
    explanation:
      "Nothing in the function fixes the type of a `let` binding (for example an empty list never used as a list of something). Annotate it: `let xs: List[Int] = []`.",
    example: "fn main() -> Unit {\n  let xs = [];\n  print(to_string(len(xs)))\n}",
    fixes: [],
  },
  {
    code: CODES.badOperands,
    severity: "error",
    group: "types",
    title: "unsupported operand types",
    explanation:
      "An operator is applied to types it does not accept: arithmetic takes two `Int` or two `Float` (`+` also two `String`), comparison `<` `<=` `>` `>=` two `Int`, `Float` or `String`, `&&` `||` `!` take `Bool`, unary `-` a number.",
    example: "fn f() -> Bool { true + false }",
    fixes: [],
  },
  {
    code: CODES.notARecord,
    severity: "error",
    group: "types",
    title: "not a record",
    explanation: "A record literal names a type that is not a record (an enum or a built-in type).",
    example: "enum Color { Red }\n\nfn f() -> Color { Color { } }",
    fixes: [],
  },
  {
    code: CODES.unusedLocal,
    severity: "warning",
    group: "lints",
    title: "unused local or parameter",
    explanation:
      "A `let` binding, parameter or pattern binding is never read. Remove it, or prefix its name with `_` to say it is unused on purpose.",
    example: "fn f(n: Int) -> Int {\n  let unused = 1;\n  n\n}",
    fixes: [{
      title: "prefix the name with `_` (`_name2`, … where `_name` is taken or would capture)",
      applicability: "automatic",
      precondition: "none",
    }],
  },
  {
    code: CODES.unusedImport,
    severity: "warning",
    group: "lints",
    title: "unused import",
    explanation: "An imported module alias or name is never used in the module.",
    example:
      "// @file: main.nz\nimport util.{helper}\n\nfn main() -> Unit {}\n// @file: util.nz\npub fn helper() -> Int { 1 }",
    fixes: [{
      title: "remove the unused import",
      applicability: "automatic",
      precondition: "none",
    }],
  },
  {
    code: CODES.unusedDefinition,
    severity: "warning",
    group: "lints",
    title: "unused private definition",
    explanation:
      "A definition without `pub` is used nowhere but in itself: nothing outside its module can reach it, and nothing inside does. Remove it, use it, or export it.",
    example: "fn forgotten() -> Int { 1 }\n\nfn main() -> Unit {}",
    fixes: [],
  },
  {
    code: CODES.missingMain,
    severity: "error",
    group: "program",
    title: "missing main",
    explanation:
      "A program's root module must define `fn main() -> Unit` (or `fn main() -> Int`, whose result is the exit status).",
    example: "fn helper() -> Int { 1 }",
    fixes: [],
  },
  {
    code: CODES.mainType,
    severity: "error",
    group: "program",
    title: "main has the wrong type",
    explanation:
      "The root module's `main` must be a function without parameters or type parameters returning `Unit` or `Int`.",
    example: "fn main(args: List[String]) -> Unit {}",
    fixes: [],
  },
  {
    code: CODES.notUtf8,
    severity: "error",
    group: "loading",
    title: "file is not UTF-8",
    explanation:
      "Nazm source files are UTF-8. The file is reported at its first invalid byte and not parsed.",
    example: "(a file containing the byte 0xFF)",
    fixes: [],
  },
  {
    code: CODES.fileTooLarge,
    severity: "error",
    group: "loading",
    title: "file too large",
    explanation:
      "A source file may hold at most 8 MiB (8,388,608 bytes); a larger one is not parsed, and no more than the limit and one byte of it is ever read.",
    example: "(a file of 9 MiB)",
    fixes: [],
  },
  {
    code: CODES.tooManyFiles,
    severity: "error",
    group: "loading",
    title: "too many files",
    explanation:
      "A compilation may hold at most 10,000 files; the imports past that limit are not loaded.",
    example: "(a root importing 10,000 modules)",
    fixes: [],
  },
  {
    code: CODES.unreadableFile,
    severity: "error",
    group: "loading",
    title: "file cannot be read",
    explanation:
      "The file of an imported module (or the root itself) exists but could not be read (for example, permission denied).",
    example: "(a module file without read permission)",
    fixes: [],
  },
  {
    code: CODES.notRegularFile,
    severity: "error",
    group: "loading",
    title: "not a regular file",
    explanation:
      "Only regular files are read as modules. A named pipe (FIFO), a device, a socket or a directory where a module's file should be is refused by its kind without being read or waited on, and the module is not loaded.",
    example: "(a named pipe `util.nz`, imported as `import util`)",
    fixes: [],
  },
  {
    code: CODES.linkOutside,
    severity: "error",
    group: "loading",
    title: "link out of the source root",
    explanation:
      "A module's file is a symbolic link, or lies behind one, that does not lead to a file inside the source root: it points outside it, at nothing, or round in a loop. Nothing it points at is read, and the answer is the same whatever exists there. Copy the file into the source root, or point the link at a file inside it.",
    example: "(a link `util.nz` to `/elsewhere/util.nz`, imported as `import util`)",
    fixes: [],
  },
];

/** Every code, syntax first, sorted by code. */
export const REGISTRY: readonly CodeInfo[] = [...SYNTAX_CODE_TABLE, ...SEMANTIC].sort((a, b) =>
  a.code < b.code ? -1 : a.code > b.code ? 1 : 0
);

const BY_CODE: ReadonlyMap<string, CodeInfo> = new Map(REGISTRY.map((c) => [c.code, c]));

/** The registry entry of a code, or undefined for an unregistered one. */
export function codeInfo(code: string): CodeInfo | undefined {
  return BY_CODE.get(code);
}
