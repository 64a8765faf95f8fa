/**
 * An independent re-check of an accepted plan, written apart from
 * src/facts/verify.ts so that the property test does not trust the
 * verifier's verdict: the plan is applied as a careful client applies it
 * (all three freshness layers), the result compiled from scratch (no parse
 * cache), and compared with the program before — not by mapping offsets, as
 * the verifier does, but by each definition's sequence of resolved names in
 * source order, which a rename keeps and a fix keeps outside its edits.
 *
 * @module
 */
import type { Diagnostic } from "../../src/base/mod.ts";
import { applyPatch, type Patch, snapshotDigest, snapshotOf } from "../../src/facts/mod.ts";
import { type Compilation, loadCompilation } from "../../src/semantics/mod.ts";

const SOURCE_ROOT = "/plan";

/** Compiles in-memory files (relative path → bytes) rooted at `main.nz`, without any cache. */
export function compileFiles(files: ReadonlyMap<string, Uint8Array>): Compilation {
  return loadCompilation(`${SOURCE_ROOT}/main.nz`, {
    sourceRoot: SOURCE_ROOT,
    host: {
      readFile(path) {
        const bytes = files.get(path.slice(SOURCE_ROOT.length + 1));
        return bytes ?? { error: "not_found", message: "file not found" };
      },
    },
  });
}

interface Named {
  readonly offset: number;
  readonly label: string;
}

/**
 * Per definition (by key, read through `keyOf`), its resolved names in
 * source order: its own name, each reference to a definition, each local's
 * declaration and reads (by the local's ordinal among the definition's
 * bindings), each name that resolves to nothing of the compilation.
 */
function namesByDefinition(
  compilation: Compilation,
  keyOf: (key: string) => string,
): Map<string, Named[]> {
  const out = new Map<string, Named[]>();
  for (const def of compilation.model.definitions) {
    const names: Named[] = [{ offset: def.nameSpan.start, label: `self ${keyOf(def.key)}` }];
    for (const [role, links] of [["call", def.calls], ["use", def.uses], ["type", def.types]]) {
      for (const link of links as typeof def.calls) {
        for (const o of link.occurrences) {
          names.push({ offset: o.span.start, label: `${role} ${keyOf(link.key)}` });
        }
      }
    }
    def.bindings.forEach((b, i) => {
      names.push({ offset: b.declSpan.start, label: `declares ${i} ${b.kind}` });
      for (const r of b.references) names.push({ offset: r.span.start, label: `reads ${i}` });
    });
    for (const o of def.outerNames) {
      if (o.key === null) names.push({ offset: o.span.start, label: `outside ${o.name}` });
    }
    names.sort((a, b) => a.offset - b.offset || (a.label < b.label ? -1 : 1));
    out.set(keyOf(def.key), names);
  }
  return out;
}

