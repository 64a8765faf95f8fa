/**
 * nazm.patch/2: a planned rename or fix (docs/architecture.md §7.31).
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { defineOutputSchema, refusalSchema } from "./schema_kit.ts";
import { SECTIONS } from "./plain.ts";
import {
  Applicability,
  Compiler,
  DefinitionKey,
  Digest,
  Place,
  Position,
  PositionArgument,
  Precondition,
  Severity,
} from "./common.ts";

export const PatchEdit = z.strictObject({
  file: z.string(),
  start: Position,
  end: Position,
  expected: z.string().describe("the exact text replaced; apply the edit only where it still is"),
  replacement: z.string(),
});

/** What a passing plan's answer says was checked before it was returned. */
export const Verification = z.strictObject({
  files_analysed: z.int().min(0).describe(
    "files of the edited compilation analysed (all of them: the analysis is not incremental)",
  ),
  files_edited: z.int().min(0),
  references_compared: z.int().min(0).describe(
    "resolved names compared at their places: outside the edited text, and each renamed name",
  ),
  diagnostics_compared: z.int().min(0).describe(
    "diagnostics of the compilation now, compared by code, severity, file and owner with the edited one's",
  ),
  definitions_compared: z.int().min(0).describe(
    "definitions whose facts were compared: every snapshot section but source after a rename; the shape of each definition a fix does not touch",
  ),
}).describe(
  "the plan's edits were applied in memory and the edited compilation analysed: it adds no diagnostic (a fix removes its own), every name resolves as before (the renamed one to the renamed thing), and no other fact changes",
);

/** What a name resolves to, in a would_change_meaning refusal. */
export const Resolution = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("definition"), key: DefinitionKey }),
  z.strictObject({
    kind: z.literal("local"),
    owner: DefinitionKey,
    name: z.string(),
    place: Place.describe("its declaration"),
  }),
  z.strictObject({ kind: z.literal("prelude"), name: z.string() }),
  z.strictObject({
    kind: z.literal("not_a_definition"),
    name: z.string().describe("a module alias or an unknown name"),
  }),
  z.strictObject({ kind: z.literal("nothing") }),
]);

/** The first thing a refused plan would break or change, with places in the files as they are. */
export const PlanProblem = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.enum(["adds_diagnostic", "keeps_diagnostic"]),
    code: z.string().regex(/^N\d{4}$/),
    severity: Severity,
    message: z.string(),
    place: Place.nullable().describe(
      "where it would be, mapped to the file as it is now; null for a program-level diagnostic or inside the text the plan writes",
    ),
  }),
  z.strictObject({
    kind: z.literal("rebinds_reference"),
    name: z.string(),
    place: Place,
    before: Resolution,
    after: Resolution,
  }),
  z.strictObject({
    kind: z.literal("changes_facts"),
    key: DefinitionKey,
    sections: z.array(z.enum(SECTIONS)).min(1),
  }),
]);

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
  verification: Verification,
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
  "would_break",
  "would_change_meaning",
] as const;

export const PatchRefusal = refusalSchema(PATCH_REASONS, {
  file: z.string().optional(),
  position: PositionArgument.optional(),
  new_name: z.string().optional(),
  diagnostic: z.string().optional(),
  fix: z.int().optional(),
  problem: PlanProblem.optional().describe(
    "for would_break and would_change_meaning: the first diagnostic the plan would add or keep, the first name it would re-bind, or the first definition whose facts would change",
  ),
});

/** The published schema/nazm.patch-2.json. */
export const PATCH_SCHEMA = defineOutputSchema({
  file: "nazm.patch-2.json",
  title: "nazm.patch/2",
  description:
    "A planned rename or diagnostic fix: minimal exact-byte edits with three freshness layers (the snapshot digest, each file's digest, each edit's expected text), its applicability and precondition, and what was verified before it was returned; never applied. Or why it cannot be planned, naming the first thing it would break or change.",
  answer: PatchAnswer,
  refusal: PatchRefusal,
});

const RENAME_FIELDS = ["file", "position", "new_name"] as const;
const FIX_FIELDS = ["diagnostic", "fix", "state"] as const;

/**
 * One object, typed per operation: a rename takes exactly file, position
 * and new_name; a fix exactly diagnostic, fix and state. Any other field, or
 * a field of the other operation, is a protocol error like a missing one.
 */
export const PatchInput = z.strictObject({
  operation: z.enum(["rename", "fix"]).describe(
    "rename: a private function, record or enum, or a local or parameter; fix: one of a diagnostic's fixes",
  ),
  file: z.string().min(1).max(4096).optional().describe(
    "rename: a file of the root's compilation, relative to the source root",
  ),
  position: PositionArgument.optional().describe(
    "rename: 1-based line and column on the name's declaration or a use",
  ),
  new_name: z.string().min(1).max(256).optional().describe("rename: the new identifier"),
  diagnostic: z.string().min(1).max(4096).optional().describe("fix: an id from nazm.diagnostics"),
  fix: z.int().min(0).max(1000).optional().describe(
    "fix: the index of the fix in nazm.diagnostic_detail",
  ),
  state: Digest.optional().describe(
    "fix: state.source of the nazm.diagnostics answer the id came from",
  ),
}).superRefine((value, ctx) => {
  const [wanted, other] = value.operation === "rename"
    ? [RENAME_FIELDS, FIX_FIELDS]
    : [FIX_FIELDS, RENAME_FIELDS];
  for (const field of wanted) {
    if (value[field] === undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: `${value.operation} needs ${field}` });
    }
  }
  for (const field of other) {
    if (value[field] !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `${value.operation} takes no ${field}`,
      });
    }
  }
});

export type PatchAnswer = Frozen<z.infer<typeof PatchAnswer>>;
export type PatchReason = (typeof PATCH_REASONS)[number];
export type PatchInput = Frozen<z.infer<typeof PatchInput>>;
