/**
 * The messages between the main thread and the analysis worker.
 *
 * @module
 */
import type { Refusal, ToolContext } from "./types.ts";

/** Main thread → worker: the fixed context, sent once, first. */
export interface InitMessage {
  readonly type: "init";
  readonly context: ToolContext;
}

/** Main thread → worker: one tool call, arguments already validated. */
export interface CallMessage {
  readonly type: "call";
  readonly id: number;
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/** Worker → main thread: the outcome of one call. */
export type ReplyMessage =
  | { readonly id: number; readonly kind: "answer"; readonly value: unknown }
  | { readonly id: number; readonly kind: "refusal"; readonly value: Refusal }
  | {
    readonly id: number;
    readonly kind: "internal_error";
    readonly message: string;
    readonly stack?: string;
  };

/** Worker → main thread, once, first: the worker listens now (see worker_host.ts). */
export interface ReadyMessage {
  readonly type: "ready";
}

/** What a call resolves to on the main thread. */
export type CallReply =
  | { readonly kind: "answer"; readonly value: unknown }
  | { readonly kind: "refusal"; readonly value: Refusal }
  | { readonly kind: "internal_error"; readonly message: string };
