/**
 * `nazm docs`: Nazm's documentation by section, printing exactly the JSON
 * the server's nazm.docs_index and nazm.docs_section tools return.
 *
 *     nazm docs index [--document ID] [--docs DIR]
 *     nazm docs section ID --state STATE [--docs DIR]
 *
 * `--docs` names the docs repository (the folder holding nazm-repo.json); by
 * default it is the repository this program was built from. The arguments
 * are checked by the tools' own input schemas. Exit status: 0 for an
 * answer, 1 for a refusal (its JSON is printed all the same), 2 for a
 * command line that is not one of the forms above.
 *
 * @module
 */
import { DocsIndexInput, DocsSectionInput } from "../contracts/mod.ts";
import { docsIndex, docsSection } from "../docs/mod.ts";
import { parseArgs } from "./args.ts";
import { type CommandIo, printOutcome, toolArguments, usageError } from "./io.ts";

export const DOCS_USAGE =
  "docs index [--document ID] [--docs DIR] | docs section ID --state STATE [--docs DIR]";

/** `nazm docs index` and `nazm docs section`. */
export function docs(io: CommandIo): number {
  const [operation, ...rest] = io.args;
  const usage = (problem: string) => usageError(io, "docs", problem, DOCS_USAGE);
  if (operation === "index") {
    const parsed = parseArgs(rest, { values: ["document", "docs"], positionals: [] });
    if (typeof parsed === "string") return usage(parsed);
    const args = toolArguments(DocsIndexInput, { document: parsed.values.get("document") });
    if (args.kind === "invalid") return usage(args.problem);
    return printOutcome(io, docsIndex(parsed.values.get("docs") ?? io.repository, args.value));
  }
  if (operation === "section") {
    const parsed = parseArgs(rest, { values: ["state", "docs"], positionals: ["ID"] });
    if (typeof parsed === "string") return usage(parsed);
    if (!parsed.values.has("state")) return usage("missing --state STATE");
    const args = toolArguments(DocsSectionInput, {
      id: parsed.positionals.get("ID"),
      state: parsed.values.get("state"),
    });
    if (args.kind === "invalid") return usage(args.problem);
    return printOutcome(io, docsSection(parsed.values.get("docs") ?? io.repository, args.value));
  }
  return usage(
    operation === undefined ? "missing index or section" : `unknown operation \`${operation}\``,
  );
}
