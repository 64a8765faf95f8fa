/**
 * Diagnostic ids: computed in this one place, so the index, the detail, the
 * context packet and the check summary name a diagnostic alike.
 *
 * An id is `<code>@<file>:<start>-<end>` (byte offsets of its primary span),
 * with `#<n>` appended to the second and later diagnostics that would share
 * it. It is meaningful only with the `state.source` it was listed under: the
 * detail refuses a stale state rather than guess which diagnostic an old id
 * meant.
 *
 * @module
 */
import type { Diagnostic } from "../base/mod.ts";

/**
 * The id of each diagnostic of a compilation's sorted list (program-level
 * ones, without a file, have none). A list of only some files' diagnostics
 * gives them the same ids: an id counts only diagnostics of its own file.
 */
export function diagnosticIds(
  compilation: { readonly diagnostics: readonly Diagnostic[] },
): Map<Diagnostic, string> {
  const ids = new Map<Diagnostic, string>();
  const seen = new Map<string, number>();
  for (const diagnostic of compilation.diagnostics) {
    if (diagnostic.file === null || diagnostic.span === null) continue;
    const base =
      `${diagnostic.code}@${diagnostic.file}:${diagnostic.span.start}-${diagnostic.span.end}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    ids.set(diagnostic, count === 1 ? base : `${base}#${count}`);
  }
  return ids;
}
