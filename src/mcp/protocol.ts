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

/** Worker → main thread: it begins a call (so a failure after this is the call's own). */
export interface StartedMessage {
  readonly type: "started";
  readonly id: number;
}

/**
 * Sandbox → main thread: the analysis stopped — out of its heap, or by an
 * uncaught error — and answers nothing more (see sandbox.ts).
 */
export interface FailedMessage {
  readonly type: "failed";
  readonly outOfMemory: boolean;
  readonly message: string;
}

/** What the sandbox starts, passed as its worker name (it is there before any message). */
export interface SandboxSetup {
  /** The analysis module's URL. */
  readonly module: string;
  /** The analysis heap's limit (old generation), in MiB. */
  readonly heapMb: number;
}

/** What a call resolves to on the main thread. */
export type CallReply =
  | { readonly kind: "answer"; readonly value: unknown }
  | { readonly kind: "refusal"; readonly value: Refusal }
  | { readonly kind: "internal_error"; readonly message: string };
