/**
 * The root's compilation as it is on disk now, its source state, and the
 * matching of a `file` argument against the compilation's own files.
 *
 * @module
 */
import { join } from "node:path";
import {
  blake3,
  blake3Framed,
  type KnownFiles,
  newKnownFiles,
  retainKnownFiles,
} from "../base/mod.ts";
import {
  type Compilation,
  type CompiledFile,
  type Engine,
  type FileMemo,
  loadCompilation,
  type LoadedFiles,
  loadParsed,
  moduleNameOf,
  newEngine,
  type ParseCache,
  type ParsedCompilation,
  parseKey,
} from "../semantics/mod.ts";
import { type CleanFile, cleanFilesOf, type CleanVerdict } from "../semantics/clean.ts";

/** What every fact is about: fixed for a server's lifetime. Both paths absolute. */
export interface RootConfig {
  readonly root: string;
  readonly sourceRoot: string;
}

/**
 * What a long-lived caller (the server's worker, the language server) keeps
 * between calls: the files read, answered from memory while `lstat` proves
 * them unchanged (src/base/files.ts), their digests and line indexes, parse
 * results by file digest, and the incremental engine
 * (src/semantics/engine.ts) with the last analysis of the disk, from which
 * the next is computed checking only what an edit reaches. Answers are
 * byte-identical with and without the cache (tests run both ways).
 */
export interface FactCache {
  readonly files: KnownFiles;
  readonly memo: FileMemo;
  readonly parses: ParseCache;
  readonly engine: Engine;
  /**
   * Files another parse found clean (the server's sandbox, before the
   * analysis started: semantics/clean.ts), until the first whole analysis:
   * until then {@link parseRoot} reads them from skims, kept in `skims`.
   */
  readonly clean: Map<string, CleanFile>;
  readonly skims: ParseCache;
}

/** An empty cache; `clean`, the verdicts of another parse's syntax check, when it ran. */
export function newFactCache(clean: Iterable<CleanVerdict> = []): FactCache {
  return {
    files: newKnownFiles(),
    memo: new WeakMap(),
    parses: new Map(),
    engine: newEngine(),
    clean: cleanFilesOf(clean),
    skims: new Map(),
  };
}

/**
 * Forgets what the compilation just made no longer reads: an edited file's
 * old parse, a deleted file's bytes (each would otherwise stay for the
 * server's lifetime).
 */
export function pruneFactCache(cache: FactCache, compilation: LoadedFiles): void {
  const live = new Set(compilation.files.map((f) => parseKey(f.path, f.digest)));
  for (const key of cache.parses.keys()) if (!live.has(key)) cache.parses.delete(key);
  for (const key of cache.skims.keys()) if (!live.has(key)) cache.skims.delete(key);
  const read = [...compilation.files, ...compilation.rejected];
  retainKnownFiles(cache.files, new Set(read.map((f) => join(compilation.sourceRoot, f.path))));
}

/** Options that change how, never what, a fact is computed. */
export interface FactOptions {
  readonly cache?: FactCache;
}

/** Where the root's files are, and what of the cache reading and parsing them reuse. */
function loading(config: RootConfig, cache: FactCache | undefined) {
  return {
    sourceRoot: config.sourceRoot,
    known: cache?.files,
    memo: cache?.memo,
    cache: cache?.parses,
  };
}

/** Loads the root's compilation from disk, as `nazm check` does. */
export function compileRoot(config: RootConfig, options: FactOptions = {}): Compilation {
  const cache = options.cache;
  const compilation = loadCompilation(config.root, {
    ...loading(config, cache),
    engine: cache?.engine,
  });
  if (cache !== undefined) {
    pruneFactCache(cache, compilation);
    // Every file of a whole analysis is parsed in full and cached: the
    // skims and the verdicts they were made on serve no one any more.
    cache.skims.clear();
    cache.clean.clear();
  }
  return compilation;
}

/**
 * Reads and parses the root's compilation from disk as {@link compileRoot}
 * does, and analyses nothing: its {@link ParsedCompilation.focus} answers
 * for a few modules without checking the whole program. The parses stay in
 * the cache for the whole analysis that follows. Files the cache's `clean`
 * verdicts name with their digest are read from skims where no focus needs
 * their bodies (semantics/compile.ts `loadParsed`); the whole analysis
 * parses them in full.
 */
export function parseRoot(config: RootConfig, options: FactOptions = {}): ParsedCompilation {
  const cache = options.cache;
  const parsed = loadParsed(config.root, {
    ...loading(config, cache),
    clean: cache?.clean,
    skims: cache?.skims,
  });
  if (cache !== undefined) pruneFactCache(cache, parsed);
  return parsed;
}

/**
 * Whether a whole analysis is at hand: the cache's engine has one, so the
 * next (of the disk as it is, or after an edit) costs what the edit reaches.
 * Without one, an answer about a few modules is quicker from a focus.
 */
