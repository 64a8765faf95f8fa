/**
 * Everything a snapshot digests except source bytes, in the clear: what a
 * rename must leave unchanged. Names are mapped through `back`, so that the
 * facts after a rename can be compared with the facts before it.
 *
 * @module
 */
import type { Diagnostic } from "../../src/base/mod.ts";
import { diagnosticIds } from "../../src/facts/mod.ts";
import type { Compilation } from "../../src/semantics/mod.ts";

/** The diagnostic nazm.diagnostics lists under `id` (a test failure when there is none). */
export function diagnosticById(compilation: Compilation, id: string): Diagnostic {
  for (const [d, at] of diagnosticIds(compilation)) if (at === id) return d;
  throw new Error(`no diagnostic has the id ${id}`);
}

export function semanticFacts(
  compilation: Compilation,
  back: ReadonlyMap<string, string> = new Map(),
) {
  const map = (value: unknown): unknown => {
    if (typeof value === "string") return back.get(value) ?? value;
    if (Array.isArray(value)) return value.map(map);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, map(v)]));
    }
    return value;
  };
  const keys = (links: readonly { key: string }[]) => links.map((l) => map(l.key) as string).sort();
  return compilation.model.definitions.map((def) => ({
    key: map(def.key) as string,
    kind: def.kind,
    exported: def.exported,
    shape: map(def.shape),
    uses: keys(def.uses),
    types: keys(def.types),
    usedBy: keys(def.usedBy),
    calls: keys(def.calls),
    calledBy: keys(def.calledBy),
    diagnostics: def.diagnostics.map((d) => d.code).sort(),
  })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
