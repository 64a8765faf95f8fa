/**
 * The minimum context for a task: from one to eight seeds of the repository
 * map, every entity one relationship step away that the intent calls for,
 * each with why it is there, which seed it came from, a priority class, its
 * authority, how to retrieve it again, and its content — cut to a budget.
 *
 * @module
 */
import { COMPILER, isDigest } from "../base/mod.ts";
import {
  answer,
  type ContextItem,
  type Intent,
  ITEM_REASONS,
  type ItemReason,
  MAP_KINDS,
  type MapEntity,
  type MapKind,
  type Outcome,
  PRIORITIES,
  type Priority,
  refuse as refusal,
  type RelationKind,
  type TaskContextAnswer,
  type TaskContextInput,
  type TaskContextReason,
} from "../contracts/mod.ts";
import { sectionText } from "../docs/mod.ts";
import {
  type EntitySource,
  loadRepository,
  type RepoReadOptions,
  type RepositoryModel,
} from "./map.ts";

/** At most this many seeds. */
export const MAX_SEEDS = 8;

/** The inverse name of each relation, as a reason seen from its target. */
export const INVERSE: Readonly<Record<RelationKind, ItemReason>> = {
  depends_on: "depended_on_by",
  runs: "run_by",
  imports: "imported_by",
  calls: "called_by",
  uses: "used_by",
  types: "type_used_by",
  reports: "reported_in",
  documented_by: "documents",
  generated_by: "generates",
  changes: "changed_by",
  checked_by: "checks",
};

/** An item the budget left out, and the limit it did not fit. */
export type CutItem = TaskContextAnswer["cut"][number];

/** Structural limits on the answer. */
export type Budget = NonNullable<TaskContextInput["budget"]>;

export interface TaskContextRequest extends RepoReadOptions {
  readonly seeds: readonly string[];
  readonly state: string;
  readonly intent?: Intent;
  readonly budget?: Budget;
}

const SEED_FORM = new RegExp(`^(${MAP_KINDS.join("|")}):[^\\s\\u0000]+$`);
const encoder = new TextEncoder();

/**
 * The smallest context the repository can justify for a task, one
 * relationship step from each seed. See docs/architecture.md §7.35.
 */
export function taskContext(
  docsRoot: string,
  request: TaskContextRequest,
): Outcome<TaskContextAnswer, TaskContextReason> {
  const seeds = request.seeds;
  const refuse = (
    reason: TaskContextReason,
    message: string,
    status: "refused" | "unavailable" = "refused",
  ) => refusal(status, reason, message, { seeds: [...seeds] });

  // Checked before anything is read: a seed is an id of the map, never a path.
  if (seeds.length < 1 || seeds.length > MAX_SEEDS) {
    return refuse("invalid_request", `seeds holds ${seeds.length} ids; it takes 1 to ${MAX_SEEDS}`);
  }
  for (const seed of seeds) {
    if (!SEED_FORM.test(seed)) {
      return refuse(
        "invalid_request",
        `The seed ${JSON.stringify(seed)} is not an id of the repository map ('<kind>:<id>')`,
      );
    }
  }
  if (new Set(seeds).size !== seeds.length) {
    return refuse("invalid_request", "A seed is given twice");
  }
  if (!isDigest(request.state)) {
    return refuse(
      "invalid_request",
      "The state must be the 64-digit lowercase hex state of a nazm.repository_map answer",
    );
  }
  const budget = request.budget ?? {};
  for (const [name, value] of Object.entries(budget)) {
    if (
      value !== undefined &&
      (!Number.isSafeInteger(value) || value < (name === "max_items" ? 1 : 0))
    ) {
      return refuse(
        "invalid_request",
        `budget.${name} must be a whole number of at least ${name === "max_items" ? 1 : 0}`,
      );
    }
  }

  const model = loadRepository(docsRoot, request);
  if (model.kind === "refusal") {
    return refuse(model.value.reason, model.value.message, "unavailable");
  }
  return contextOf(model.value, request);
}

