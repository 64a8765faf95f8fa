/**
 * nazm.diagnostics: every current diagnostic, compactly
 * (docs/architecture.md §7.32).
 *
 * @module
 */
import { DiagnosticsInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.diagnostics",
  title: "Diagnostics of the root, compactly",
  description:
    "Lists every current diagnostic of the root's compilation that has a place (nazm.diagnostic-index/2): its id, code, severity, file and range, the definition that owns it, and how many automatic and needs_review fixes it has — no message, help or label text, so the list stays small. Syntax errors are included. Call it first to see what is wrong; then pass an id and state.source to nazm.diagnostic_detail for the full diagnostic and its fixes. A program-level diagnostic with no place (a missing main) is not listed; nazm.command_summary reports it. Takes no arguments.",
  input: DiagnosticsInput,
  outputSchema: "nazm.diagnostic-index-2.json",
});
