/**
 * The syntax tree. Plain, immutable data with exact half-open byte spans
 * (`start`, `end`) on every node, and no semantics: a name's declaration
 * ({@link NameDecl}) and a reference to a name ({@link NameRef}) are different
 * node types, so later layers never guess which is which.
 *
 * Trivia (whitespace, comments) is not in the tree; it is in the token
 * stream ({@link Tokens}), which is lossless. A doc comment (`///`) is
 * attached to the definition that follows it.
 *
 * @module
 */

/** Every node has its byte range. */
export interface NodeBase {
  readonly start: number;
  readonly end: number;
}

// ---------------------------------------------------------------- names

/** The place where a name is introduced: a definition, parameter, field, variant, binding. */
export interface NameDecl extends NodeBase {
  readonly kind: "NameDecl";
  readonly text: string;
}

/** A use of a name, to be resolved by the semantics layer. */
export interface NameRef extends NodeBase {
  readonly kind: "NameRef";
  readonly text: string;
}

/** A `///` doc comment block: its span covers every line, `text` is the lines without `///` prefixes. */
export interface DocComment extends NodeBase {
  readonly kind: "DocComment";
  readonly text: string;
}

// ---------------------------------------------------------------- file and items

export interface SourceFile extends NodeBase {
  readonly kind: "SourceFile";
  readonly imports: readonly Import[];
  /** Definitions and error items, in source order. */
  readonly items: readonly Item[];
}

/**
 * `import a.b.c`, `import a.b.c as x`, `import a.b.c.{X, y}`.
 * `path` holds every segment; with `names`, the last segment is still the module's.
 */
export interface Import extends NodeBase {
  readonly kind: "Import";
  readonly path: readonly NameRef[];
  /** `as x`: the binding introduced for the module. */
  readonly alias: NameDecl | null;
  /** `.{X, y}`: the names brought in, each a reference into the module. Null without braces. */
  readonly names: readonly NameRef[] | null;
}

export type Item = FnDecl | RecordDecl | EnumDecl | TestDecl | ErrorNode;

interface ItemBase extends NodeBase {
  readonly doc: DocComment | null;
  /** The span of the `pub` keyword, or null when the definition is private. */
  readonly pub: NodeBase | null;
  readonly name: NameDecl;
  readonly typeParams: readonly NameDecl[];
}

export interface FnDecl extends ItemBase {
  readonly kind: "FnDecl";
  readonly params: readonly Param[];
  /** Null when omitted: the function returns `Unit`. */
  readonly returnType: TypeExpr | null;
  readonly body: Block;
}

export interface Param extends NodeBase {
  readonly kind: "Param";
  readonly name: NameDecl;
  readonly type: TypeExpr;
}

/**
 * `test fn name() { ... }`: a test function. `test` is a contextual word,
 * not a keyword: only before `fn` at the top level does it start a test.
 * A test is not a definition: it binds no name and takes no parameters.
 */
export interface TestDecl extends NodeBase {
  readonly kind: "TestDecl";
  readonly doc: DocComment | null;
  /** The span of the word `test`. */
  readonly test: NodeBase;
  readonly name: NameDecl;
  readonly body: Block;
}

export interface RecordDecl extends ItemBase {
  readonly kind: "RecordDecl";
  readonly fields: readonly FieldDecl[];
}

export interface FieldDecl extends NodeBase {
  readonly kind: "FieldDecl";
  readonly name: NameDecl;
  readonly type: TypeExpr;
}

export interface EnumDecl extends ItemBase {
  readonly kind: "EnumDecl";
  readonly variants: readonly VariantDecl[];
}

export interface VariantDecl extends NodeBase {
  readonly kind: "VariantDecl";
  readonly name: NameDecl;
  /** Positional payload types; empty for a variant without payload. */
  readonly fields: readonly TypeExpr[];
}

/** What the parser skipped while recovering; a syntax diagnostic covers it. */
export interface ErrorNode extends NodeBase {
  readonly kind: "Error";
}

// ---------------------------------------------------------------- types

