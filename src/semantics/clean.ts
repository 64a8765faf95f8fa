/**
 * Which files of a compilation parse clean: a full parse of each file the
 * root reaches, as {@link loadCompilation} reads them, keeping of each only
 * whether it has no syntax diagnostic, with the digest of the bytes parsed.
 *
 * What it is for: the server's sandbox runs it while the analysis worker is
 * still starting, and hands the analysis the clean files; the analysis then
 * reads those of them outside a focus from a skim (declarations only,
 * syntax/parser.ts `skimDeclarations`; with the body spans a verdict
 * carries, the bodies are not even lexed), instead of parsing them
 * (compile.ts `loadParsed`). It is a hint, never a fact: the analysis uses
 * a verdict only for bytes with the same digest as the ones it read itself.
 *
 * Light on purpose: only loading, the parser and the digest, so that the
 * sandbox can load it in a fraction of the analysis' modules' time; so it
 * is an entry of this layer besides mod.ts (tests/architecture/layers.ts).
 *
 * @module
 */
import { blake3, type KnownFiles } from "../base/mod.ts";
import { bodySpans, parse, type ParseResult } from "../syntax/mod.ts";
import { importModuleName } from "./binder.ts";
import { MAX_FILES, moduleNameOf, modulePath, openSources, type Sources } from "./load.ts";

/** A file a full parse found without any diagnostic. */
export interface CleanFile {
  /** BLAKE3 of the bytes parsed. */
  readonly digest: string;
  /** Its function and test bodies, `[start, end)` pairs (syntax `bodySpans`). */
  readonly bodies: readonly number[];
  /** The modules it imports, in order ({@link importedModules} of its parse). */
  readonly imports: readonly string[];
}

/** Clean files by relative path. */
export type CleanFiles = ReadonlyMap<string, CleanFile>;

/** A verdict as it travels between workers: path, digest, bodies, imports. */
export type CleanVerdict = readonly [string, string, readonly number[], readonly string[]];

/** The verdicts by path, as a compilation reads them. */
export function cleanFilesOf(verdicts: Iterable<CleanVerdict>): Map<string, CleanFile> {
  const files = new Map<string, CleanFile>();
  for (const [path, digest, bodies, imports] of verdicts) {
    files.set(path, { digest, bodies, imports });
  }
  return files;
}

/**
 * Files larger than this are left unchecked (no verdict: the analysis parses
 * them itself). The sandbox that runs the check has no heap limit of its
 * own, so what it holds at once is bounded by the largest file it parses.
 */
export const MAX_CHECKED_FILE_BYTES = 1024 * 1024;

/**
 * Parses the files the root of `sources` reaches, breadth first from the
 * root as a compilation reads them, one at a time, keeping no tree. Yields
 * after each file: its verdict when its parse has no diagnostic, else null.
 * A caller that stops pulling stops the check. `reached`, when given, is
 * added the path of every file found, checked or still to be, as it is
 * found: files the compilation reads. The caller may take them out.
 */
export function* cleanFiles(
  sources: Sources,
  reached: string[] = [],
): Generator<CleanVerdict | null> {
  if (sources.rootOutside !== null) return;
  const queue = [sources.root];
  reached.push(sources.root);
  const seen = new Set<string>([moduleNameOf(sources.root)]);
  for (let q = 0; q < queue.length && q < MAX_FILES; q++) {
    const path = queue[q];
    const read = sources.read(path);
    if (read.kind !== "text" || read.bytes.length > MAX_CHECKED_FILE_BYTES) {
      yield null;
      continue;
    }
    const parsed = parse(read.bytes, path);
    const imports = importedModules(parsed);
    for (const name of imports) {
      if (seen.has(name)) continue;
      seen.add(name);
      const found = modulePath(name);
      queue.push(found);
      reached.push(found);
    }
    yield parsed.diagnostics.length === 0
      ? [path, blake3(read.bytes), bodySpans(parsed.tree), imports]
      : null;
  }
}

/** {@link cleanFiles} of the root's files on disk, read as `loadCompilation` reads them. */
export function cleanRootFiles(
  root: string,
  sourceRoot: string,
  reached?: string[],
  known?: KnownFiles,
): Generator<CleanVerdict | null> {
  return cleanFiles(openSources(root, { sourceRoot, known }), reached);
}

/** The module paths a file imports, in order, skipping imports the parser could not read whole. */
export function importedModules(result: ParseResult): string[] {
  const names: string[] = [];
  for (const imp of result.tree.imports) {
    if (imp.path.length === 0) continue;
    if (imp.path.some((segment) => segment.text === "")) continue;
    names.push(importModuleName(imp));
  }
  return names;
}
