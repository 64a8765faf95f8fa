/**
 * The one seam between the language server and the compiler: the
 * compilation of the editor's open buffers over the disk. Everything the
 * server answers about the root's program comes from {@link compileSources};
 * nothing else here loads or reads source files.
 *
 * The seam is the loader's injectable {@link SourceHost}: an open buffer's
 * bytes stand for its file, every other file is read from disk by the
 * loader's own confined read; the incremental engine (semantics/engine.ts)
 * sees those contents as its one input, as nazm-mcp's sees the disk's.
 *
 * @module
 */
import { type FactCache, pruneFactCache, type RootConfig } from "../facts/mod.ts";
import { type Compilation, diskHost, loadCompilation, type SourceHost } from "../semantics/mod.ts";

/** The open buffers, by absolute path under the source root, as UTF-8 bytes. */
export type Buffers = ReadonlyMap<string, Uint8Array>;

/**
 * The root's compilation with every open buffer in place of its file.
 * Without `resolve` it is incremental over the cache's engine (the last
 * analysis it made: an edit checks again only what it reaches, as in
 * nazm-mcp); with `resolve` the checker's resolutions are recorded, for the
 * inferred types an editor shows, by a whole analysis that the engine does
 * not keep. Parse results are reused through `cache` by file digest.
 * Answers are the same without either reuse.
 */
export function compileSources(
  config: RootConfig,
  buffers: Buffers,
  cache: FactCache,
  resolve: boolean,
): Compilation {
  const disk = diskHost(config.sourceRoot, cache.files);
  const host: SourceHost = {
    readFile(path, limit) {
      const open = buffers.get(path);
      if (open === undefined) return disk.readFile(path, limit);
      if (open.length > limit) {
        return {
          error: "too_large",
          message: `the open buffer is ${open.length} bytes, over the limit of ${limit}`,
        };
      }
      return open;
    },
  };
  const compilation = loadCompilation(config.root, {
    sourceRoot: config.sourceRoot,
    host,
    memo: cache.memo,
    cache: cache.parses,
    resolve,
    engine: resolve ? undefined : cache.engine,
  });
  // Each keystroke's parse would otherwise stay.
  pruneFactCache(cache, compilation);
  return compilation;
}
