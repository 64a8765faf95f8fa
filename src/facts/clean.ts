/**
 * The syntax check the server's sandbox runs while the analysis worker
 * starts (src/mcp/sandbox.ts): which of the root's files parse without a
 * diagnostic, by path and digest (semantics/clean.ts). Its verdicts are
 * hints for the analysis' first parse (source.ts `newFactCache`), never
 * facts of an answer.
 *
 * An entry of this layer besides mod.ts, importing the semantics layer's
 * light entry clean.ts (tests/architecture/layers.ts): the sandbox loads
 * this alone, and the checker's modules would double its loading time.
 *
 * @module
 */
import { cleanRootFiles, type CleanVerdict } from "../semantics/clean.ts";
import type { KnownFiles } from "../base/mod.ts";
import type { RootConfig } from "./source.ts";

export type { CleanVerdict };

/** The verdicts on the root's files, one file a step (see semantics/clean.ts `cleanFiles`). */
export function checkRootSyntax(
  config: RootConfig,
  reached?: string[],
  known?: KnownFiles,
): Generator<CleanVerdict | null> {
  return cleanRootFiles(config.root, config.sourceRoot, reached, known);
}