export type TypeExpr = NamedType | FnType | UnitType | ErrorNode;

/** `Int`, `List[T]`, `shapes.Shape`, `Result[Int, String]`. */
export interface NamedType extends NodeBase {
  readonly kind: "NamedType";
  /** One segment, or a module alias then the type's name. */
  readonly path: readonly NameRef[];
  readonly args: readonly TypeExpr[];
}

/** `fn(A, B) -> R`. */
export interface FnType extends NodeBase {
  readonly kind: "FnType";
  readonly params: readonly TypeExpr[];
  readonly result: TypeExpr;
}

/** `()`. */
export interface UnitType extends NodeBase {
  readonly kind: "UnitType";
}

// ---------------------------------------------------------------- expressions

export type Expr =
  | IntLit
  | FloatLit
  | StringLit
  | BoolLit
  | UnitLit
  | NameExpr
  | FieldExpr
  | CallExpr
  | RecordLit
  | ListLit
  | UnaryExpr
  | BinaryExpr
  | IfExpr
  | MatchExpr
  | Block
  | ReturnExpr
  | ParenExpr
  | ErrorNode;

export interface IntLit extends NodeBase {
  readonly kind: "IntLit";
  /** The value; null when the literal is malformed or out of the 64-bit range (a diagnostic says so). */
  readonly value: bigint | null;
}

export interface FloatLit extends NodeBase {
  readonly kind: "FloatLit";
  readonly value: number | null;
}

export interface StringLit extends NodeBase {
  readonly kind: "StringLit";
  /** The decoded value, escapes applied; bad escapes are diagnosed and kept as written. */
  readonly value: string;
}

export interface BoolLit extends NodeBase {
  readonly kind: "BoolLit";
  readonly value: boolean;
}

/** `()` as a value. */
export interface UnitLit extends NodeBase {
  readonly kind: "UnitLit";
}

/** A bare name: a local, a parameter, a definition, a module alias, a prelude item. */
export interface NameExpr extends NodeBase {
  readonly kind: "NameExpr";
  readonly name: NameRef;
}

/**
 * `target.name`. The parser cannot tell a field access from a module path
 * (`shapes.area`) or an enum variant (`Shape.Circle`); the resolver can.
 */
export interface FieldExpr extends NodeBase {
  readonly kind: "FieldExpr";
  readonly target: Expr;
  readonly name: NameRef;
}

export interface CallExpr extends NodeBase {
  readonly kind: "CallExpr";
  readonly callee: Expr;
  /**
   * Type arguments written at the call, `empty[Int]()`: not Nazm (the
   * checker reports N0312 and uses them, so nothing cascades), but parsed, so
   * that the diagnostic can say what to write instead. Null when absent.
   */
  readonly typeArgs: TypeArgs | null;
  readonly args: readonly Expr[];
}

/** The bracketed type arguments of a call, `[Int]`, from `[` to `]`. */
export interface TypeArgs {
  readonly start: number;
  readonly end: number;
  readonly types: readonly TypeExpr[];
}

/** `Point { x: 1, y }`, `shapes.Point { ... }`, `Box[Int] { ... }`. */
export interface RecordLit extends NodeBase {
  readonly kind: "RecordLit";
  readonly type: NamedType;
  readonly fields: readonly FieldInit[];
}

export interface FieldInit extends NodeBase {
  readonly kind: "FieldInit";
  readonly name: NameRef;
  /** Null for the shorthand `{ x }`, which means `{ x: x }`. */
  readonly value: Expr | null;
}

export interface ListLit extends NodeBase {
  readonly kind: "ListLit";
  readonly elements: readonly Expr[];
}

export type UnaryOp = "-" | "!";

export interface UnaryExpr extends NodeBase {
  readonly kind: "UnaryExpr";
  readonly op: UnaryOp;
  readonly operand: Expr;
}

export type BinaryOp =
  | "||"
  | "&&"
  | "=="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "+"
  | "-"
  | "*"
  | "/"
  | "%";

