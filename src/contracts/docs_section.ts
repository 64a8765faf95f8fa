/**
 * nazm.docs-section/1: one section's own text, byte for byte
 * (docs/architecture.md §7.34).
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { defineOutputSchema, refusalSchema } from "./schema_kit.ts";
import { Compiler, Digest, Position } from "./common.ts";
import { Authority, SectionId } from "./docs_index.ts";

export const DocsSectionAnswer = z.strictObject({
  schema: z.literal("nazm.docs-section/1"),
  compiler: Compiler,
  id: SectionId,
  document: z.string().describe("the document id"),
  authority: Authority,
  title: z.string(),
  parent: z.string().nullable(),
  level: z.int().min(0).max(6),
  place: z.strictObject({
    file: z.string().describe("the document's path relative to the docs repository"),
    start: Position,
    end: Position,
  }).describe("where the text lies: from its heading line to the next heading"),
  text: z.string().describe(
    "the section's own text, byte for byte: its heading line up to its first subsection or the next heading",
  ),
  digest: Digest.describe("BLAKE3 of text's UTF-8 bytes"),
  state: Digest.describe("the corpus state the text belongs to"),
});

export const DOCS_SECTION_REASONS = [
  "stale_state",
  "not_found",
  "invalid_request",
  "manifest_unavailable",
  "manifest_invalid",
] as const;

export const DocsSectionRefusal = refusalSchema(DOCS_SECTION_REASONS, {
  id: z.string().describe("the id asked for"),
});

export const DocsSectionResult = z.union([DocsSectionAnswer, DocsSectionRefusal]);

/** The published schema/nazm.docs-section-1.json. */
export const DOCS_SECTION_SCHEMA = defineOutputSchema({
  file: "nazm.docs-section-1.json",
  title: "nazm.docs-section/1",
  description:
    "One section of Nazm's documentation: its own text byte for byte, with its document's authority, digest and the corpus state; or a refusal.",
  answer: DocsSectionAnswer,
  refusal: DocsSectionRefusal,
});

/** The arguments of nazm.docs_section. */
export const DocsSectionInput = z.strictObject({
  id: z.string().min(1).max(1024).describe(
    "an exact section id from nazm.docs_index, such as `specification/lexical-structure/comments`",
  ),
  state: z.string().max(128).describe("the state of the nazm.docs_index answer the id came from"),
});

export type DocsSectionAnswer = Frozen<z.infer<typeof DocsSectionAnswer>>;
export type DocsSectionReason = (typeof DOCS_SECTION_REASONS)[number];
export type DocsSectionInput = Frozen<z.infer<typeof DocsSectionInput>>;
