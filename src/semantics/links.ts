/**
 * What the checker computes, kept in side tables keyed by definition (as
 * typescript-go's `links`): the binder's {@link DefInfo} is complete when
 * binding ends and is never filled in later; the checker's tables are
 * complete when checking ends.
 *
 * @module
 */
import type { NameDecl } from "../syntax/mod.ts";
import type { Span } from "../base/mod.ts";
import type { DefInfo } from "./binder.ts";
import type { Resolutions } from "./resolutions.ts";
import type { TParam, Type } from "./types.ts";

/** How a checked definition refers to another, at one occurrence. */
export type RefRole = "call" | "use" | "type";

export interface Ref {
  readonly key: string;
  readonly role: RefRole;
  readonly file: string;
  readonly span: Span;
}

export interface FieldInfo {
  readonly name: string;
  readonly type: Type;
  readonly decl: NameDecl | null;
}

export interface VariantInfo {
  readonly name: string;
  readonly payload: readonly Type[];
  readonly decl: NameDecl | null;
}

/**
 * A definition's type: its type parameters and, by kind, its parameters and
 * result, its fields, or its variants (empty for the other kinds).
 */
export interface Signature {
  readonly typeParams: readonly TParam[];
  readonly params: readonly { readonly name: string; readonly type: Type }[];
  readonly result: Type;
  readonly fields: readonly FieldInfo[];
  readonly fieldIndex: ReadonlyMap<string, number>;
  readonly variants: readonly VariantInfo[];
  readonly variantIndex: ReadonlyMap<string, number>;
}

/** Every reference made from inside one definition (its signature and body). */
export interface DefReferences {
  /** To other durable definitions (never the prelude). */
  readonly refs: Ref[];
  /** To the definition's own type parameters. */
  readonly typeParamRefs: { readonly name: string; readonly span: Span }[];
  /**
   * Every other one-segment name in a type position (signature, `let`
   * annotation, record literal head): a record or enum (its key), a prelude
   * type or an unknown name (null). A type parameter of that name would
   * capture it, so renames look at these.
   */
  readonly typeNames: { readonly name: string; readonly span: Span; readonly key: string | null }[];
}

export type BindingKind = "parameter" | "let" | "pattern" | "type_parameter";

/** A local name inside one definition, with every reference to it. */
export interface BindingInfo {
  readonly name: string;
  readonly kind: BindingKind;
  readonly declSpan: Span;
  /** The scope the binding is declared in. */
  readonly scope: number;
  readonly references: { readonly span: Span; readonly scope: number }[];
}

/** A lexical scope of one definition; scope 0 is the definition itself. */
export interface ScopeInfo {
  readonly id: number;
  readonly parent: number | null;
  readonly span: Span;
}

/** A name in the body that resolved to something other than a local. */
export interface OuterName {
  readonly name: string;
  readonly span: Span;
  readonly scope: number;
  /** The definition key, or null for the prelude, a module alias or an error. */
  readonly key: string | null;
  /**
   * `value`: a name in an expression or pattern, which a local of that name
   * would capture; `type`: a name in a type, which a type parameter would.
   */
  readonly namespace: "value" | "type";
}

/** The locals, scopes and outer names of one function or test body. */
export interface BodyInfo {
  readonly bindings: BindingInfo[];
  readonly scopes: ScopeInfo[];
  readonly outerNames: OuterName[];
}

/** The checker's output: complete when checking ends. */
/** A side table of the checker, read one definition at a time. */
export interface DefTable<V> {
  get(def: DefInfo): V | undefined;
}

export interface CheckResult {
  /** Every definition's signature, duplicates and tests included. */
  readonly signatures: DefTable<Signature>;
  /** Every definition's references, duplicates and tests included. */
  readonly references: DefTable<DefReferences>;
  /** Every function's and test's body. */
  readonly bodies: DefTable<BodyInfo>;
  /** Private definitions named from another module (N0203): not reported unused as well. */
  readonly namedFromOutside: ReadonlySet<DefInfo>;
  /** Filled only when asked for (a back end's needs); null otherwise. */
  readonly resolutions: Resolutions | null;
}
