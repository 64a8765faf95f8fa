/**
 * nazm.task-context/1: the minimum context for a task, one relationship
 * step from its seeds (docs/architecture.md §7.35).
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { defineOutputSchema, refusalSchema } from "./schema_kit.ts";
import { Compiler, Digest } from "./common.ts";
import { EntityAuthority, MapKind, Retrieve } from "./repository_map.ts";

/** Priority classes, most important first. */
export const PRIORITIES = ["seed", "required", "related", "background"] as const;
export const Priority = z.enum(PRIORITIES);

/** What the task is; `edit` is the default and the widest. */
export const INTENTS = ["understand", "edit", "diagnose", "test"] as const;
export type Intent = (typeof INTENTS)[number];
export const Intent = z.enum(INTENTS);

/** Why an item is in the context: the seed itself, a relation either way, or containment. */
export const ITEM_REASONS = [
  "seed",
  "depends_on",
  "runs",
  "imports",
  "calls",
  "uses",
  "types",
  "reports",
  "documented_by",
  "generated_by",
  "changes",
  "checked_by",
  "depended_on_by",
  "run_by",
  "imported_by",
  "called_by",
  "used_by",
  "type_used_by",
  "reported_in",
  "documents",
  "generates",
  "changed_by",
  "checks",
  "parent",
  "child",
] as const;
export type ItemReason = (typeof ITEM_REASONS)[number];

export const ItemReason = z.enum(ITEM_REASONS);

export const ContextItem = z.strictObject({
  id: z.string(),
  kind: MapKind,
  name: z.string(),
  reason: ItemReason.describe(
    "seed; a relation (calls, uses, types, imports, ...) or its inverse (called_by, used_by, ...); parent or child",
  ),
  seed: z.string().describe("the seed it was reached from"),
  priority: Priority,
  authority: EntityAuthority,
  retrieve: Retrieve,
  content: z.strictObject({
    format: z.enum(["source", "shape", "text", "outline", "summary"]),
    text: z.string(),
  }).describe(
    "source: a seed's exact bytes; shape: a definition's signature; text: a section's exact text; outline: signatures or section ids; summary: the manifest's words",
  ),
  bytes: z.int().min(0).describe("UTF-8 length of content.text"),
});

export const TaskContextAnswer = z.strictObject({
  schema: z.literal("nazm.task-context/1"),
  compiler: Compiler,
  state: Digest,
  intent: Intent,
  seeds: z.array(z.string()).min(1).max(8),
  budget: z.strictObject({
    max_items: z.int().min(1).nullable(),
    max_bytes: z.int().min(0).nullable(),
  }),
  used: z.strictObject({ items: z.int().min(0), bytes: z.int().min(0) }),
  partial: z.boolean().describe("true when the budget cut anything"),
  items: z.array(ContextItem).describe("seeds first, then by priority, seed, reason, id"),
  cut: z.array(z.strictObject({
    id: z.string(),
    seed: z.string(),
    reason: ItemReason,
    priority: Priority,
    bytes: z.int().min(0),
    limit: z.enum(["max_items", "max_bytes"]),
  })).describe("what the budget left out, in the order it would have come"),
});

export const TASK_CONTEXT_REASONS = [
  "stale_state",
  "invalid_request",
  "insufficient_budget",
  "manifest_unavailable",
  "manifest_invalid",
] as const;

export const TaskContextRefusal = refusalSchema(TASK_CONTEXT_REASONS, {
  seeds: z.array(z.string()).describe("the seeds asked for"),
});

/** The published schema/nazm.task-context-1.json. */
export const TASK_CONTEXT_SCHEMA = defineOutputSchema({
  file: "nazm.task-context-1.json",
  title: "nazm.task-context/1",
  description:
    "The minimum context for a task in the Nazm repository: the seeds and every entity one relationship step away that the intent calls for, each with its reason, seed, priority, authority, retrieval and content, and what the budget cut; or a refusal.",
  answer: TaskContextAnswer,
  refusal: TaskContextRefusal,
});

/** The arguments of nazm.task_context. */
export const TaskContextInput = z.strictObject({
  seeds: z.array(z.string().min(1).max(1024)).max(1000).describe(
    "1 to 8 entity ids from nazm.repository_map, such as `definition:shapes/geometry.shapes::area`",
  ),
  state: z.string().max(128).describe("the state of the nazm.repository_map answer"),
  intent: z.enum(INTENTS).optional().describe("understand, edit (default), diagnose or test"),
  budget: z.strictObject({
    max_items: z.int().min(1).max(1_000_000).optional(),
    max_bytes: z.int().min(0).max(1_000_000_000).optional(),
  }).optional().describe("structural limits on the answer: items, and bytes of content"),
});

export type TaskContextAnswer = Frozen<z.infer<typeof TaskContextAnswer>>;
export type TaskContextReason = (typeof TASK_CONTEXT_REASONS)[number];
export type TaskContextInput = Frozen<z.infer<typeof TaskContextInput>>;
export type ContextItem = Frozen<z.infer<typeof ContextItem>>;
export type Priority = Frozen<z.infer<typeof Priority>>;
