/**
 * `nazm check ROOT [--source-root DIR] [--json | --summary-json]`: loads
 * the compilation of ROOT and reports every diagnostic, human-readable
 * (rustc's layout) or, with `--json`, one `nazm.diagnostic/1` object per
 * diagnostic in a JSON array, or with `--summary-json` the
 * `nazm.command-summary/1` object the server's nazm.command_summary answers. Exit 0 when there is no error (warnings allowed), 1 on errors,
 * 2 on a usage error or an unreadable root.
 *
 * @module
 */
import { fileLookup, loadCompilation, renderDiagnostic, renderSummary } from "../semantics/mod.ts";
import { documentsOf, summaryOf } from "../facts/mod.ts";
import type { CommandIo } from "./main.ts";

const USAGE = "usage: nazm check ROOT [--source-root DIR] [--json | --summary-json]\n";

interface CheckArgs {
  readonly root: string;
  readonly sourceRoot: string | undefined;
  readonly json: boolean;
  readonly summaryJson: boolean;
}

function parseArgs(args: readonly string[]): CheckArgs | string {
  let root: string | undefined;
  let sourceRoot: string | undefined;
  let json = false;
  let summaryJson = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--json") json = true;
    else if (a === "--summary-json") summaryJson = true;
    else if (a === "--source-root") {
      const value = args[++i];
      if (value === undefined) return "--source-root needs a directory";
      sourceRoot = value;
    } else if (a.startsWith("--source-root=")) sourceRoot = a.slice("--source-root=".length);
    else if (a.startsWith("-")) return `unknown option \`${a}\``;
    else if (root === undefined) root = a;
    else return `unexpected argument \`${a}\``;
  }
  if (root === undefined) return "missing ROOT";
  if (json && summaryJson) return "--json and --summary-json exclude each other";
  return { root, sourceRoot, json, summaryJson };
}

/** Runs `nazm check`; returns the exit status. */
export function check(io: CommandIo): number {
  const parsed = parseArgs(io.args);
  if (typeof parsed === "string") {
    io.stderr(`nazm check: ${parsed}\n${USAGE}`);
    return 2;
  }
  const compilation = loadCompilation(parsed.root, { sourceRoot: parsed.sourceRoot });
  if (compilation.rootError !== null) {
    io.stderr(`nazm check: ${compilation.rootError}\n`);
    return 2;
  }
  const failed = compilation.diagnostics.some((d) => d.severity === "error");
  if (parsed.summaryJson) {
    // Byte for byte what the nazm.command_summary tool answers.
    const summary = summaryOf(compilation);
    io.stdout(JSON.stringify(summary) + "\n");
    return summary.exit_status;
  }
  if (parsed.json) {
    io.stdout(JSON.stringify(documentsOf(compilation), null, 2) + "\n");
  } else {
    const lookup = fileLookup(compilation);
    for (const d of compilation.diagnostics) io.stdout(renderDiagnostic(d, lookup) + "\n\n");
    io.stdout(renderSummary(compilation.diagnostics) + "\n");
  }
  return failed ? 1 : 0;
}
