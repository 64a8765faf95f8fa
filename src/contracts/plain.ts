/**
 * The contracts' second entry, without zod: the one outcome (outcome.ts)
 * and the closed lists the facts layer builds its answers from. The
 * analysis worker reaches the contracts through this alone, and only with
 * `import type` through mod.ts: zod and the schemas declared with it are
 * the main thread's, which validates every argument and answer, and they
 * took a cold worker some 100 ms to load and evaluate before its first
 * answer could start (bench/README.md, "mcp").
 *
 * @module
 */
export * from "./outcome.ts";

/**
 * Every definition key: `module.path::name`, and `#2`, `#3`, … after the
 * name for a second, third … definition of it (a duplicate, N0204). Segments
 * and names are identifiers (specification §2.6).
 */
export const DEFINITION_KEY =
  /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*::[A-Za-z_][A-Za-z0-9_]*(#([2-9]|[1-9][0-9]+))?$/;

/** What a packet, snapshot or delta marks unsupported rather than empty or unchanged. */
export const UNSUPPORTED = [
  "effects",
  "capabilities",
  "tests",
  "semantic_history",
  "behavioural_equivalence",
] as const;

/** The sections a definition's digests cover, in published order. */
export const SECTIONS = [
  "source",
  "shape",
  "dependencies",
  "related_types",
  "references",
  "callers",
  "callees",
  "diagnostics",
] as const;

export type SectionName = (typeof SECTIONS)[number];