/** The context of checked seeds in a loaded model: stale state, unknown seed, then the budget. */
function contextOf(
  model: RepositoryModel,
  request: TaskContextRequest,
): Outcome<TaskContextAnswer, TaskContextReason> {
  const seeds = request.seeds;
  const budget = request.budget ?? {};
  const refuse = (reason: TaskContextReason, message: string) =>
    refusal("refused", reason, message, { seeds: [...seeds] });
  if (model.map.state !== request.state) {
    return refuse(
      "stale_state",
      "The repository has changed since that state; ask nazm.repository_map for a fresh one",
    );
  }
  for (const seed of seeds) {
    if (!model.byId.has(seed)) {
      return refuse(
        "invalid_request",
        `No entity of the repository map has the id ${JSON.stringify(seed)}`,
      );
    }
  }

  const intent = request.intent ?? "edit";
  const candidates = gather(model, seeds, intent);

  const maxItems = budget.max_items ?? null;
  const maxBytes = budget.max_bytes ?? null;
  const seedItems = candidates.filter((c) => c.priority === "seed");
  const seedBytes = seedItems.reduce((n, c) => n + c.bytes, 0);
  if (
    (maxItems !== null && seedItems.length > maxItems) ||
    (maxBytes !== null && seedBytes > maxBytes)
  ) {
    return refuse(
      "insufficient_budget",
      `The seeds alone need ${seedItems.length} items and ${seedBytes} bytes, more than the budget allows`,
    );
  }

  const items: ContextItem[] = [];
  const cut: CutItem[] = [];
  let bytes = 0;
  for (const candidate of candidates) {
    const limit = maxItems !== null && items.length + 1 > maxItems
      ? "max_items"
      : maxBytes !== null && bytes + candidate.bytes > maxBytes
      ? "max_bytes"
      : null;
    if (limit === null) {
      items.push(candidate);
      bytes += candidate.bytes;
    } else {
      const { id, seed, reason, priority } = candidate;
      cut.push({ id, seed, reason, priority, bytes: candidate.bytes, limit });
    }
  }
  return answer({
    schema: "nazm.task-context/1",
    compiler: COMPILER,
    state: model.map.state,
    intent,
    seeds: [...seeds],
    budget: { max_items: maxItems, max_bytes: maxBytes },
    used: { items: items.length, bytes },
    partial: cut.length > 0,
    items,
    cut,
  });
}

interface Step {
  readonly id: string;
  readonly reason: ItemReason;
  /** Forward relation, its inverse, or containment. */
  readonly direction: "forward" | "inverse" | "parent" | "child";
}

/** Every entity one step from `id`: its relations both ways, its parent, its children. */
function steps(
  model: RepositoryModel,
  inverse: Map<string, Step[]>,
  children: Map<string, string[]>,
  id: string,
): Step[] {
  const entity = model.byId.get(id)!;
  const out: Step[] = entity.relations.map((r) => ({
    id: r.to,
    reason: r.kind,
    direction: "forward" as const,
  }));
  out.push(...(inverse.get(id) ?? []));
  if (entity.parent !== null) {
    out.push({ id: entity.parent, reason: "parent", direction: "parent" });
  }
  for (const child of children.get(id) ?? []) {
    out.push({ id: child, reason: "child", direction: "child" });
  }
  return out;
}

/**
 * The priority of a step for an intent, or null when the intent leaves it
 * out. `edit` takes every step; `understand` leaves out what depends on the
 * seed (callers, importers, profiles that change it); `diagnose` keeps what
 * the seed depends on and its parent; `test` puts what exercises the seed
 * first and leaves out children.
 */
function priorityOf(intent: Intent, seedKind: MapKind, step: Step): Priority | null {
  const code = seedKind === "definition" || seedKind === "module";
  switch (step.direction) {
    case "forward":
      if (intent === "test" && code) return "related";
      return "required";
    case "inverse":
      if (intent === "diagnose") return null;
      if (intent === "understand" && (code || step.reason === "changed_by")) return null;
      if (intent === "test") return "required";
      if (intent === "edit" && code) return "required";
      return step.reason === "changed_by" ? "required" : "related";
    case "parent":
      return seedKind === "section" || seedKind === "compilation_root" ? "related" : "background";
    case "child":
      if (intent === "diagnose" || intent === "test") return null;
      return seedKind === "compilation_root" ? "required" : "related";
  }
}

