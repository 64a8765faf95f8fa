/**
 * The messages between the main thread and the analysis worker, each
 * tagged by `kind`.
 *
 * @module
 */
import type { CleanVerdict } from "../facts/clean.ts";
import type { ServerPaths, ToolOutcome } from "./types.ts";

/** Main thread → worker: the fixed paths, sent once, first. */
export interface InitMessage {
  readonly kind: "init";
  readonly paths: ServerPaths;
  /**
   * Analyse the root now, before any call asks (the server's first worker
   * only): the first call then finds the analysis made, as a later one does.
   */
  readonly prepare: boolean;
  /**
   * Files the sandbox's syntax check found clean while this worker started
   * (relative path, BLAKE3 of the bytes parsed, the bodies' spans), added
   * by the sandbox: hints for the first parse (facts/source.ts
   * `newFactCache`).
   */
  readonly clean?: readonly CleanVerdict[];
  /**
   * How many calls the main thread sends right after this message (those it
   * held while the worker started): they come before the first `prepare`
   * step, however they are delivered.
   */
  readonly calls?: number;
}

/** Main thread → worker: one tool call, arguments already validated. */
export interface CallMessage {
  readonly kind: "call";
  readonly id: number;
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/** Worker → main thread: the outcome of one call. */
export type ReplyMessage =
  | ToolOutcome & { readonly id: number }
  | {
    readonly id: number;
    readonly kind: "internal_error";
    readonly message: string;
    readonly stack?: string;
  };

/** Worker → main thread, once, first: the worker listens now (see worker_host.ts). */
export interface ReadyMessage {
  readonly kind: "ready";
}

/** Worker → main thread: it begins a call (so a failure after this is the call's own). */
export interface StartedMessage {
  readonly kind: "started";
  readonly id: number;
}

/**
 * Sandbox → main thread: the analysis stopped — out of its heap, or by an
 * uncaught error — and answers nothing more (see sandbox.ts).
 */
export interface FailedMessage {
  readonly kind: "failed";
  readonly outOfMemory: boolean;
  readonly message: string;
}

/** Sandbox → main thread: something for the log (its syntax check failed). */
export interface NoteMessage {
  readonly kind: "note";
  readonly message: string;
}

/** What the sandbox starts, passed as its worker name (it is there before any message). */
export interface SandboxSetup {
  /** The analysis module's URL. */
  readonly module: string;
  /** The analysis heap's limit (old generation), in MiB. */
  readonly heapMb: number;
  /**
   * The root whose files the sandbox checks for syntax while the analysis
   * starts (the server's first sandbox, the one that prepares), or null.
   */
  readonly check: { readonly root: string; readonly sourceRoot: string } | null;
}

/** Everything the sandbox sends the main thread. */
export type WorkerMessage =
  | ReplyMessage
  | ReadyMessage
  | StartedMessage
  | FailedMessage
  | NoteMessage;

/** What a call resolves to on the main thread. */
export type CallReply =
  | ToolOutcome
  | { readonly kind: "internal_error"; readonly message: string };