export interface BinaryExpr extends NodeBase {
  readonly kind: "BinaryExpr";
  readonly op: BinaryOp;
  /** The operator token's span, for diagnostics about the operation. */
  readonly opStart: number;
  readonly left: Expr;
  readonly right: Expr;
}

export interface IfExpr extends NodeBase {
  readonly kind: "IfExpr";
  readonly condition: Expr;
  readonly then: Block;
  /** `else { ... }` or `else if ...`; null without else (the `if` is then `Unit`). */
  readonly otherwise: Block | IfExpr | null;
}

export interface MatchExpr extends NodeBase {
  readonly kind: "MatchExpr";
  readonly scrutinee: Expr;
  readonly arms: readonly MatchArm[];
}

export interface MatchArm extends NodeBase {
  readonly kind: "MatchArm";
  readonly pattern: Pattern;
  readonly body: Expr;
}

export interface Block extends NodeBase {
  readonly kind: "Block";
  readonly statements: readonly Statement[];
  /** The final expression without `;`, the block's value; null makes the block `Unit`. */
  readonly tail: Expr | null;
}

export interface ReturnExpr extends NodeBase {
  readonly kind: "ReturnExpr";
  readonly value: Expr | null;
}

export interface ParenExpr extends NodeBase {
  readonly kind: "ParenExpr";
  readonly inner: Expr;
}

// ---------------------------------------------------------------- statements

export type Statement = LetStmt | ExprStmt;

/** `let name: T = value;` or `let _ = value;`. */
export interface LetStmt extends NodeBase {
  readonly kind: "LetStmt";
  /** The binding; a `_` binding is a {@link WildcardPattern}. */
  readonly binding: NameDecl | WildcardPattern;
  readonly type: TypeExpr | null;
  readonly value: Expr;
}

/** An expression followed by `;` (or a block-like expression standing alone). */
export interface ExprStmt extends NodeBase {
  readonly kind: "ExprStmt";
  readonly expr: Expr;
}

// ---------------------------------------------------------------- patterns

export type Pattern =
  | WildcardPattern
  | BindingPattern
  | LiteralPattern
  | VariantPattern
  | ListPattern
  | ErrorNode;

export interface WildcardPattern extends NodeBase {
  readonly kind: "WildcardPattern";
}

/** A lower-case name binds; an upper-case one is a variant (see {@link VariantPattern}). */
export interface BindingPattern extends NodeBase {
  readonly kind: "BindingPattern";
  readonly name: NameDecl;
}

export interface LiteralPattern extends NodeBase {
  readonly kind: "LiteralPattern";
  /** A negative integer or float literal is written `-1`: the span includes the sign. */
  readonly literal: IntLit | FloatLit | StringLit | BoolLit | UnitLit;
}

/** `None`, `Some(x)`, `Shape.Circle(_, r)`, `shapes.Shape.Empty`. */
export interface VariantPattern extends NodeBase {
  readonly kind: "VariantPattern";
  /** The last segment is the variant; before it, optionally a module alias and the enum. */
  readonly path: readonly NameRef[];
  /** Null without parentheses. */
  readonly args: readonly Pattern[] | null;
}

/** `[]`, `[a, b]`, `[first, ..rest]`, `[x, .._]`, `[x, ..]`. */
export interface ListPattern extends NodeBase {
  readonly kind: "ListPattern";
  readonly elements: readonly Pattern[];
  /** The `..rest` at the end, if any. */
  readonly rest: RestPattern | null;
}

export interface RestPattern extends NodeBase {
  readonly kind: "RestPattern";
  /** `..name` binds the rest; `.._` and `..` do not. */
  readonly binding: NameDecl | null;
}

/** Every node kind, for exhaustive walks. */
export type Node =
  | SourceFile
  | Import
  | Item
  | Param
  | FieldDecl
  | VariantDecl
  | TypeExpr
  | Expr
  | FieldInit
  | MatchArm
  | Statement
  | Pattern
  | RestPattern
  | NameDecl
  | NameRef
  | DocComment;