export function hasAnalysis(options: FactOptions): boolean {
  return options.cache !== undefined && options.cache.engine.state !== null;
}

/**
 * The compilation `compilation` would be with some files' bytes replaced:
 * loaded through the same entry point as every fact, from memory alone — the
 * bytes and read outcomes the compilation had, the replacements over them —
 * so nothing is read again and a file changed on disk since cannot slip in.
 * Unchanged files reuse their parses (the cache's, or the compilation's own),
 * and with a cache the analysis is incremental over the engine's last one
 * (the disk's, `compilation` itself when it came from the same cache): only
 * the edited modules and what their interfaces reach are checked again. It
 * is not kept as the engine's last analysis: it is not the disk's.
 */
export function compileEdited(
  compilation: Compilation,
  replaced: ReadonlyMap<string, Uint8Array>,
  options: FactOptions = {},
): Compilation {
  const bytes = new Map<string, Uint8Array>();
  const keep = (file: { readonly path: string; readonly bytes: Uint8Array }) =>
    bytes.set(join(compilation.sourceRoot, file.path), replaced.get(file.path) ?? file.bytes);
  compilation.files.forEach(keep);
  for (const file of compilation.rejected) {
    // A file refused as too large was never read: `unread` holds its refusal.
    if (file.tooLarge === null || replaced.has(file.path)) keep(file);
  }
  const parses: ParseCache = options.cache?.parses ??
    new Map(compilation.files.map((f) => [parseKey(f.path, f.digest), f.parse]));
  return loadCompilation(join(compilation.sourceRoot, compilation.root), {
    sourceRoot: compilation.sourceRoot,
    cache: parses,
    memo: options.cache?.memo,
    engine: options.cache?.engine,
    commit: false,
    host: {
      readFile(path: string) {
        return bytes.get(path) ?? compilation.unread.get(path) ??
          { error: "not_found", message: "not read by the compilation" };
      },
    },
  });
}

/** The root's module path (`main`, `app.main`): what an answer names as its root. */
export function rootModule(compilation: LoadedFiles): string {
  return moduleNameOf(compilation.root);
}

const TOO_LARGE_MARK = new Uint8Array([0xff]);

/**
 * What a snapshot and a delta say their root is, beyond the module name
 * that two programs may share: the root file relative to the source root,
 * and the BLAKE3 of the source root's absolute real path — the same for
 * the same program in the same place (the server's whole lifetime, and
 * later runs), different for another program, without publishing the path.
 */
export interface RootIdentity {
  readonly module: string;
  readonly file: string;
  readonly source_root: string;
}

/** The root identity of a compilation. */
export function rootIdentity(compilation: LoadedFiles): RootIdentity {
  return {
    module: rootModule(compilation),
    file: compilation.root,
    source_root: blake3(compilation.sourceRoot),
  };
}

/**
 * What a packet, a snapshot and a delta mark unsupported — facts the
 * compiler does not have — rather than leave empty or call unchanged.
 */
export { UNSUPPORTED } from "../contracts/plain.ts";

/**
 * `state.source`: BLAKE3 over the relative path and bytes of each file the
 * compilation read — parsed or rejected as not UTF-8 — in path order, each
 * part length-framed; a file refused as too large (never read past the
 * limit) contributes its path, the byte 0xFF (which no file's bytes can be
 * in its place: a parsed file is UTF-8, and a path ends in `.nz`) and the
 * refusal, which names its size. Any edit of a file read, and any change to
 * which files are read, changes it.
 */
export function sourceState(compilation: LoadedFiles): string {
  const read = [
    ...compilation.files.map((f) => ({ path: f.path, bytes: f.bytes, tooLarge: null })),
    ...compilation.rejected,
  ].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const parts: (string | Uint8Array)[] = [];
  for (const file of read) {
    if (file.tooLarge === null) parts.push(file.path, file.bytes);
    else parts.push(file.path, TOO_LARGE_MARK, file.tooLarge);
  }
  return blake3Framed(parts);
}

/**
 * The compiled file a `file` argument names: its path relative to the source
 * root exactly as the compilation lists it, or that file's absolute path.
 * Nothing is resolved against the disk: `../x.nz`, `/etc/passwd` or a link
 * name that merely points at a loaded file are not in the list, so they are
 * refused without being opened.
 */
export function matchFile(
  compilation: LoadedFiles,
  argument: string,
): CompiledFile | null {
  const prefix = compilation.sourceRoot.endsWith("/") || compilation.sourceRoot.endsWith("\\")
    ? compilation.sourceRoot
    : compilation.sourceRoot + "/";
  for (const file of compilation.files) {
    if (argument === file.path || argument === prefix + file.path) return file;
    // Windows clients write the absolute form with backslashes.
    if (argument.replaceAll("\\", "/") === (prefix + file.path).replaceAll("\\", "/")) return file;
  }
  return null;
}
