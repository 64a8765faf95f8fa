/**
 * The body of an analysis worker: receives the paths once, then
 * `{ id, tool, args }` calls, runs the named tool's handler and posts its
 * outcome. A handler that throws gives an `internal_error` reply; the worker
 * keeps going. worker.ts serves handlers.ts's handlers with it; tests serve
 * test tools.
 * It runs as a `node:worker_threads` worker, started by the main thread or,
 * after a failure, by the sandbox (sandbox.ts). Messages come down the
 * worker's own `globalThis` (a node worker has no `self`) and, when the
 * sandbox started it, also down the channel it gives at the start; they go
 * back up the former (why: sandbox.ts). Every read goes through the read
 * channel it is given (reads.ts): it holds no read permission of its own.
 *
 * @module
 */
import { type MessagePort, workerData } from "node:worker_threads";
import type { CallMessage, InitMessage, ReplyMessage } from "./protocol.ts";
import { join } from "node:path";
import { hintReads, readThrough } from "../base/mod.ts";
import { newFactCache } from "../facts/mod.ts";
import type { ReadChannel } from "./read_channel.ts";
import { readsThrough } from "./reads.ts";
import type { ToolContext, ToolHandler, ToolOutcome } from "./types.ts";

/**
 * Serves these handlers, by tool name, in the current worker. The `prepare`
 * steps, when the init message asks for them, fill the context's cache
 * ahead of the calls that will read it, each in its own timer: a call that
 * came meanwhile waits for the step under way and no other, and a step
 * waits for the calls waiting when it was due, not for later ones (a client
 * that never stops calling still gets the whole analysis, which makes its
 * calls cheaper). The first step also waits for the calls the init message
 * says were sent with it, which may arrive a turn after it. The worker says
 * it is ready once `loading`, the modules it imports after its start, has
 * loaded too.
 */
export function serveToolsInWorker(
  handlers: Readonly<Record<string, ToolHandler>>,
  prepare: readonly ((context: ToolContext) => void)[] = [],
  loading: Promise<unknown> = Promise.resolve(),
): void {
  let context: ToolContext | undefined;
  // Calls that came the other way before the init message (the two ways do
  // not keep order between them); each runs once the context is there.
  const early: CallMessage[] = [];
  // Calls received, and calls begun (their timer fired); the calls sent
  // with the init message, which the first step waits for.
  let received = 0;
  let begun = 0;
  let sentWithInit = 0;
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<InitMessage | CallMessage>) => void) | null;
    postMessage(message: unknown): void;
  };
  const run = (call: CallMessage) => {
    received++;
    // Each call runs in a timer, not in the message handler: a worker that
    // runs out of its heap in a handler stops without a word, in a timer
    // it reports ERR_WORKER_OUT_OF_MEMORY (measured on Deno 2.9.6).
    setTimeout(async () => {
      begun++;
      scope.postMessage({ kind: "started", id: call.id });
      scope.postMessage(await runCall(handlers, context, call));
    }, 0);
  };
  const prepareFrom = (made: ToolContext, step: number, behind: number | null = null) => {
    if (step >= prepare.length) return;
    // In a timer for the reason calls are.
    setTimeout(() => {
      const until = Math.max(behind ?? received, step === 0 ? sentWithInit : 0);
      if (begun < until) return prepareFrom(made, step, until);
      prepare[step](made);
      prepareFrom(made, step + 1);
    }, 0);
  };
  const receive = (message: InitMessage | CallMessage) => {
    if (message.kind === "call") {
      if (context === undefined) early.push(message);
      else run(message);
      return;
    }
    const made = Object.freeze({
      paths: message.paths,
      facts: { cache: newFactCache(message.clean ?? []) },
    });
    // The files the sandbox's check found the root reaches are those the first call reads.
    hintReads((message.reached ?? []).map((path) => join(message.paths.sourceRoot, path)));
    context = made;
    sentWithInit = message.calls ?? 0;
    if (message.prepare) prepareFrom(made, 0);
    for (const call of early.splice(0)) run(call);
  };
  const given = workerData as { channel?: MessagePort; reads?: ReadChannel } | null;
  if (given?.reads === undefined) throw new Error("the analysis was started without its reads");
  readThrough(readsThrough(given.reads));
  given.channel?.on("message", receive);
  scope.onmessage = (event) => receive(event.data);
  // The bridge sends nothing before this, and a call's time counts from it:
  // the modules of this worker have loaded (digest.ts awaits at top level),
  // and so have those it imports later (`loading`): the main thread may
  // revoke the process's read permission as soon as it hears this, and a
  // module, static or dynamic, loads under that permission. A module that
  // cannot load is a broken build: the worker fails, loudly.
  loading.then(() => scope.postMessage(READY), (error) => {
    throw error;
  });
}

/**
 * The longest answer, in characters of JSON, the worker hands on: the main
 * thread holds an answer's objects, its text and its bytes at once, so this
 * bounds its share of memory (a 50,000-function snapshot is 35 million).
 */
export const MAX_ANSWER_CHARS = 64 * 1024 * 1024;

/** The worker's first message: it is listening. */
export const READY = { kind: "ready" } as const;

/** Runs one call; never throws. */
export async function runCall(
  handlers: Readonly<Record<string, ToolHandler>>,
  context: ToolContext | undefined,
  call: CallMessage,
): Promise<ReplyMessage> {
  try {
    if (context === undefined) {
      throw new Error("the worker received a call before its context");
    }
    // The arguments were checked on the main thread (gate.ts, the SDK).
    const handler = Object.hasOwn(handlers, call.tool) ? handlers[call.tool] : undefined;
    if (handler === undefined) throw new Error(`no tool named ${call.tool}`);
    const outcome: ToolOutcome = await handler(call.args, context);
    if (outcome?.kind === "answer") {
      const size = JSON.stringify(outcome.value).length;
      if (size > MAX_ANSWER_CHARS) {
        throw new Error(
          `${call.tool}'s answer is ${size} characters of JSON, over the limit of ${MAX_ANSWER_CHARS}`,
        );
      }
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
