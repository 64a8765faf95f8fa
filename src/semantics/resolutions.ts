/**
 * What the checker concluded about the expressions and patterns a back end
 * lowers: what each name and path in value position denotes, which variant
 * a pattern names, which record a literal builds, and the operand type of
 * each operator. Recorded only when a caller asks (`LoadOptions.resolve`),
 * so `nazm check` and the server never pay for it. A side table keyed by
 * syntax node: the tree itself is never touched.
 *
 * @module
 */
import type {
  BinaryExpr,
  FieldExpr,
  NameDecl,
  NameRef,
  RecordLit,
  UnaryExpr,
  VariantPattern,
} from "../syntax/mod.ts";
import type { Type } from "./types.ts";

/** What a name (`x`, `area`, `Some`) or a path (`shapes.area`, `Shape.Circle`, `p.x`) denotes. */
export type ValueResolution =
  /** A parameter, `let` or pattern binding, by its declaration. */
  | { readonly kind: "local"; readonly decl: NameDecl }
  /** A top-level function, by key. */
  | { readonly kind: "function"; readonly key: string }
  /** A prelude function, by name. */
  | { readonly kind: "prelude"; readonly name: string }
  /** An enum variant: the enum's key (`Option` and `Result` for the prelude's) and its index. */
  | { readonly kind: "variant"; readonly enumKey: string; readonly index: number }
  /** A record field read: the record's key and the field's index. */
  | { readonly kind: "field"; readonly recordKey: string; readonly index: number };

/** The enum and variant a pattern names. */
export interface VariantResolution {
  readonly enumKey: string;
  readonly index: number;
}

/** The side tables, filled while checking bodies (tests included). */
export interface Resolutions {
  /** Keyed by the `NameRef` of a bare name (and of a `{ x }` field shorthand), or the `FieldExpr` of a path. */
  readonly values: Map<NameRef | FieldExpr, ValueResolution>;
  readonly variants: Map<VariantPattern, VariantResolution>;
  /** A record literal's record key. */
  readonly records: Map<RecordLit, string>;
  /**
   * The operands' type of a binary operator (its left operand's) or of a
   * unary minus, with every inference variable the body bound replaced.
   */
  readonly operands: Map<BinaryExpr | UnaryExpr, Type>;
  /** The inferred type of each `let` name written without a type, zonked: what an editor shows. */
  readonly lets: Map<NameDecl, Type>;
  /** The type of each name a pattern binds (`Some(n)`, `[h, ..rest]`), zonked: what a hover shows. */
  readonly patterns: Map<NameDecl, Type>;
}

/** Empty tables. */
export function newResolutions(): Resolutions {
  return {
    values: new Map(),
    variants: new Map(),
    records: new Map(),
    operands: new Map(),
    lets: new Map(),
    patterns: new Map(),
  };
}
