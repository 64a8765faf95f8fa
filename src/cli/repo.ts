/**
 * `nazm repo`: the repository map and the minimum context for a task,
 * printing exactly the JSON the server's nazm.repository_map and
 * nazm.task_context tools return.
 *
 *     nazm repo map [--docs DIR]
 *     nazm repo context SEED... --state STATE [--intent I] [--max-items N] [--max-bytes N] [--docs DIR]
 *
 * `--docs` names the repository (the folder holding nazm-repo.json); by
 * default it is the repository this program was built from. The arguments
 * are checked by the tool's own input schema. Exit status: 0 for an answer,
 * 1 for a refusal (its JSON is printed all the same), 2 for a command line
 * that is not one of the forms above.
 *
 * @module
 */
import { TaskContextInput } from "../contracts/mod.ts";
import { repositoryMap, taskContext } from "../repo/mod.ts";
import { parseArgs } from "./args.ts";
import { type CommandIo, printOutcome, toolArguments, usageError } from "./io.ts";

export const REPO_USAGE = "repo map [--docs DIR] | repo context SEED... --state STATE " +
  "[--intent understand|edit|diagnose|test] [--max-items N] [--max-bytes N] [--docs DIR]";

/** `nazm repo map` and `nazm repo context`. */
export function repo(io: CommandIo): number {
  const [operation, ...rest] = io.args;
  const usage = (problem: string) => usageError(io, "repo", problem, REPO_USAGE);
  if (operation === "map") {
    const parsed = parseArgs(rest, { values: ["docs"], positionals: [] });
    if (typeof parsed === "string") return usage(parsed);
    return printOutcome(io, repositoryMap(parsed.values.get("docs") ?? io.repository));
  }
  if (operation === "context") {
    const parsed = parseArgs(rest, {
      values: ["state", "intent", "max-items", "max-bytes", "docs"],
      positionals: [],
      rest: "SEED...",
    });
    if (typeof parsed === "string") return usage(parsed);
    if (!parsed.values.has("state")) return usage("missing --state STATE");
    const maxItems = parsed.values.get("max-items");
    const maxBytes = parsed.values.get("max-bytes");
    const budget = maxItems === undefined && maxBytes === undefined ? undefined : {
      max_items: wholeNumber(maxItems),
      max_bytes: wholeNumber(maxBytes),
    };
    const args = toolArguments(TaskContextInput, {
      seeds: parsed.rest,
      state: parsed.values.get("state"),
      intent: parsed.values.get("intent"),
      budget,
    });
    if (args.kind === "invalid") return usage(args.problem);
    return printOutcome(io, taskContext(parsed.values.get("docs") ?? io.repository, args.value));
  }
  return usage(
    operation === undefined ? "missing map or context" : `unknown operation \`${operation}\``,
  );
}

/** Digits as a number; anything else as given, for the input schema to refuse by name. */
function wholeNumber(text: string | undefined): number | string | undefined {
  return text !== undefined && /^[0-9]+$/.test(text) ? Number(text) : text;
}
