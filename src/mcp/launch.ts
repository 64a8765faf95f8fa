/**
 * The server layer's second entry, for main.ts alone: what the process needs
 * before the MCP SDK and the tools' contracts load — the arguments, the log
 * and the analysis. main.ts starts the analysis from here, so its worker
 * loads and the first analysis runs while the rest of the server (mod.ts)
 * is still loading: about 160 ms of a cold start (bench/README.md, "mcp").
 * Nothing here may import the SDK, zod, the registry or src/base/mod.ts
 * (base/launch.ts says why).
 *
 * @module
 */
export { parseArgs, resolvePaths, USAGE } from "./args.ts";
export { startConfinedAnalysis } from "./bridge.ts";
export { createLogger, logLevelFromEnv } from "./log.ts";
export { generatedValidators } from "./schema_validators.ts";
