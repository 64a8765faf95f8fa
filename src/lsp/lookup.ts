/**
 * What a position names in an analysed file: a definition (through the
 * model's index, as every fact finds it) or a local of the definition
 * around it — the order in which the rename planner looks.
 *
 * @module
 */
import type { Span } from "../base/mod.ts";
import { type Binding, type Definition, definitionAt } from "../semantics/mod.ts";
import type { Analysis } from "./workspace.ts";

export type Named =
  | { readonly kind: "definition"; readonly def: Definition }
  | { readonly kind: "local"; readonly owner: Definition; readonly binding: Binding };

function contains(span: Span, offset: number): boolean {
  return span.start <= offset && offset <= span.end;
}

export function namedAt(analysis: Analysis, path: string, offset: number): Named | null {
  const model = analysis.compilation.model;
  const def = definitionAt(model, path, offset);
  if (def !== null) return { kind: "definition", def };
  const owner = enclosing(analysis, path, offset);
  if (owner === null) return null;
  const binding = owner.bindings.find((b) =>
    contains(b.declSpan, offset) || b.references.some((r) => contains(r.span, offset))
  );
  return binding === undefined ? null : { kind: "local", owner, binding };
}

/** The definition whose declaration holds the offset (definitions do not nest). */
export function enclosing(analysis: Analysis, path: string, offset: number): Definition | null {
  return analysis.compilation.model.definitions.find((d) =>
    d.file === path && d.span.start <= offset && offset <= d.span.end
  ) ?? null;
}

/** Every place that names it: declaration first, then references in file and offset order. */
export function placesOf(
  analysis: Analysis,
  named: Named,
): { readonly file: string; readonly span: Span; readonly declaration: boolean }[] {
  if (named.kind === "local") {
    const file = named.owner.file;
    return [
      { file, span: named.binding.declSpan, declaration: true },
      ...named.binding.references.map((r) => ({ file, span: r.span, declaration: false })),
    ];
  }
  const places: { file: string; span: Span; declaration: boolean }[] = [];
  const index = analysis.compilation.model.index;
  for (const file of Object.keys(index).sort()) {
    for (const entry of index[file]) {
      if (entry.key !== named.def.key) continue;
      places.push({
        file,
        span: { start: entry.start, end: entry.end },
        declaration: entry.role === "declaration",
      });
    }
  }
  return places.sort((a, b) => Number(b.declaration) - Number(a.declaration));
}
