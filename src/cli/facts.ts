/**
 * The facts of the server, on the command line: `nazm context`, `nazm
 * snapshot`, `nazm delta`, `nazm patch` and `nazm diagnostics` print
 * exactly the JSON the matching tool returns (its structured content), one
 * line, then a newline. The arguments are checked by the tool's own input
 * schema, so the command line accepts what the server accepts. Exit 0 with
 * an answer, 1 with a refusal (printed the same way), 2 on a usage error.
 *
 * @module
 */
import { resolve } from "node:path";
import { readRegularFile } from "../base/mod.ts";
import {
  ContextInput,
  DiagnosticDetailInput,
  PatchInput,
  type PositionArgument,
} from "../contracts/mod.ts";
import {
  diagnosticDetail,
  diagnosticsIndex,
  MAX_BASELINE_BYTES,
  patchRequestOf,
  readBaseline,
  refuseBaseline,
  type RootConfig,
  semanticContext,
  semanticDelta,
  semanticPatch,
  semanticSnapshot,
} from "../facts/mod.ts";
import { parseArgs, type ParsedArgs } from "./args.ts";
import { type CommandIo, printOutcome, toolArguments, usageError } from "./io.ts";

const ROOT_OPTIONS = ["root", "source-root"];

/** The root named by `--root` (or `fallbackRoot`), its source root by `--source-root` or its folder. */
function rootConfig(parsed: ParsedArgs, fallbackRoot?: string): RootConfig | string {
  const root = parsed.values.get("root") ?? fallbackRoot;
  if (root === undefined) return "missing --root FILE";
  const absolute = resolve(root);
  return {
    root: absolute,
    sourceRoot: resolve(parsed.values.get("source-root") ?? resolve(absolute, "..")),
  };
}

/** `LINE:COLUMN` as a position argument; anything else as given, for the schema to refuse. */
function positionOf(text: string): PositionArgument | string {
  const at = /^(\d+):(\d+)$/.exec(text);
  return at === null ? text : { line: Number(at[1]), column: Number(at[2]) };
}

export const CONTEXT_USAGE = "context FILE LINE:COLUMN [--root ROOT] [--source-root DIR]";

/** `nazm context FILE LINE:COLUMN`: the nazm.semantic_context packet. */
export function context(io: CommandIo): number {
  const usage = (problem: string) => usageError(io, "context", problem, CONTEXT_USAGE);
  const parsed = parseArgs(io.args, { values: ROOT_OPTIONS, positionals: ["FILE", "LINE:COLUMN"] });
  if (typeof parsed === "string") return usage(parsed);
  const file = parsed.positionals.get("FILE")!;
  const position = positionOf(parsed.positionals.get("LINE:COLUMN")!);
  if (typeof position === "string") return usage("the position must be LINE:COLUMN");
  // Without --root the file is its own root; FILE is then named as the
  // server's clients name it, relative to the source root.
  const config = rootConfig(parsed, file);
  if (typeof config === "string") return usage(config);
  const args = toolArguments(ContextInput, {
    file: parsed.values.has("root") ? file : resolve(file),
    position,
  });
  if (args.kind === "invalid") return usage(args.problem);
  return printOutcome(io, semanticContext(config, args.value));
}

export const SNAPSHOT_USAGE = "snapshot ROOT [--source-root DIR]";

/** `nazm snapshot ROOT`: the nazm.semantic_snapshot answer. */
export function snapshot(io: CommandIo): number {
  const usage = (problem: string) => usageError(io, "snapshot", problem, SNAPSHOT_USAGE);
  const parsed = parseArgs(io.args, {
    values: ROOT_OPTIONS,
    positionals: ["ROOT"],
    optional: ["ROOT"],
  });
  if (typeof parsed === "string") return usage(parsed);
  if (parsed.values.has("root") && parsed.positionals.has("ROOT")) {
    return usage("give the root once");
  }
  const config = rootConfig(parsed, parsed.positionals.get("ROOT"));
  if (typeof config === "string") return usage(config);
  return printOutcome(io, semanticSnapshot(config));
}

export const DELTA_USAGE = "delta BASELINE.json --root ROOT [--source-root DIR]";

