/**
 * nazm.diagnostic-index/2, nazm.diagnostic/2 and nazm.command-summary/1
 * (docs/architecture.md §7.32, §7.33).
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { defineOutputSchema, refusalSchema } from "./schema_kit.ts";
import {
  Applicability,
  Compiler,
  DefinitionKey,
  Digest,
  Place,
  Position,
  Precondition,
  Severity,
} from "./common.ts";

const Code = z.string().regex(/^N\d{4}$/);

export const FixCounts = z.strictObject({
  automatic: z.int().min(0),
  needs_review: z.int().min(0),
});

export const DiagnosticIndexAnswer = z.strictObject({
  schema: z.literal("nazm.diagnostic-index/2"),
  compiler: Compiler,
  root: z.string(),
  state: z.strictObject({ source: Digest }),
  diagnostics: z.array(z.strictObject({
    id: z.string(),
    code: Code,
    severity: Severity,
    file: z.string(),
    start: Position,
    end: Position,
    owner: DefinitionKey.nullable().describe("the definition whose declaration holds it"),
    fixes: FixCounts,
  })),
});

export const DiagnosticIndexRefusal = refusalSchema(["root_unreadable"]);

export const DIAGNOSTIC_INDEX_SCHEMA = defineOutputSchema({
  file: "nazm.diagnostic-index-2.json",
  title: "nazm.diagnostic-index/2",
  description:
    "Every current diagnostic of the root's compilation that has a place, compactly: id, code, severity, file and range, owning definition and fix counts, with no message text; and the source state the ids belong to.",
  answer: DiagnosticIndexAnswer,
  refusal: DiagnosticIndexRefusal,
});

export const FixRequest = z.strictObject({
  operation: z.literal("fix"),
  diagnostic: z.string(),
  fix: z.int().min(0),
  state: Digest,
});

export const DiagnosticAnswer = z.strictObject({
  schema: z.literal("nazm.diagnostic/2"),
  id: z.string().nullable(),
  code: Code,
  docs_section: z.string().regex(/^diagnostics\/[a-z0-9-]+\/n\d{4}$/).describe(
    "the id of the docs section that explains this code, for nazm.docs_section",
  ),
  severity: Severity,
  message: z.string(),
  place: Place.nullable(),
  labels: z.array(z.strictObject({ place: Place, message: z.string() })),
  help: z.string().nullable(),
  fixes: z.array(z.strictObject({
    title: z.string(),
    applicability: Applicability,
    precondition: Precondition,
    edits: z.array(z.strictObject({
      place: Place,
      expected: z.string(),
      replacement: z.string(),
    })),
    request: FixRequest.nullable().describe(
      "the nazm.semantic_patch arguments that plan this fix; null for a syntax fix",
    ),
  })),
  facts: z.literal("unavailable"),
});

export const DiagnosticRefusal = refusalSchema(["stale_state", "not_found", "root_unreadable"], {
  id: z.string().optional(),
  state: z.string().optional(),
});

export const DIAGNOSTIC_SCHEMA = defineOutputSchema({
  file: "nazm.diagnostic-2.json",
  title: "nazm.diagnostic/2",
  description:
    "One diagnostic in full, as nazm check --json prints it: code, the docs section that explains it, severity, message, places, labels, help, and each fix with its applicability, precondition, edits and the nazm.semantic_patch request that plans it.",
  answer: DiagnosticAnswer,
  refusal: DiagnosticRefusal,
});

/** A reference to a diagnostic, as the check summary (and the test and build summaries) list it. */
export const DiagnosticReference = z.strictObject({
  code: Code,
  severity: Severity,
  place: Place.nullable().describe("null for a program-level diagnostic such as a missing main"),
  fixes: FixCounts,
  id: z.string().nullable().describe(
    "the nazm.diagnostics id, or null where the index holds none",
  ),
});

export const CommandSummaryAnswer = z.strictObject({
  schema: z.literal("nazm.command-summary/1"),
  command: z.literal("check"),
  compiler: Compiler,
  root: z.string(),
  status: z.enum(["ok", "failed"]),
  exit_status: z.union([z.literal(0), z.literal(1)]),
  errors: z.int().min(0),
  warnings: z.int().min(0),
  diagnostics: z.array(DiagnosticReference),
});

export const CommandSummaryRefusal = refusalSchema(["root_unreadable"]);

export const COMMAND_SUMMARY_SCHEMA = defineOutputSchema({
  file: "nazm.command-summary-1.json",
  title: "nazm.command-summary/1",
  description:
    "What nazm check concludes for the root as it is on disk now: status, exit status, counts, and a reference to every diagnostic, program-level ones included. No prose.",
  answer: CommandSummaryAnswer,
  refusal: CommandSummaryRefusal,
});

/** The arguments of nazm.command_summary. */
export const CommandSummaryInput = z.strictObject({});

/** The arguments of nazm.diagnostic_detail. */
export const DiagnosticDetailInput = z.strictObject({
  id: z.string().min(1).max(4096).describe("a diagnostic id from nazm.diagnostics"),
  state: Digest.describe("state.source of the nazm.diagnostics answer the id came from"),
});

/** The arguments of nazm.diagnostics. */
export const DiagnosticsInput = z.strictObject({});

export type DiagnosticIndexAnswer = Frozen<z.infer<typeof DiagnosticIndexAnswer>>;
export type DiagnosticIndexReason = Frozen<z.infer<typeof DiagnosticIndexRefusal>>["reason"];
export type DiagnosticAnswer = Frozen<z.infer<typeof DiagnosticAnswer>>;
export type DiagnosticReason = Frozen<z.infer<typeof DiagnosticRefusal>>["reason"];
export type CommandSummaryAnswer = Frozen<z.infer<typeof CommandSummaryAnswer>>;
export type CommandSummaryReason = Frozen<z.infer<typeof CommandSummaryRefusal>>["reason"];
export type FixCounts = Frozen<z.infer<typeof FixCounts>>;
export type FixRequest = Frozen<z.infer<typeof FixRequest>>;
export type DiagnosticDetailInput = Frozen<z.infer<typeof DiagnosticDetailInput>>;
