/**
 * The tool registry: every tool nazm-mcp offers, in tools/list order (the
 * seed's order).
 *
 * To add a tool: write `src/mcp/tools/<name>.ts` with a default export made
 * by `defineTool` (see types.ts), import it here and add it to `TOOLS`, and
 * give it a handler under the same name in handlers.ts. Its `outputSchema`
 * must name a file listed in published.ts.
 *
 * The main thread's half of the registry: names, inputs and schema file
 * names. The worker never imports it (handlers.ts says why).
 *
 * @module
 */
import commandSummary from "./tools/command_summary.ts";
import diagnosticDetail from "./tools/diagnostic_detail.ts";
import diagnostics from "./tools/diagnostics.ts";
import docsIndex from "./tools/docs_index.ts";
import docsSection from "./tools/docs_section.ts";
import repositoryMap from "./tools/repository_map.ts";
import semanticContext from "./tools/semantic_context.ts";
import semanticDelta from "./tools/semantic_delta.ts";
import semanticPatch from "./tools/semantic_patch.ts";
import semanticSnapshot from "./tools/semantic_snapshot.ts";
import taskContext from "./tools/task_context.ts";
import type { ToolDefinition } from "./types.ts";

/** Every tool, in the order tools/list publishes them. */
export const TOOLS: readonly ToolDefinition[] = [
  semanticContext,
  semanticSnapshot,
  semanticDelta,
  semanticPatch,
  diagnostics,
  diagnosticDetail,
  commandSummary,
  docsIndex,
  docsSection,
  repositoryMap,
  taskContext,
] as readonly ToolDefinition[];

/** The tool with this exact name, or undefined. */
export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
