/**
 * The one seam between the language server and the compiler: the
 * compilation of the editor's open buffers over the disk. Everything the
 * server answers about the root's program comes from {@link compileSources};
 * nothing else here loads or reads source files.
 *
 * Today the seam is the loader's injectable {@link SourceHost}: an open
 * buffer's bytes stand for its file, every other file is read from disk by
 * the loader's own confined read. When the pipeline takes the file contents
 * as its one input, this function becomes "the contents: buffers over disk"
 * handed to it, and nothing else in src/lsp changes.
 *
 * @module
 */
import type { RootConfig } from "../facts/mod.ts";
import type { FactCache } from "../facts/mod.ts";
import { type Compilation, diskHost, loadCompilation, type SourceHost } from "../semantics/mod.ts";

/** The open buffers, by absolute path under the source root, as UTF-8 bytes. */
export type Buffers = ReadonlyMap<string, Uint8Array>;

/**
 * The root's compilation with every open buffer in place of its file. The
 * checker's resolutions are recorded (`resolve`), for the inferred types an
 * editor shows. Parse results are reused through `cache` by file digest, as
 * nazm-mcp reuses them; answers are the same without it. The last analysis
 * is not: the workspace keeps its own until the next change, and an old one
 * kept alive while the next is made would double the peak memory.
 */
export function compileSources(
  config: RootConfig,
  buffers: Buffers,
  cache: FactCache,
): Compilation {
  const disk = diskHost(config.sourceRoot);
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
    cache: cache.parses,
    resolve: true,
  });
  // Keep only what the current sources can reuse: each keystroke's parse would otherwise stay.
  const live = new Set(compilation.files.map((f) => f.digest));
  for (const digest of cache.parses.keys()) if (!live.has(digest)) cache.parses.delete(digest);
  return compilation;
}