interface Candidate extends ContextItem {
  readonly order: readonly number[];
}

function gather(model: RepositoryModel, seeds: readonly string[], intent: Intent): ContextItem[] {
  const inverse = new Map<string, Step[]>();
  const children = new Map<string, string[]>();
  for (const entity of model.map.entities) {
    for (const r of entity.relations) {
      const list = inverse.get(r.to) ?? [];
      list.push({ id: entity.id, reason: INVERSE[r.kind], direction: "inverse" });
      inverse.set(r.to, list);
    }
    if (entity.parent !== null) {
      const list = children.get(entity.parent) ?? [];
      list.push(entity.id);
      children.set(entity.parent, list);
    }
  }
  const priorityRank = new Map(PRIORITIES.map((p, i) => [p, i]));
  const reasonRank = new Map<string, number>(ITEM_REASONS.map((r, i) => [r, i]));
  const chosen = new Map<string, Candidate>();
  const consider = (candidate: Candidate) => {
    const existing = chosen.get(candidate.id);
    if (existing === undefined || compareOrder(candidate.order, existing.order) < 0) {
      chosen.set(candidate.id, candidate);
    }
  };
  seeds.forEach((seed, seedIndex) => {
    consider(item(model, seed, seed, "seed", "seed", [0, seedIndex]));
  });
  seeds.forEach((seed, seedIndex) => {
    const seedKind = model.byId.get(seed)!.kind;
    for (const step of steps(model, inverse, children, seed)) {
      if (!model.byId.has(step.id) || seeds.includes(step.id)) continue;
      const priority = priorityOf(intent, seedKind, step);
      if (priority === null) continue;
      consider(item(model, step.id, seed, step.reason, priority, [
        priorityRank.get(priority)!,
        seedIndex,
        reasonRank.get(step.reason) ?? ITEM_REASONS.length,
      ]));
    }
  });
  return [...chosen.values()]
    .sort((a, b) => compareOrder(a.order, b.order) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ order: _order, ...rest }) => rest);
}

function compareOrder(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

function item(
  model: RepositoryModel,
  id: string,
  seed: string,
  reason: ItemReason,
  priority: Priority,
  order: readonly number[],
): Candidate {
  const entity: MapEntity = model.byId.get(id)!;
  const content = contentOf(model.sources.get(id)!, priority === "seed");
  return {
    id,
    kind: entity.kind,
    name: entity.name,
    reason,
    seed,
    priority,
    authority: entity.authority,
    retrieve: entity.retrieve,
    content,
    bytes: encoder.encode(content.text).length,
    order,
  };
}

// ignoreBOM keeps a leading byte order mark: a source is its bytes exactly.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

function contentOf(source: EntitySource, isSeed: boolean): ContextItem["content"] {
  switch (source.kind) {
    case "definition": {
      const d = source.definition;
      if (!isSeed) return { format: "shape", text: d.signature };
      const file = source.compilation.files.find((f) => f.path === d.file)!;
      return {
        format: "source",
        text: decoder.decode(file.bytes.subarray(d.span.start, d.span.end)),
      };
    }
    case "module": {
      const file = source.compilation.files.find((f) => f.path === source.file)!;
      if (isSeed) return { format: "source", text: decoder.decode(file.bytes) };
      const signatures = source.compilation.model.definitions
        .filter((d) => d.file === source.file)
        .map((d) => d.signature);
      return { format: "outline", text: signatures.join("\n") };
    }
    case "section":
      return { format: "text", text: sectionText(source.document, source.section) };
    case "document":
      return {
        format: "outline",
        text: source.document.sections.map((s) => `${s.id}\t${s.title}`).join("\n"),
      };
    case "declared":
      return { format: "summary", text: source.summary };
  }
}