/** `nazm delta BASELINE.json --root ROOT`: the nazm.semantic_delta answer. */
export function delta(io: CommandIo): number {
  const usage = (problem: string) => usageError(io, "delta", problem, DELTA_USAGE);
  const parsed = parseArgs(io.args, { values: ROOT_OPTIONS, positionals: ["BASELINE.json"] });
  if (typeof parsed === "string") return usage(parsed);
  const config = rootConfig(parsed);
  if (typeof config === "string") return usage(config);
  const path = parsed.positionals.get("BASELINE.json")!;
  // The command line names the baseline by path; the server never does.
  const bytes = readRegularFile(path, MAX_BASELINE_BYTES);
  if (!(bytes instanceof Uint8Array)) {
    if (bytes.error !== "too_large") {
      io.stderr(`nazm delta: cannot read ${path}: ${bytes.message}\n`);
      return 2;
    }
    return printOutcome(
      io,
      refuseBaseline({
        problem: "too_large",
        path: "$",
        message:
          `baseline is over the limit of ${MAX_BASELINE_BYTES} bytes (64 MiB): ${bytes.message}`,
      }),
    );
  }
  const read = readBaseline(bytes);
  return printOutcome(io, read.kind === "refusal" ? read : semanticDelta(config, read.value));
}

export const PATCH_USAGE =
  "patch rename FILE LINE:COLUMN NEW_NAME --root ROOT | patch fix ID INDEX --state STATE --root ROOT";

/** `nazm patch rename …` and `nazm patch fix …`: the nazm.semantic_patch plan. */
export function patch(io: CommandIo): number {
  const usage = (problem: string) => usageError(io, "patch", problem, PATCH_USAGE);
  const [operation, ...rest] = io.args;
  let parsed: ParsedArgs | string;
  let request: Record<string, unknown>;
  if (operation === "rename") {
    parsed = parseArgs(rest, {
      values: ROOT_OPTIONS,
      positionals: ["FILE", "LINE:COLUMN", "NEW_NAME"],
    });
    if (typeof parsed === "string") return usage(parsed);
    const position = positionOf(parsed.positionals.get("LINE:COLUMN")!);
    if (typeof position === "string") return usage("the position must be LINE:COLUMN");
    request = {
      operation,
      file: parsed.positionals.get("FILE"),
      position,
      new_name: parsed.positionals.get("NEW_NAME"),
    };
  } else if (operation === "fix") {
    parsed = parseArgs(rest, { values: [...ROOT_OPTIONS, "state"], positionals: ["ID", "INDEX"] });
    if (typeof parsed === "string") return usage(parsed);
    const index = parsed.positionals.get("INDEX")!;
    if (!/^\d+$/.test(index)) return usage("INDEX must be a number");
    if (!parsed.values.has("state")) return usage("missing --state STATE");
    request = {
      operation,
      diagnostic: parsed.positionals.get("ID"),
      fix: Number(index),
      state: parsed.values.get("state"),
    };
  } else {
    return usage("the operation must be rename or fix");
  }
  const config = rootConfig(parsed);
  if (typeof config === "string") return usage(config);
  const args = toolArguments(PatchInput, request);
  if (args.kind === "invalid") return usage(args.problem);
  return printOutcome(io, semanticPatch(config, patchRequestOf(args.value)));
}

export const DIAGNOSTICS_USAGE = "diagnostics ROOT | diagnostics ID --state STATE --root ROOT";

/** `nazm diagnostics ROOT` (the index) and `nazm diagnostics ID --state S --root ROOT` (one in full). */
export function diagnostics(io: CommandIo): number {
  const usage = (problem: string) => usageError(io, "diagnostics", problem, DIAGNOSTICS_USAGE);
  const parsed = parseArgs(io.args, {
    values: [...ROOT_OPTIONS, "state"],
    positionals: ["ID_OR_ROOT"],
    optional: ["ID_OR_ROOT"],
  });
  if (typeof parsed === "string") return usage(parsed);
  const state = parsed.values.get("state");
  const positional = parsed.positionals.get("ID_OR_ROOT");
  if (state === undefined) {
    if (parsed.values.has("root") && positional !== undefined) return usage("give the root once");
    const config = rootConfig(parsed, positional);
    if (typeof config === "string") return usage(config);
    return printOutcome(io, diagnosticsIndex(config));
  }
  if (positional === undefined) return usage("missing ID");
  const config = rootConfig(parsed);
  if (typeof config === "string") return usage(config);
  const args = toolArguments(DiagnosticDetailInput, { id: positional, state });
  if (args.kind === "invalid") return usage(args.problem);
  return printOutcome(io, diagnosticDetail(config, args.value));
}
