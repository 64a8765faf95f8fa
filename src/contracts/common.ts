/**
 * Shapes every published schema shares: places, digests, states, refusals.
 * One definition each, so every answer uses the same place shape.
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { DEFINITION_KEY, UNSUPPORTED } from "./plain.ts";

/** Lowercase hex BLAKE3-256. */
export const Digest = z.string().regex(/^[0-9a-f]{64}$/).describe(
  "BLAKE3-256, lowercase hex",
);

/** A definition key: `module.path::name`, `#2`, `#3`, … after a duplicate's name (N0204). */
export const DefinitionKey = z.string().regex(DEFINITION_KEY).describe(
  "a durable definition's key, module.path::name; a second or later definition of a name its module already defines is module.path::name#2, #3, …",
);

/** The key of an exported definition a fix intends: never a duplicate's. */
export const ExportedDefinitionKey = z.string().regex(
  /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*::[A-Za-z_][A-Za-z0-9_]*$/,
).describe("a durable definition's key, module.path::name");

export const DefinitionKind = z.enum(["function", "record", "enum"]);

export const Position = z.strictObject({
  offset: z.int().min(0).describe("byte offset in the file"),
  line: z.int().min(1).describe("1-based line"),
  column: z.int().min(1).describe("1-based column, in Unicode characters"),
});

/** The one place shape of every answer. */
export const Place = z.strictObject({
  file: z.string().describe("path relative to the source root, '/' separators"),
  start: Position,
  end: Position,
});

/** A position argument: 1-based line and character column. */
export const PositionArgument = z.strictObject({
  line: z.int().min(1).max(2 ** 31),
  column: z.int().min(1).max(2 ** 31),
});

export const Severity = z.enum(["error", "warning"]);
export const Applicability = z.enum(["automatic", "needs_review"]);

export const Precondition = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("none") }),
  z.strictObject({ kind: z.literal("intended_name"), name: z.string() }),
  z.strictObject({ kind: z.literal("intended_definition"), key: ExportedDefinitionKey }),
  z.strictObject({ kind: z.literal("placeholders_to_complete"), count: z.int().min(1) }),
  z.strictObject({ kind: z.literal("removal_intended") }),
]);

export const Unsupported = z.array(z.enum(UNSUPPORTED));

/** The compiler that produced an answer: `nazm <version>`. */
export const Compiler = z.string().regex(/^nazm \d+\.\d+\.\d+/);

export type Place = Frozen<z.infer<typeof Place>>;
export type PositionArgument = Frozen<z.infer<typeof PositionArgument>>;
