/**
 * The validators `deno task schemas` generated for the tools' published
 * schemas (src/mcp/validators/), apart from server.ts so that main.ts can
 * start loading them with the analysis: the process's read permission is
 * revoked once they have loaded (bridge.ts `startConfinedAnalysis`), and
 * the first analysis waits for that.
 *
 * @module
 */
import type { ToolNaming } from "./publishing.ts";
import type { GeneratedValidator } from "./validators/validators.d.ts";

/** A validator of each tool's published schema, keyed by canonical tool name. */
export type ToolValidators = Readonly<Record<string, GeneratedValidator>>;

/**
 * The validators for the tool names of `naming`. Only that naming's module
 * loads (about 745 KB of code).
 */
export function generatedValidators(naming: ToolNaming): Promise<ToolValidators> {
  const generated = naming === "dotted"
    ? import("./validators/dotted.js")
    : import("./validators/underscore.js");
  return generated.then((module) => module.validators);
}
