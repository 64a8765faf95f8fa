/**
 * nazm.patch/2: a planned rename or fix (docs/architecture.md §7.31).
 *
 * @module
 */
import { z } from "zod";
import { defineOutputSchema, refusalSchema } from "../schema_kit.ts";
import {
  Applicability,
  Compiler,
  DefinitionKey,
  Digest,
  Position,
  PositionArgument,
  Precondition,
} from "./common.ts";

export const PatchEdit = z.strictObject({
  file: z.string(),
  start: Position,
  end: Position,
  expected: z.string().describe("the exact text replaced; apply the edit only where it still is"),
  replacement: z.string(),
});

export const PatchAnswer = z.strictObject({
  schema: z.literal("nazm.patch/2"),
  compiler: Compiler,
  root: z.string(),
  operation: z.enum(["rename", "fix"]),
  target: z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("definition"),
      key: DefinitionKey,
      new_key: DefinitionKey,
      name: z.string(),
      new_name: z.string(),
    }),
    z.strictObject({
      kind: z.literal("local"),
      owner: DefinitionKey,
      name: z.string(),
      new_name: z.string(),
    }),
    z.strictObject({
      kind: z.literal("diagnostic"),
      id: z.string(),
      code: z.string(),
      fix: z.int().min(0),
      title: z.string(),
    }),
  ]),
  applicability: Applicability,
  precondition: Precondition,
  baseline: z.strictObject({
    snapshot: Digest.describe("BLAKE3 of the canonical nazm.snapshot/4 the plan was made on"),
  }),
  files: z.array(z.strictObject({ file: z.string(), digest: Digest })).describe(
    "each touched file with the BLAKE3 of its bytes when planned",
  ),
  edits: z.array(PatchEdit).describe("minimal, sorted by file then offset, not overlapping"),
});

export const PATCH_REASONS = [
  "exported_definition",
  "not_a_definition",
  "invalid_name",
  "name_conflict",
  "no_current_diagnostic",
  "syntax_diagnostic",
  "no_such_fix",
  "stale_state",
  "syntax_recovery",
  "file_not_in_compilation",
  "root_unreadable",
] as const;

export const PatchRefusal = refusalSchema(PATCH_REASONS, {
  file: z.string().optional(),
  position: PositionArgument.optional(),
  new_name: z.string().optional(),
  diagnostic: z.string().optional(),
  fix: z.int().optional(),
});

/** The published schema/nazm.patch-2.json. */
export const PATCH_SCHEMA = defineOutputSchema({
  file: "nazm.patch-2.json",
  title: "nazm.patch/2",
  description:
    "A planned rename or diagnostic fix: minimal exact-byte edits with three freshness layers (the snapshot digest, each file's digest, each edit's expected text), its applicability and precondition; never applied. Or why it cannot be planned.",
  answer: PatchAnswer,
  refusal: PatchRefusal,
});