function diagnosticCounts(list: readonly Diagnostic[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of list) {
    const key = `${d.code} ${d.severity} ${d.file}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * Why applying `patch` to `files` (the bytes `before` was compiled from)
 * breaks or changes the program, or null when it keeps it. `fixed` is the
 * diagnostic a fix plan fixes; `snapshot` the digest of `before`'s snapshot.
 */
export function recheckPlan(
  before: Compilation,
  files: ReadonlyMap<string, Uint8Array>,
  patch: Patch,
  fixed: Diagnostic | null,
  snapshot = snapshotDigest(snapshotOf(before)),
): string | null {
  const applied = applyPatch(patch, { read: (file) => files.get(file)!, snapshot });
  if (typeof applied === "string") return `not applied: ${applied}`;
  const after = compileFiles(new Map([...files, ...applied]));
  if (after.needsSyntaxRecovery) return "the edited program has a syntax error";

  // No diagnostic added; a fix's own one fewer.
  const was = diagnosticCounts(before.diagnostics);
  const is = diagnosticCounts(after.diagnostics);
  if (fixed !== null) {
    const key = `${fixed.code} ${fixed.severity} ${fixed.file}`;
    if ((is.get(key) ?? 0) >= was.get(key)!) return `the fix leaves ${key}`;
    was.set(key, was.get(key)! - 1);
  }
  for (const [key, n] of is) {
    if (n > (was.get(key) ?? 0)) {
      const d = after.diagnostics.find((x) => `${x.code} ${x.severity} ${x.file}` === key)!;
      return `adds ${key}: ${d.message}`;
    }
  }

  // The same definitions, each with the same resolved names in the same order.
  const target = patch.target;
  const renamedKey = target.kind === "definition" ? target : null;
  const back = (key: string) =>
    renamedKey !== null && key === renamedKey.new_key ? renamedKey.key : key;
  const old = namesByDefinition(before, (key) => key);
  const now = namesByDefinition(after, back);
  if ([...old.keys()].sort().join() !== [...now.keys()].sort().join()) {
    return `the definitions differ: ${[...old.keys()]} / ${[...now.keys()]}`;
  }
  const edits = patch.edits.map((e) => ({
    file: e.file,
    start: e.start.offset,
    end: e.end.offset,
  }));
  for (const def of before.model.definitions) {
    const a = old.get(def.key)!;
    const b = now.get(def.key)!;
    const labels = (list: readonly Named[]) => list.map((n) => n.label).join(", ");
    if (patch.operation === "rename") {
      if (labels(a) !== labels(b)) {
        return `${def.key} resolves its names otherwise:\n  ${labels(a)}\n  ${labels(b)}`;
      }
      continue;
    }
    // A fix: the names before its first edit and after its last keep their resolution.
    const inside = edits.filter((e) =>
      e.file === def.file && e.start <= def.span.end &&
      e.end >= def.span.start
    );
    if (inside.length === 0) {
      if (labels(a) !== labels(b)) return `${def.key}, untouched by the fix, changed`;
      continue;
    }
    const first = inside[0].start;
    const last = inside[inside.length - 1].end;
    // The shift at `last`: every edit up to it, an insertion there included.
    const delta = patch.edits.filter((e) => e.file === def.file && e.end.offset <= last)
      .reduce(
        (n, e) =>
          n + new TextEncoder().encode(e.replacement).length - (e.end.offset - e.start.offset),
        0,
      );
    const head = (list: readonly Named[]) => labels(list.filter((n) => n.offset < first - 1));
    if (head(a) !== head(b)) return `${def.key}: the names before the fix changed`;
    const tailA = labels(a.filter((n) => n.offset > last));
    const tailB = labels(b.filter((n) => n.offset > last + delta));
    if (tailA !== tailB) {
      return `${def.key}: the names after the fix changed:\n  ${tailA}\n  ${tailB}`;
    }
  }

  // And for a rename, every other semantic fact, keys read back through it.
  if (
    patch.operation === "rename" && facts(after, back, renamedKey) !== facts(before, (k) => k, null)
  ) {
    return "the semantic facts differ beyond the renamed name";
  }
  return null;
}

/** Each definition's kind, shape and relations, as text; keys read through `keyOf`. */
function facts(
  compilation: Compilation,
  keyOf: (key: string) => string,
  renamed: { readonly key: string; readonly name: string } | null,
): string {
  const deep = (value: unknown): unknown => {
    if (typeof value === "string") return value.includes("::") ? keyOf(value) : value;
    if (Array.isArray(value)) return value.map(deep);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]));
    }
    return value;
  };
  const keys = (links: readonly { key: string }[]) => links.map((l) => keyOf(l.key)).sort();
  return JSON.stringify(
    compilation.model.definitions.map((def) => {
      const shape = deep(def.shape) as Record<string, unknown>;
      // The renamed definition's own name is the one fact a rename changes.
      if (renamed !== null && keyOf(def.key) === renamed.key) shape.name = renamed.name;
      return {
        key: keyOf(def.key),
        kind: def.kind,
        exported: def.exported,
        shape,
        uses: keys(def.uses),
        types: keys(def.types),
        usedBy: keys(def.usedBy),
        calls: keys(def.calls),
        calledBy: keys(def.calledBy),
      };
    }).sort((a, b) => (a.key < b.key ? -1 : 1)),
  );
}
