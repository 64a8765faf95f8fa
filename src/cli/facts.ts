/**
 * The facts of the server, on the command line: `nazm context`, `nazm
 * snapshot` and `nazm delta` print exactly the JSON the matching tool
 * returns (its structured content), one line, then a newline. Exit 0 with
 * an answer, 1 with a refusal (printed the same way), 2 on a usage error.
 *
 * @module
 */
import { resolve } from "node:path";
import { isDigest, readRegularFile } from "../base/mod.ts";
import {
  diagnosticDetail,
  diagnosticsIndex,
  MAX_BASELINE_BYTES,
  type Outcome,
  readBaseline,
  refuseBaseline,
  type RootConfig,
  semanticContext,
  semanticDelta,
  semanticPatch,
  semanticSnapshot,
} from "../facts/mod.ts";
import { parseArgs, type ParsedArgs } from "./args.ts";
import type { CommandIo } from "./main.ts";

const ROOT_OPTIONS = ["root", "source-root"];

function rootConfig(parsed: ParsedArgs, fallbackRoot?: string): RootConfig | string {
  const root = parsed.values.get("root") ?? fallbackRoot;
  if (root === undefined) return "missing --root FILE";
  const absolute = resolve(root);
  return {
    root: absolute,
    sourceRoot: resolve(parsed.values.get("source-root") ?? resolve(absolute, "..")),
  };
}

function print(io: CommandIo, outcome: Outcome<unknown>): number {
  io.stdout(JSON.stringify(outcome.value) + "\n");
  return outcome.kind === "answer" ? 0 : 1;
}

function usageError(io: CommandIo, command: string, problem: string, usage: string): number {
  io.stderr(`nazm ${command}: ${problem}\nusage: nazm ${usage}\n`);
  return 2;
}

const CONTEXT_USAGE = "context FILE LINE:COLUMN [--root ROOT] [--source-root DIR]";

/** `nazm context FILE LINE:COLUMN`: the nazm.semantic_context packet. */
export function context(io: CommandIo): number {
  const parsed = parseArgs(io.args, { values: ROOT_OPTIONS, positionals: ["FILE", "LINE:COLUMN"] });
  if (typeof parsed === "string") return usageError(io, "context", parsed, CONTEXT_USAGE);
  const file = parsed.positionals.get("FILE")!;
  const at = /^(\d+):(\d+)$/.exec(parsed.positionals.get("LINE:COLUMN")!);
  if (at === null) {
    return usageError(io, "context", "the position must be LINE:COLUMN", CONTEXT_USAGE);
  }
  // Without --root the file is its own root; FILE is then named as the
  // server's clients name it, relative to the source root.
  const config = rootConfig(parsed, file);
  if (typeof config === "string") return usageError(io, "context", config, CONTEXT_USAGE);
  const argument = parsed.values.has("root") ? file : resolve(file);
  return print(
    io,
    semanticContext(config, {
      file: argument,
      position: { line: Number(at[1]), column: Number(at[2]) },
    }),
  );
}

const SNAPSHOT_USAGE = "snapshot ROOT [--source-root DIR]";

/** `nazm snapshot ROOT`: the nazm.semantic_snapshot answer. */
export function snapshot(io: CommandIo): number {
  const parsed = parseArgs(io.args, {
    values: ROOT_OPTIONS,
    positionals: ["ROOT"],
    optional: ["ROOT"],
  });
  if (typeof parsed === "string") return usageError(io, "snapshot", parsed, SNAPSHOT_USAGE);
  if (parsed.values.has("root") && parsed.positionals.has("ROOT")) {
    return usageError(io, "snapshot", "give the root once", SNAPSHOT_USAGE);
  }
  const config = rootConfig(parsed, parsed.positionals.get("ROOT"));
  if (typeof config === "string") return usageError(io, "snapshot", config, SNAPSHOT_USAGE);
  return print(io, semanticSnapshot(config));
}

const DELTA_USAGE = "delta BASELINE.json --root ROOT [--source-root DIR]";

/** `nazm delta BASELINE.json --root ROOT`: the nazm.semantic_delta answer. */
export function delta(io: CommandIo): number {
  const parsed = parseArgs(io.args, { values: ROOT_OPTIONS, positionals: ["BASELINE.json"] });
  if (typeof parsed === "string") return usageError(io, "delta", parsed, DELTA_USAGE);
  const config = rootConfig(parsed);
  if (typeof config === "string") return usageError(io, "delta", config, DELTA_USAGE);
  const path = parsed.positionals.get("BASELINE.json")!;
  // The command line names the baseline by path; the server never does.
  const bytes = readRegularFile(path, MAX_BASELINE_BYTES);
  if (!(bytes instanceof Uint8Array) && bytes.error !== "too_large") {
    io.stderr(`nazm delta: cannot read ${path}: ${bytes.message}\n`);
    return 2;
  }
  const read = bytes instanceof Uint8Array ? readBaseline(bytes) : {
    problem: "too_large" as const,
    path: "$",
    message: `baseline is over the limit of ${MAX_BASELINE_BYTES} bytes (64 MiB): ${bytes.message}`,
  };
  if ("problem" in read) return print(io, refuseBaseline(read));
  return print(io, semanticDelta(config, read.baseline));
}

