/**
 * nazm.semantic_patch: a planned rename or diagnostic fix, never applied
 * (docs/architecture.md §7.31).
 *
 * @module
 */
import { PatchInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.semantic_patch",
  title: "Plan a rename or a fix",
  description:
    "Plans, and never applies, an edit of the root's compilation as a nazm.patch/2: minimal exact-byte edits with three freshness layers — baseline.snapshot (BLAKE3 of the canonical nazm.snapshot/4 it was planned on), each touched file's BLAKE3, and each edit's expected text — plus its applicability (automatic, or needs_review: never safe to apply unread) and a structured precondition. Check all three layers before applying anything. operation \"rename\" takes file, position and new_name and renames a private function, record or enum, or a local or parameter, everywhere it is referred to; an exported definition is refused (modules outside this compilation may import it), and so is a name that is not an identifier, a keyword, or one that would collide with or capture another name. operation \"fix\" takes a diagnostic id and state from nazm.diagnostics and a fix index from nazm.diagnostic_detail (whose fixes carry this exact request); a stale state, an id with no current diagnostic, a missing fix index and any syntax diagnostic's fix are refused. Every plan is verified before it is returned: its edits are applied in memory and the edited program re-checked — it must add no diagnostic (a fix must remove its own), every name must resolve as before, and no other fact may change; the answer's verification says what was compared, and a plan that fails is refused would_break or would_change_meaning, naming the first diagnostic it would add or the name it would re-bind, with places. No other argument is accepted, and no replacement text is ever taken from the client.",
  input: PatchInput,
  outputSchema: "nazm.patch-2.json",
});
