/**
 * The body of an analysis worker: receives the context once, then
 * `{ id, tool, args }` calls, runs the named tool and posts its outcome. A
 * tool that throws gives an `internal_error` reply; the worker keeps going.
 * worker.ts serves the registry's tools with it; tests serve test tools.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import type { CallMessage, InitMessage, ReplyMessage } from "./protocol.ts";
import { newFactCache } from "../facts/mod.ts";
import type { ToolContext, ToolDefinition, ToolOutcome } from "./types.ts";

/** Serves these tools in the current worker. */
export function serveToolsInWorker(tools: readonly ToolDefinition[]): void {
  let context: ToolContext | undefined;
  self.onmessage = async (event: MessageEvent<InitMessage | CallMessage>) => {
    const message = event.data;
    if (message.type === "init") {
      context = Object.freeze({ ...message.context, cache: newFactCache() });
      return;
    }
    self.postMessage(await runCall(tools, context, message));
  };
  // Only now can a message be received: one posted while a module of this
  // worker was still evaluating (digest.ts awaits at top level) would be
  // dispatched to no handler and lost. The bridge sends nothing before this.
  self.postMessage(READY);
}

/** The worker's first message: it is listening. */
export const READY = { type: "ready" } as const;

/** Runs one call; never throws. */
export async function runCall(
  tools: readonly ToolDefinition[],
  context: ToolContext | undefined,
  call: CallMessage,
): Promise<ReplyMessage> {
  try {
    if (context === undefined) {
      throw new Error("the worker received a call before its context");
    }
    const tool = tools.find((candidate) => candidate.name === call.tool);
    if (tool === undefined) throw new Error(`no tool named ${call.tool}`);
    const args = tool.input.parse(call.args);
    const outcome: ToolOutcome = await tool.run(args, context);
    if (outcome?.kind === "answer") {
      return { id: call.id, kind: "answer", value: outcome.value };
    }
    if (outcome?.kind === "refusal") {
      return { id: call.id, kind: "refusal", value: outcome.value };
    }
    throw new Error(`${call.tool} returned no answer and no refusal`);
  } catch (error) {
    return {
      id: call.id,
      kind: "internal_error",
      message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    };
  }
}
