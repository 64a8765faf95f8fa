/**
 * nazm.semantic_delta: what changed since a baseline snapshot
 * (docs/architecture.md §7.30).
 *
 * @module
 */
import { DeltaInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.semantic_delta",
  title: "Semantic delta since a snapshot",
  description:
    "Compares a nazm.snapshot/4 you kept (from nazm.semantic_snapshot) with the root's compilation on disk now and returns a nazm.delta/2: the keys of definitions added and removed, and for each changed definition the sections that changed (source, shape, dependencies, related_types, references, callers, callees, diagnostics). A rename shows as one removal and one addition; a comment or a changed literal as `source` alone; a changed signature as `shape`, plus the dependent sections of its callers. It reports the semantic surfaces the compiler records, not behavioural equivalence. `baseline` is the snapshot object itself, never a path: anything that is not exactly a snapshot of this root by this compiler (another root or compiler version, an unknown field, a malformed key, a duplicate key, a bad digest) is refused with a reason (isError), never compared as well as it can be.",
  input: DeltaInput,
  outputSchema: "nazm.delta-2.json",
});
