/**
 * nazm.context/4: the compiler's semantic context packet for one durable
 * definition (docs/architecture.md §7.29).
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { defineOutputSchema, refusalSchema } from "./schema_kit.ts";
import {
  Compiler,
  DefinitionKey,
  DefinitionKind,
  Digest,
  Place,
  PositionArgument,
  Severity,
  Unsupported,
} from "./common.ts";

/** A compact link to a source-linked definition: follow it by asking at `place`. */
export const Link = z.strictObject({
  key: DefinitionKey,
  kind: DefinitionKind,
  name: z.string(),
  place: Place.describe("the linked definition's name in its declaration"),
});

export const DiagnosticRef = z.strictObject({
  id: z.string().describe("the id nazm.diagnostic_detail answers, with state.source"),
  code: z.string().regex(/^N\d{4}$/),
  severity: Severity,
  place: Place,
});

export const ContextPacket = z.strictObject({
  schema: z.literal("nazm.context/4"),
  status: z.literal("ok"),
  compiler: Compiler,
  root: z.string().describe("the root module's path"),
  state: z.strictObject({ source: Digest }),
  target: z.strictObject({
    key: DefinitionKey,
    kind: DefinitionKind,
    name: z.string(),
    module: z.string(),
    exported: z.boolean(),
    place: Place.describe("the whole declaration, doc comment included"),
    name_place: Place,
    signature: z.string(),
    doc: z.string().nullable(),
    source: z.string().describe("the declaration's exact text, doc comment included"),
  }),
  uses: z.array(Link).describe("definitions it refers to without calling them"),
  types: z.array(Link).describe("records and enums its signature and body name as types"),
  used_by: z.array(Link).describe("definitions that refer to it without calling it"),
  calls: z.array(Link).describe("functions it calls"),
  called_by: z.array(Link).describe("definitions that call it"),
  diagnostics: z.array(DiagnosticRef).describe("diagnostics whose primary place is inside it"),
  unsupported: Unsupported,
});

export const ContextRefusal = refusalSchema([
  "no_definition",
  "file_not_in_compilation",
  "syntax_recovery",
  "root_unreadable",
], { file: z.string(), position: PositionArgument });

export const ContextResult = z.union([ContextPacket, ContextRefusal]);

/** The published schema/nazm.context-4.json. */
export const CONTEXT_SCHEMA = defineOutputSchema({
  file: "nazm.context-4.json",
  title: "nazm.context/4",
  description:
    "The compiler's semantic context packet for one function, record or enum: its identity, exact source, compact links to what it uses, the types it names, what uses it, what it calls and what calls it, and its diagnostics; or why there is none.",
  answer: ContextPacket,
  refusal: ContextRefusal,
});

export type ContextPacket = Frozen<z.infer<typeof ContextPacket>>;
export type ContextRefusal = Frozen<z.infer<typeof ContextRefusal>>;
export type Link = Frozen<z.infer<typeof Link>>;

/** The arguments of nazm.semantic_context. */
export const ContextInput = z.strictObject({
  file: z.string().min(1).max(4096).describe(
    "a file of the root's compilation: its path relative to the source root, such as `geometry/shapes.nz`, or the same file's absolute path",
  ),
  position: PositionArgument.describe(
    "1-based line and column (in characters) on a use of a definition, or anywhere on its declaration",
  ),
});

export type ContextInput = Frozen<z.infer<typeof ContextInput>>;
export type ContextReason = ContextRefusal["reason"];
