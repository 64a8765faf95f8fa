/**
 * `nazm repo`: the repository map and the minimum context for a task,
 * printing exactly the JSON the server's nazm.repository_map and
 * nazm.task_context tools return.
 *
 *     nazm repo map [--docs DIR]
 *     nazm repo context SEED... --state STATE [--intent I] [--max-items N] [--max-bytes N] [--docs DIR]
 *
 * `--docs` names the repository (the folder holding nazm-repo.json); by
 * default it is the repository this program was built from. Exit status: 0
 * for an answer, 1 for a refusal (its JSON is printed all the same), 2 for a
 * command line that is not one of the forms above.
 *
 * @module
 */
import { defaultDocsRoot } from "../docs/mod.ts";
import { type Intent, INTENTS, repositoryMap, taskContext } from "../repo/mod.ts";
import type { CliOutput } from "./docs.ts";

/** The usage text, printed on a usage error. */
export const REPO_USAGE = `usage:
  nazm repo map [--docs DIR]
  nazm repo context SEED... --state STATE [--intent understand|edit|diagnose|test]
                    [--max-items N] [--max-bytes N] [--docs DIR]`;

const defaultOutput: CliOutput = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
};

type Flag = "docs" | "state" | "intent" | "max-items" | "max-bytes";
const FLAGS: readonly Flag[] = ["docs", "state", "intent", "max-items", "max-bytes"];

/** Runs `nazm repo` with the arguments after `repo`; returns the exit status. */
export function repoCommand(args: readonly string[], output: CliOutput = defaultOutput): number {
  const usage = (message: string) => {
    output.err(`nazm repo: ${message}\n${REPO_USAGE}`);
    return 2;
  };
  const [command, ...rest] = args;
  if (command !== "map" && command !== "context") {
    return usage(command === undefined ? "missing subcommand" : `unknown subcommand ${command}`);
  }
  const positional: string[] = [];
  const flags: Partial<Record<Flag, string>> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = (eq < 0 ? arg.slice(2) : arg.slice(2, eq)) as Flag;
    if (!FLAGS.includes(name)) return usage(`unknown option ${arg}`);
    if (flags[name] !== undefined) return usage(`--${name} given twice`);
    if (eq >= 0) flags[name] = arg.slice(eq + 1);
    else if (i + 1 < rest.length) flags[name] = rest[++i];
    else return usage(`--${name} needs a value`);
  }
  const docsRoot = flags.docs ?? defaultDocsRoot();

  if (command === "map") {
    if (positional.length > 0 || Object.keys(flags).some((f) => f !== "docs")) {
      return usage("map takes only --docs");
    }
    const result = repositoryMap(docsRoot);
    output.out(JSON.stringify(result));
    return "status" in result ? 1 : 0;
  }

  if (positional.length === 0 || flags.state === undefined) {
    return usage("context takes one or more seeds and --state");
  }
  if (flags.intent !== undefined && !(INTENTS as readonly string[]).includes(flags.intent)) {
    return usage(`--intent must be one of ${INTENTS.join(", ")}`);
  }
  const budget: { max_items?: number; max_bytes?: number } = {};
  for (
    const [flag, key, min] of [["max-items", "max_items", 1], [
      "max-bytes",
      "max_bytes",
      0,
    ]] as const
  ) {
    const text = flags[flag];
    if (text === undefined) continue;
    if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
      return usage(`--${flag} must be a whole number of at least ${min}`);
    }
    budget[key] = Number(text);
  }
  const result = taskContext(docsRoot, {
    seeds: positional,
    state: flags.state,
    intent: flags.intent as Intent | undefined,
    budget: Object.keys(budget).length > 0 ? budget : undefined,
  });
  output.out(JSON.stringify(result));
  return "status" in result ? 1 : 0;
}

/**
 * The `nazm repo` entry of the dispatcher (src/cli/main.ts): the same
 * command over its arguments and writers; each line ends with a newline.
 */
export function repo(io: {
  readonly args: readonly string[];
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}): number {
  return repoCommand(io.args, {
    out: (text) => io.stdout(`${text}\n`),
    err: (text) => io.stderr(`${text}\n`),
  });
}

if (import.meta.main) Deno.exit(repoCommand(Deno.args));
