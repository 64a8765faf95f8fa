/**
 * nazm.snapshot/4 and nazm.delta/2 (docs/architecture.md §7.30).
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { SECTIONS } from "./plain.ts";
import { defineOutputSchema, refusalSchema } from "./schema_kit.ts";
import { Compiler, DefinitionKey, DefinitionKind, Digest, Unsupported } from "./common.ts";

/** What can be wrong with a baseline, in the order they are looked for. */
export const BASELINE_PROBLEMS = [
  "not_a_snapshot",
  "other_root",
  "other_compiler",
  "unknown_field",
  "malformed_key",
  "duplicate_key",
  "bad_digest",
  "too_large",
] as const;

export const Section = z.enum(SECTIONS);

export const SnapshotDefinition = z.strictObject({
  kind: DefinitionKind,
  name: z.string(),
  module: z.string(),
  digests: z.strictObject(
    Object.fromEntries(SECTIONS.map((s) => [s, Digest])) as Record<
      (typeof SECTIONS)[number],
      typeof Digest
    >,
  ),
});

/** Which root a snapshot or delta is of: more than its module name, which programs share. */
export const RootIdentity = z.strictObject({
  module: z.string().describe("the root module's path, e.g. main"),
  file: z.string().describe("the root file, relative to the source root, '/' separators"),
  source_root: Digest.describe(
    "BLAKE3 of the source root's absolute real path: the same program in the same place",
  ),
}).describe("the root: another program, even with a root module of the same name, differs");

export const Snapshot = z.strictObject({
  schema: z.literal("nazm.snapshot/4"),
  root: RootIdentity,
  compiler: Compiler,
  definitions: z.record(DefinitionKey, SnapshotDefinition),
  unsupported: Unsupported,
});

export const SnapshotRefusal = refusalSchema(["syntax_recovery", "root_unreadable"]);

export const SnapshotResult = z.union([Snapshot, SnapshotRefusal]);

/** The published schema/nazm.snapshot-4.json. */
export const SNAPSHOT_SCHEMA = defineOutputSchema({
  file: "nazm.snapshot-4.json",
  title: "nazm.snapshot/4",
  description:
    "Every durable function, record and enum of the root's compilation by key, with one digest per section the compiler records; or why there is none. Keep it and pass it back to nazm.semantic_delta.",
  answer: Snapshot,
  refusal: SnapshotRefusal,
});

export const Delta = z.strictObject({
  schema: z.literal("nazm.delta/2"),
  root: RootIdentity,
  compiler: Compiler,
  baseline: Digest.describe("BLAKE3 of the baseline's canonical JSON"),
  current: Digest.describe("BLAKE3 of the current snapshot's canonical JSON"),
  added: z.array(DefinitionKey),
  removed: z.array(DefinitionKey),
  changed: z.array(z.strictObject({ key: DefinitionKey, sections: z.array(Section).min(1) })),
  unsupported: Unsupported,
});

export const DeltaRefusal = refusalSchema([
  "invalid_baseline",
  "syntax_recovery",
  "root_unreadable",
], {
  problem: z.enum(BASELINE_PROBLEMS).optional().describe(
    "for invalid_baseline: what is wrong with it",
  ),
  path: z.string().optional().describe("for invalid_baseline: where in the baseline"),
});

export const DeltaResult = z.union([Delta, DeltaRefusal]);

/** The published schema/nazm.delta-2.json. */
export const DELTA_SCHEMA = defineOutputSchema({
  file: "nazm.delta-2.json",
  title: "nazm.delta/2",
  description:
    "What changed between a baseline nazm.snapshot/4 and the root's compilation now: definitions added, removed, and changed with the sections that changed; or why the baseline is refused.",
  answer: Delta,
  refusal: DeltaRefusal,
});

export type Snapshot = Frozen<z.infer<typeof Snapshot>>;
export type Delta = Frozen<z.infer<typeof Delta>>;
export type Section = Frozen<z.infer<typeof Section>>;

/** The arguments of nazm.semantic_delta. */
export const DeltaInput = z.strictObject({
  baseline: z.unknown().refine((value) => value !== undefined, "baseline is required")
    .describe("a nazm.snapshot/4 object exactly as nazm.semantic_snapshot returned it"),
});

/** The arguments of nazm.semantic_snapshot. */
export const SnapshotInput = z.strictObject({});

export type SnapshotReason = Frozen<z.infer<typeof SnapshotRefusal>>["reason"];
export type DeltaReason = Frozen<z.infer<typeof DeltaRefusal>>["reason"];
export type SnapshotDefinition = Frozen<z.infer<typeof SnapshotDefinition>>;
export type RootIdentity = Frozen<z.infer<typeof RootIdentity>>;
