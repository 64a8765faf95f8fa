/**
 * nazm.semantic_snapshot: the root compilation's snapshot
 * (docs/architecture.md §7.30).
 *
 * @module
 */
import { SnapshotInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.semantic_snapshot",
  title: "Semantic snapshot of the root",
  description:
    "Returns a nazm.snapshot/4 of the root's compilation as it is on disk now: every durable function, record and enum by its key (module.path::name), with one digest per section — source, shape, dependencies, related_types, references, callers, callees, diagnostics. Take one before a change and keep it: the server keeps nothing. After editing, pass it unchanged as `baseline` to nazm.semantic_delta to learn which definitions were added, removed or changed, and in which sections. A comment or a changed literal changes only `source`. A compilation with syntax errors has no snapshot (unavailable, isError); nazm.diagnostics lists the errors. Takes no arguments.",
  input: SnapshotInput,
  outputSchema: "nazm.snapshot-4.json",
});
