/** A tool's context for a test: the paths, and no cache unless one is given. */
import type { FactCache } from "../../src/facts/mod.ts";
import type { ServerPaths, ToolContext } from "../../src/mcp/mod.ts";

export function toolContext(paths: ServerPaths, cache?: FactCache): ToolContext {
  return { paths, facts: cache === undefined ? {} : { cache } };
}
