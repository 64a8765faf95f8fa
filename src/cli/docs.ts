/**
 * `nazm docs`: Nazm's documentation by section, printing exactly the JSON
 * the server's nazm.docs_index and nazm.docs_section tools return.
 *
 *     nazm docs index [--document ID] [--docs DIR]
 *     nazm docs section ID --state STATE [--docs DIR]
 *
 * `--docs` names the docs repository (the folder holding nazm-repo.json); by
 * default it is the repository this program was built from. The JSON is one
 * line, as the tool carries it. Exit status: 0
 * for an answer, 1 for a refusal (its JSON is printed all the same), 2 for a
 * command line that is not one of the forms above.
 *
 * @module
 */
import {
  defaultDocsRoot,
  type DocsIndex,
  docsIndex,
  type DocsIndexRefusal,
  type DocsSection,
  docsSection,
  type DocsSectionRefusal,
} from "../docs/mod.ts";

/** The usage text, printed on a usage error. */
export const DOCS_USAGE = `usage:
  nazm docs index [--document ID] [--docs DIR]
  nazm docs section ID --state STATE [--docs DIR]`;

/** Where the command writes: stdout for JSON, stderr for usage errors. */
export interface CliOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

const defaultOutput: CliOutput = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
};

/**
 * Runs `nazm docs` with the arguments after `docs`; returns the exit status.
 */
export function docsCommand(args: readonly string[], output: CliOutput = defaultOutput): number {
  const parsed = parseArgs(args);
  if ("error" in parsed) {
    output.err(`nazm docs: ${parsed.error}\n${DOCS_USAGE}`);
    return 2;
  }
  const docsRoot = parsed.flags.docs ?? defaultDocsRoot();
  let result: DocsIndex | DocsIndexRefusal | DocsSection | DocsSectionRefusal;
  if (parsed.command === "index") {
    if (parsed.positional.length > 0 || parsed.flags.state !== undefined) {
      output.err(`nazm docs: index takes no id and no --state\n${DOCS_USAGE}`);
      return 2;
    }
    result = docsIndex(docsRoot, { document: parsed.flags.document });
  } else {
    if (parsed.positional.length !== 1 || parsed.flags.state === undefined) {
      output.err(`nazm docs: section takes one id and --state\n${DOCS_USAGE}`);
      return 2;
    }
    if (parsed.flags.document !== undefined) {
      output.err(`nazm docs: section takes no --document\n${DOCS_USAGE}`);
      return 2;
    }
    result = docsSection(docsRoot, { id: parsed.positional[0], state: parsed.flags.state });
  }
  output.out(JSON.stringify(result));
  return "status" in result ? 1 : 0;
}

type Flag = "document" | "docs" | "state";
const FLAGS: readonly Flag[] = ["document", "docs", "state"];

function parseArgs(
  args: readonly string[],
):
  | { command: "index" | "section"; positional: string[]; flags: Partial<Record<Flag, string>> }
  | { error: string } {
  const [command, ...rest] = args;
  if (command !== "index" && command !== "section") {
    return {
      error: command === undefined ? "missing subcommand" : `unknown subcommand ${command}`,
    };
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
    if (!FLAGS.includes(name)) return { error: `unknown option ${arg}` };
    if (flags[name] !== undefined) return { error: `--${name} given twice` };
    if (eq >= 0) {
      flags[name] = arg.slice(eq + 1);
    } else {
      if (i + 1 >= rest.length) return { error: `--${name} needs a value` };
      flags[name] = rest[++i];
    }
  }
  return { command, positional, flags };
}

/**
 * The `nazm docs` entry of the dispatcher (src/cli/main.ts): the same
 * command over its arguments and writers; each line ends with a newline.
 */
export function docs(io: {
  readonly args: readonly string[];
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}): number {
  return docsCommand(io.args, {
    out: (text) => io.stdout(`${text}\n`),
    err: (text) => io.stderr(`${text}\n`),
  });
}

if (import.meta.main) Deno.exit(docsCommand(Deno.args));
