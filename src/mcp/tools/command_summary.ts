/**
 * nazm.command_summary: what `nazm check` concludes for the root now
 * (docs/architecture.md §7.33).
 *
 * @module
 */
import { CommandSummaryInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.command_summary",
  title: "Check summary of the root",
  description:
    "Returns what `nazm check` concludes for the root as it is on disk now (nazm.command-summary/1), byte for byte what `nazm check --summary-json` prints: status (ok or failed), the exit status, error and warning counts, and a reference to every diagnostic — code, severity, place, fix counts and, where nazm.diagnostics indexes it, its id — including program-level ones such as a missing main, which have no place and no id. No prose: pass an id to nazm.diagnostic_detail for text. It runs the check only, without any cache, and writes nothing; building and testing are not offered. Takes no arguments.",
  input: CommandSummaryInput,
  outputSchema: "nazm.command-summary-1.json",
});
