/**
 * The one diagnostic shape, shared by every layer that reports bad user
 * code (syntax, semantics) and serialized in one place for the CLI and the
 * server alike. Spans are byte ranges; files are source-root-relative paths.
 *
 * @module
 */
import type { Span } from "./span.ts";

export type Severity = "error" | "warning";

/** rustc's MachineApplicable is `automatic`; everything else is `needs_review`. */
export type Applicability = "automatic" | "needs_review";

/**
 * What must hold for a fix to be right, beyond its edits' expected bytes.
 * A closed set, so that an agent can act on it without reading prose.
 */
export type Precondition =
  /** Nothing beyond the expected bytes: safe to apply unread. */
  | { readonly kind: "none" }
  /** The suggested name is the one the author meant. */
  | { readonly kind: "intended_name"; readonly name: string }
  /** The imported definition is the one the author meant. */
  | { readonly kind: "intended_definition"; readonly key: string }
  /** Inserted code holds placeholders the author must replace. */
  | { readonly kind: "placeholders_to_complete"; readonly count: number }
  /** The removed code is truly unwanted (not merely unused now). */
  | { readonly kind: "removal_intended" };

/** One exact-byte replacement in one file. */
export interface TextEdit {
  readonly file: string;
  readonly span: Span;
  readonly replacement: string;
}

export interface Fix {
  readonly title: string;
  readonly applicability: Applicability;
  readonly precondition: Precondition;
  readonly edits: readonly TextEdit[];
}

export interface Label {
  readonly file: string;
  readonly span: Span;
  readonly message: string;
}

export interface Diagnostic {
  /** `N` and four digits, from the registry. */
  readonly code: string;
  readonly severity: Severity;
  /** A message that stands alone and does not suggest the fix. */
  readonly message: string;
  /** The primary place; null only for program-level diagnostics (missing main). */
  readonly file: string | null;
  readonly span: Span | null;
  readonly labels: readonly Label[];
  readonly help: string | null;
  readonly fixes: readonly Fix[];
}
