/**
 * The server layer's public entry: what main.ts (nazm-mcp) and the tests use.
 *
 * @module
 */
export { parseArgs, resolvePaths, USAGE } from "./args.ts";
export { AnalysisBridge, analysisWorkerOptions, SANDBOX_MODULE, WORKER_MODULE } from "./bridge.ts";
export { createLogger, type Logger, logLevelFromEnv } from "./log.ts";
export { PUBLISHED_SCHEMAS, type Refusal, schemaFileText } from "../contracts/mod.ts";
export { findTool, TOOLS } from "./registry.ts";
export { startServer, TOOL_ANNOTATIONS } from "./server.ts";
export type { ToolValidators } from "./schema_validators.ts";
export { MAX_LINE_BYTES } from "./transport.ts";
export type { ServerPaths, ToolContext, ToolDefinition, ToolOutcome } from "./types.ts";
