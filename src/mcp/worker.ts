/**
 * The analysis worker's entry: the only code of nazm-mcp that touches the
 * files it answers about. bridge.ts starts it with read permission on the
 * source root and the docs repository and nothing else.
 *
 * @module
 */
import { compileRoot } from "../facts/mod.ts";
import { TOOLS } from "./registry.ts";
import { serveToolsInWorker } from "./worker_host.ts";

// The first analysis of the root, with its model (what most tools read),
// made while the client is still starting: the same the first call would
// make, kept in the cache as any call's is.
serveToolsInWorker(TOOLS, (context) => {
  const compilation = compileRoot(context.paths, { cache: context.facts.cache });
  if (compilation.rootError === null && !compilation.needsSyntaxRecovery) void compilation.model;
});
