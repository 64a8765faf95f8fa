/**
 * The server layer's public entry: what main.ts (nazm-mcp) and the tests use.
 *
 * @module
 */
export { parseArgs, resolvePaths, type ServerPaths, USAGE } from "./args.ts";
export { analysisWorkerOptions, SANDBOX_MODULE, WORKER_MODULE } from "./bridge.ts";
export { createLogger, type Logger, logLevelFromEnv } from "./log.ts";
export { PUBLISHED_SCHEMAS } from "./published.ts";
export { findTool, TOOLS } from "./registry.ts";
export { schemaFileText } from "./schema_kit.ts";
export { startServer, TOOL_ANNOTATIONS } from "./server.ts";
export { MAX_LINE_BYTES } from "./transport.ts";
export type { Refusal, ToolContext, ToolDefinition, ToolOutcome } from "./types.ts";