const PATCH_USAGE =
  "patch rename FILE LINE:COLUMN NEW_NAME --root ROOT | patch fix ID INDEX --state STATE --root ROOT";

/** `nazm patch rename …` and `nazm patch fix …`: the nazm.semantic_patch plan. */
export function patch(io: CommandIo): number {
  const [operation, ...rest] = io.args;
  if (operation === "rename") {
    const parsed = parseArgs(rest, {
      values: ROOT_OPTIONS,
      positionals: ["FILE", "LINE:COLUMN", "NEW_NAME"],
    });
    if (typeof parsed === "string") return usageError(io, "patch", parsed, PATCH_USAGE);
    const at = /^(\d+):(\d+)$/.exec(parsed.positionals.get("LINE:COLUMN")!);
    if (at === null) {
      return usageError(io, "patch", "the position must be LINE:COLUMN", PATCH_USAGE);
    }
    const config = rootConfig(parsed);
    if (typeof config === "string") return usageError(io, "patch", config, PATCH_USAGE);
    return print(
      io,
      semanticPatch(config, {
        operation: "rename",
        file: parsed.positionals.get("FILE")!,
        position: { line: Number(at[1]), column: Number(at[2]) },
        new_name: parsed.positionals.get("NEW_NAME")!,
      }),
    );
  }
  if (operation === "fix") {
    const parsed = parseArgs(rest, {
      values: [...ROOT_OPTIONS, "state"],
      positionals: ["ID", "INDEX"],
    });
    if (typeof parsed === "string") return usageError(io, "patch", parsed, PATCH_USAGE);
    const index = parsed.positionals.get("INDEX")!;
    if (!/^\d+$/.test(index)) return usageError(io, "patch", "INDEX must be a number", PATCH_USAGE);
    const state = parsed.values.get("state");
    if (state === undefined) return usageError(io, "patch", "missing --state STATE", PATCH_USAGE);
    if (!isDigest(state)) {
      return usageError(
        io,
        "patch",
        "--state must be a state.source digest (64 hex digits)",
        PATCH_USAGE,
      );
    }
    const config = rootConfig(parsed);
    if (typeof config === "string") return usageError(io, "patch", config, PATCH_USAGE);
    return print(
      io,
      semanticPatch(config, {
        operation: "fix",
        diagnostic: parsed.positionals.get("ID")!,
        fix: Number(index),
        state,
      }),
    );
  }
  return usageError(io, "patch", "the operation must be rename or fix", PATCH_USAGE);
}

const DIAGNOSTICS_USAGE = "diagnostics ROOT | diagnostics ID --state STATE --root ROOT";

/** `nazm diagnostics ROOT` (the index) and `nazm diagnostics ID --state S --root ROOT` (one in full). */
export function diagnostics(io: CommandIo): number {
  const parsed = parseArgs(io.args, {
    values: [...ROOT_OPTIONS, "state"],
    positionals: ["ID_OR_ROOT"],
    optional: ["ID_OR_ROOT"],
  });
  if (typeof parsed === "string") return usageError(io, "diagnostics", parsed, DIAGNOSTICS_USAGE);
  const state = parsed.values.get("state");
  const positional = parsed.positionals.get("ID_OR_ROOT");
  if (state === undefined) {
    if (parsed.values.has("root") && positional !== undefined) {
      return usageError(io, "diagnostics", "give the root once", DIAGNOSTICS_USAGE);
    }
    const config = rootConfig(parsed, positional);
    if (typeof config === "string") return usageError(io, "diagnostics", config, DIAGNOSTICS_USAGE);
    return print(io, diagnosticsIndex(config));
  }
  if (positional === undefined) {
    return usageError(io, "diagnostics", "missing ID", DIAGNOSTICS_USAGE);
  }
  if (!isDigest(state)) {
    return usageError(
      io,
      "diagnostics",
      "--state must be a state.source digest (64 hex digits)",
      DIAGNOSTICS_USAGE,
    );
  }
  const config = rootConfig(parsed);
  if (typeof config === "string") return usageError(io, "diagnostics", config, DIAGNOSTICS_USAGE);
  return print(io, diagnosticDetail(config, { id: positional, state }));
}
