/**
 * The shapes every tool of nazm-mcp is written against: a tool definition,
 * the context it runs in, and the outcome it returns.
 *
 * A tool is one file `src/mcp/tools/<name>.ts` whose default export is a
 * {@link ToolDefinition}, read on the main thread, and one
 * {@link ToolHandler} in handlers.ts, run only inside the analysis worker
 * (src/mcp/worker.ts) under Deno permissions that allow reading the source
 * root and the docs repository and nothing else. The two halves are apart
 * so that the worker loads no zod (handlers.ts says why).
 *
 * @module
 */
import type { z } from "zod";
import type { Outcome } from "../contracts/mod.ts";
import type { FactOptions } from "../facts/mod.ts";

/** Where a tool may look: fixed for the server's lifetime, absolute and real. */
export interface ServerPaths {
  /** The root module file (`--root`). */
  readonly root: string;
  /** The folder imports resolve under (`--source-root`, default the root's folder). */
  readonly sourceRoot: string;
  /** The documentation repository (`--docs`, default the one the server was built from). */
  readonly docsRoot: string;
}

/**
 * What a tool runs with: the paths, and how facts are computed — the
 * worker's cache of parses and the last analysis, kept between calls and
 * keyed by file digests (answers are byte-identical without it).
 */
export interface ToolContext {
  readonly paths: ServerPaths;
  readonly facts: FactOptions;
}

/**
 * What a tool's handler returns: the fact's own outcome, passed on unchanged.
 * A refusal becomes a tool result with `isError: true` whose structured
 * content is the refusal, valid against the tool's published output schema.
 */
export type ToolOutcome = Outcome<unknown, string>;

/** Any zod object schema (a tool's input is a strict one). */
// deno-lint-ignore no-explicit-any
export type AnyZodObject = z.ZodObject<any, any>;

/**
 * One tool's protocol metadata, read on the main thread to publish
 * tools/list and to check every call's arguments; what it does is its
 * handler's (handlers.ts), under the same name.
 */
export interface ToolDefinition<Input extends AnyZodObject = AnyZodObject> {
  /** The tool's name, exactly as the seed spells it (`nazm.docs_index`). */
  readonly name: string;
  /** A short human title. */
  readonly title: string;
  /**
   * One paragraph written for an agent: what it answers, when to call it,
   * what to call next.
   */
  readonly description: string;
  /** The arguments: a strict zod v4 object (`z.strictObject`). */
  readonly input: Input;
  /** The published output schema's file name under schema/ (`nazm.docs-index-1.json`). */
  readonly outputSchema: string;
}

/** Declares a tool. */
export function defineTool<Input extends AnyZodObject>(
  tool: ToolDefinition<Input>,
): ToolDefinition<Input> {
  return tool;
}

/**
 * What a tool does: derives its outcome from disk, in the analysis worker
 * alone, from arguments the main thread has already checked against the
 * tool's input (so they are its `z.output`). May be async.
 */
export type ToolHandler = (
  args: Readonly<Record<string, unknown>>,
  context: ToolContext,
) => ToolOutcome | Promise<ToolOutcome>;
