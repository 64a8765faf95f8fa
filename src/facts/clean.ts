/**
 * The syntax check the server's sandbox runs while the analysis worker
 * starts (src/mcp/sandbox.ts): which of the root's files parse without a
 * diagnostic, by path and digest (semantics/clean.ts). Its verdicts are
 * hints for the analysis' first parse (source.ts `newFactCache`), never
 * facts of an answer.
 *
 * Imports the two semantics modules it needs, not semantics/mod.ts: the
 * sandbox loads this alone, and the checker's modules would double its
 * loading time.
 *
 * @module
 */
import { type CleanFiles, cleanFiles } from "../semantics/clean.ts";
import { openSources } from "../semantics/load.ts";
import type { RootConfig } from "./source.ts";

export type { CleanFiles };

/** The verdicts on the root's files, one file a step (see semantics/clean.ts `cleanFiles`). */
export function checkRootSyntax(config: RootConfig): Generator<readonly [string, string] | null> {
  return cleanFiles(openSources(config.root, { sourceRoot: config.sourceRoot }));
}
