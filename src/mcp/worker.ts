/**
 * The analysis worker's entry: the code of nazm-mcp that answers about the
 * files. It holds no read permission: the sandbox reads for it (reads.ts).
 *
 * @module
 */
import { compileRoot, parseRoot } from "../facts/mod.ts";
import { HANDLERS, preloadLayers } from "./handlers.ts";
import { serveToolsInWorker } from "./worker_host.ts";

// While the client is still starting: first the files read and parsed (the
// clean ones the sandbox found left to skims, each made when a focus binds
// its module), then the first whole analysis of the root with its model
// (what most tools read), kept in the cache as any call's is. A call that
// comes between the two answers from the parses alone where it can:
// nazm.semantic_context checks only the modules that can name its target
// (facts/context.ts). The documentation and repository layers, which no
// fact needs (handlers.ts), load before the worker says it is ready: after
// that it may load nothing (worker_host.ts).
serveToolsInWorker(HANDLERS, [
  (context) => void parseRoot(context.paths, { cache: context.facts.cache }),
  (context) => {
    const compilation = compileRoot(context.paths, { cache: context.facts.cache });
    if (compilation.rootError === null && !compilation.needsSyntaxRecovery) void compilation.model;
  },
], preloadLayers());
