/**
 * nazm.diagnostic_detail: one diagnostic in full
 * (docs/architecture.md §7.32).
 *
 * @module
 */
import { DiagnosticDetailInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.diagnostic_detail",
  title: "One diagnostic in full",
  description:
    'Returns one diagnostic exactly as nazm.diagnostic/2 publishes it (and nazm check --json prints it): code, docs_section (the id to pass to nazm.docs_section for what the code means, a wrong line and its repair), severity, a message that stands alone, its place, labelled secondary places, help, and each fix with its title, applicability, structured precondition, exact edits and the nazm.semantic_patch request that plans it (null for a syntax fix, which cannot be planned). Pass an id and the state.source of the nazm.diagnostics answer it came from. If the sources changed since, it is refused as stale_state: ask nazm.diagnostics again; an id with no current diagnostic is not_found. `facts` is always "unavailable": the compiler records nothing beyond the diagnostic.',
  input: DiagnosticDetailInput,
  outputSchema: "nazm.diagnostic-2.json",
});
