/**
 * `nazm check ROOT [--source-root DIR] [--json | --summary-json]`: loads
 * the compilation of ROOT and reports every diagnostic, human-readable
 * (rustc's layout) or, with `--json`, one `nazm.diagnostic/2` object per
 * diagnostic in a JSON array, or with `--summary-json` the
 * `nazm.command-summary/1` object the server's nazm.command_summary
 * answers. Exit 0 when there is no error (warnings allowed), 1 on errors, 2
 * on a usage error or an unreadable root.
 *
 * @module
 */
import { fileLookup, loadCompilation, renderDiagnostic, renderSummary } from "../semantics/mod.ts";
import { documentsOf, summaryOf } from "../facts/mod.ts";
import { parseArgs } from "./args.ts";
import { type CommandIo, usageError } from "./io.ts";

export const CHECK_USAGE = "check ROOT [--source-root DIR] [--json | --summary-json]";

/** Runs `nazm check`; returns the exit status. */
export function check(io: CommandIo): number {
  const parsed = parseArgs(io.args, {
    values: ["source-root"],
    switches: ["json", "summary-json"],
    positionals: ["ROOT"],
  });
  if (typeof parsed === "string") return usageError(io, "check", parsed, CHECK_USAGE);
  if (parsed.switches.has("json") && parsed.switches.has("summary-json")) {
    return usageError(io, "check", "--json and --summary-json exclude each other", CHECK_USAGE);
  }
  const compilation = loadCompilation(parsed.positionals.get("ROOT")!, {
    sourceRoot: parsed.values.get("source-root"),
  });
  if (compilation.rootError !== null) {
    io.stderr(`nazm check: ${compilation.rootError}\n`);
    return 2;
  }
  const failed = compilation.diagnostics.some((d) => d.severity === "error");
  if (parsed.switches.has("summary-json")) {
    // Byte for byte what the nazm.command_summary tool answers.
    const summary = summaryOf(compilation);
    io.stdout(JSON.stringify(summary) + "\n");
    return summary.exit_status;
  }
  if (parsed.switches.has("json")) {
    io.stdout(JSON.stringify(documentsOf(compilation), null, 2) + "\n");
  } else {
    const lookup = fileLookup(compilation);
    for (const d of compilation.diagnostics) io.stdout(renderDiagnostic(d, lookup) + "\n\n");
    io.stdout(renderSummary(compilation.diagnostics) + "\n");
  }
  return failed ? 1 : 0;
}
