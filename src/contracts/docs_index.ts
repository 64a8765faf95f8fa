/**
 * nazm.docs-index/1: the documentation corpus by section, without text
 * (docs/architecture.md §7.34).
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { defineOutputSchema, refusalSchema } from "./schema_kit.ts";
import { Compiler, Digest } from "./common.ts";

/**
 * Whether a document the manifest lists can be read, and if not, why:
 * missing; unreadable; not UTF-8; over the size limit; not a regular file (a
 * FIFO, a device, a folder: never opened or waited on); a symbolic link that
 * does not lead to a file inside the repository (whatever exists where it
 * points). In published order.
 */
export const AVAILABILITIES = [
  "present",
  "missing",
  "unreadable",
  "not_utf8",
  "too_large",
  "not_regular",
  "link_outside",
] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/** How far a document may be trusted, from rule to wish. */
export const Authority = z.enum(["normative", "descriptive", "status", "planning", "aspiration"])
  .describe(
    "normative: a rule of the language; descriptive: how the implementation works; status: what exists now; planning: intended, not a rule; aspiration: a goal, never evidence of what exists",
  );

/** A section id: `<document id>` or `<document id>/<slug>/...`. */
export const SectionId = z.string().min(1).describe(
  "a stable section id, '<document>/<heading slug path>'; the root section's id is the document id",
);

export const DocsIndexSection = z.strictObject({
  id: SectionId,
  title: z.string().describe("the heading's text; the manifest's title for a root with no heading"),
  parent: z.string().nullable().describe("the enclosing section's id; null for the root section"),
  level: z.int().min(0).max(6).describe("the heading level; 0 for a root section with no heading"),
  digest: Digest.describe("BLAKE3 of the section's own text"),
  bytes: z.int().min(0).describe("the length of the section's own text in bytes"),
});

export const DocsIndexDocument = z.strictObject({
  id: z.string().describe("the document id, as the manifest names it"),
  title: z.string(),
  path: z.string().describe(
    "the file, relative to the docs repository (informative; never an argument)",
  ),
  authority: Authority,
  availability: z.enum(AVAILABILITIES).describe(
    "whether the file could be read as UTF-8 text; only a present document has sections. not_regular: a FIFO, device or folder, never opened; link_outside: a symbolic link that does not lead to a file inside the repository",
  ),
  digest: Digest.nullable().describe("BLAKE3 of the file's bytes; null unless present"),
  bytes: z.int().min(0),
  sections: z.array(DocsIndexSection).describe("root first, then in document order"),
});

export const DocsIndexAnswer = z.strictObject({
  schema: z.literal("nazm.docs-index/1"),
  compiler: Compiler,
  state: Digest.describe("the corpus state: pass it to nazm.docs_section"),
  documents: z.array(DocsIndexDocument).describe("in manifest order; only one when asked for one"),
});

export const DOCS_INDEX_REASONS = [
  "not_found",
  "manifest_unavailable",
  "manifest_invalid",
] as const;

export const DocsIndexRefusal = refusalSchema(DOCS_INDEX_REASONS, {
  document: z.string().optional().describe("the document asked for, if any"),
});

export const DocsIndexResult = z.union([DocsIndexAnswer, DocsIndexRefusal]);

/** The published schema/nazm.docs-index-1.json. */
export const DOCS_INDEX_SCHEMA = defineOutputSchema({
  file: "nazm.docs-index-1.json",
  title: "nazm.docs-index/1",
  description:
    "Nazm's documentation corpus: every document with its authority and every section's stable id, title, parent, level and digest, with no text, and the corpus state; or a refusal.",
  answer: DocsIndexAnswer,
  refusal: DocsIndexRefusal,
});

/** The arguments of nazm.docs_index. */
export const DocsIndexInput = z.strictObject({
  document: z.string().min(1).max(64).optional().describe(
    "a document id from the corpus (for example `specification`); omit for every document",
  ),
});

export type DocsIndexAnswer = Frozen<z.infer<typeof DocsIndexAnswer>>;
export type DocsIndexSection = Frozen<z.infer<typeof DocsIndexSection>>;
export type DocsIndexDocument = Frozen<z.infer<typeof DocsIndexDocument>>;
export type DocsIndexReason = (typeof DOCS_INDEX_REASONS)[number];
export type DocsIndexInput = Frozen<z.infer<typeof DocsIndexInput>>;
