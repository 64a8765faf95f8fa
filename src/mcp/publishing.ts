/**
 * How results and tool names are published to a client: the two startup
 * choices real clients need (README, "Configure your MCP client").
 *
 * - Content: `structured` (the seed's default: each result once, in
 *   `structuredContent`, with `content: []`); `refusals` (a refusal also
 *   carries one text block `reason: message`, an answer stays structured
 *   only); `all` (every result also carries its JSON as one text block).
 * - Tool names: `dotted` (the seed's `nazm.semantic_context`) or
 *   `underscore` (`nazm_semantic_context`, for clients and model APIs whose
 *   function names must match `^[a-zA-Z0-9_-]+$`).
 *
 * Every mode is derived from the one registry: a published name is the
 * canonical one with its dot replaced, and every text that cites a tool
 * (descriptions, instructions, schema descriptions, refusal messages) is
 * rewritten by {@link renameMentions}, never written twice. Answers differ
 * between naming modes only where they name a tool: a `tool` field holding a
 * canonical name (a map entity's or a task item's `retrieve.tool`), an
 * output schema's enum of such names, and a refusal's message.
 *
 * @module
 */

/** Which results also carry a text block. */
export type ContentMode = "structured" | "refusals" | "all";

/** How tool names are published. */
export type ToolNaming = "dotted" | "underscore";

/** The publication choices, fixed at startup. */
export interface Publication {
  readonly content: ContentMode;
  readonly names: ToolNaming;
}

/** The seed's behaviour: structured content only, dotted names. */
export const SEED_PUBLICATION: Publication = Object.freeze({
  content: "structured",
  names: "dotted",
});

/** The name a client sees for the canonical tool name `canonical`. */
export function publishedName(canonical: string, naming: ToolNaming): string {
  return naming === "dotted" ? canonical : canonical.replaceAll(".", "_");
}

/** Published name ↔ canonical name, for the tools a server offers. */
export interface ToolNameMap {
  readonly naming: ToolNaming;
  /** The canonical name of a published name, or undefined: only the running mode's names are tools. */
  canonicalOf(published: string): string | undefined;
  /** The published name of a canonical name (itself when it is not a tool). */
  publishedOf(canonical: string): string;
  /** `text` with every whole-word mention of a canonical tool name published. */
  renameMentions(text: string): string;
}

/** The name map of `canonicalNames` under `naming`. */
export function toolNameMap(
  canonicalNames: readonly string[],
  naming: ToolNaming,
): ToolNameMap {
  const published = new Map(canonicalNames.map((name) => [name, publishedName(name, naming)]));
  const canonical = new Map([...published].map(([name, alias]) => [alias, name]));
  if (canonical.size !== published.size) {
    throw new Error(`two tools publish the same ${naming} name`);
  }
  // Longest first, so that a name is never replaced inside a longer one; a
  // mention is a whole word: not inside an identifier, a path or a longer name.
  const alternatives = [...published.keys()]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const mention = alternatives.length === 0
    ? undefined
    : new RegExp(`(?<![\\w./-])(?:${alternatives.join("|")})(?![\\w-])`, "g");
  return {
    naming,
    canonicalOf: (name) => canonical.get(name),
    publishedOf: (name) => published.get(name) ?? name,
    renameMentions: (text) =>
      naming === "dotted" || mention === undefined
        ? text
        : text.replace(mention, (name) => published.get(name) ?? name),
  };
}

/**
 * A published JSON Schema (an input or output schema, as tools/list serves
 * it) under a naming: `description` and `title` texts have their mentions
 * renamed, and an `enum` or `const` that holds canonical tool names holds
 * the published ones. Returns the same object when nothing changes.
 */
export function renameInSchema<T>(schema: T, names: ToolNameMap): T {
  if (names.naming === "dotted") return schema;
  return renameDeep(schema, (key, value) => {
    // A property may be named "title" too: only a string is a keyword's text.
    if ((key === "description" || key === "title") && typeof value === "string") {
      return names.renameMentions(value);
    }
    if (key === "const" && typeof value === "string") return names.publishedOf(value);
    if (key === "enum" && Array.isArray(value)) {
      return value.map((item) => typeof item === "string" ? names.publishedOf(item) : item);
    }
    return undefined;
  }) as T;
}

/**
 * An answer or refusal under a naming: a `tool` field whose value is a
 * canonical tool name holds the published name (so a `retrieve` link can be
 * called as it stands), and a refusal's `message` cites the published names
 * outside quoted text (a quoted part echoes the caller's input, which is
 * reported as given). Nothing else is touched: documentation text, sources
 * and digests stay byte for byte.
 */
export function renameInResult(
  value: unknown,
  kind: "answer" | "refusal",
  names: ToolNameMap,
): unknown {
  if (names.naming === "dotted") return value;
  const renamed = renameDeep(
    value,
    (key, field) =>
      key === "tool" && typeof field === "string" ? names.publishedOf(field) : undefined,
  );
  if (kind === "refusal" && isRecord(renamed) && typeof renamed.message === "string") {
    return { ...renamed, message: renameOutsideQuotes(renamed.message, names) };
  }
  return renamed;
}

/** `message` with mentions renamed everywhere but inside "double-quoted" (JSON-escaped) parts. */
function renameOutsideQuotes(message: string, names: ToolNameMap): string {
  return message.split(/("(?:[^"\\]|\\.)*")/).map((part, index) =>
    index % 2 === 1 ? part : names.renameMentions(part)
  ).join("");
}

/**
 * The text block a result carries in `mode`, or none: under `all` the
 * structured value's JSON; under `refusals`, a refusal's `reason: message`.
 */
export function textBlockOf(
  kind: "answer" | "refusal",
  value: Record<string, unknown>,
  mode: ContentMode,
): string | undefined {
  switch (mode) {
    case "structured":
      return undefined;
    case "all":
      return JSON.stringify(value);
    case "refusals":
      return kind === "refusal" ? `${value.reason}: ${value.message}` : undefined;
  }
}

/**
 * A copy of `value` in which each property for which `replace(key, value)`
 * returns something other than undefined holds that instead (and is not
 * descended into); every other property is copied, in its order.
 */
function renameDeep(
  value: unknown,
  replace: (key: string, value: unknown) => unknown,
): unknown {
  if (Array.isArray(value)) return value.map((item) => renameDeep(item, replace));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const replaced = replace(key, field);
    out[key] = replaced !== undefined ? replaced : renameDeep(field, replace);
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
