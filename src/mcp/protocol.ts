/**
 * The messages between the main thread, the sandbox and the analysis
 * worker, each tagged by `kind`; and the one way an analysis is started
 * ({@link startAnalysisWorker}), by the main thread or the sandbox.
 *
 * @module
 */
import { type MessagePort, Worker as NodeWorker } from "node:worker_threads";
import type { CleanVerdict } from "../facts/clean.ts";
import type { ReadChannel } from "./read_channel.ts";
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
   * (relative path, BLAKE3 of the bytes parsed, the bodies' spans, the
   * modules imported), added by the sandbox: hints for the first parse
   * (facts/source.ts `newFactCache`).
   */
  readonly clean?: readonly CleanVerdict[];
  /**
   * The files (relative paths) the sandbox's check found the root reaches:
   * the first read fetches them all at once (base/files.ts `hintReads`).
   */
  readonly reached?: readonly string[];
  /**
   * How many calls the main thread sends right after this message (those it
   * held while the worker started): they come before the first `prepare`
   * step, however they are delivered.
   */
  readonly calls?: number;
}

/**
 * The buffers of a message's byte-array arguments (a baseline cut out of its
 * line), moved with it rather than copied: by the bridge, and by the
 * sandbox when it relays.
 */
export function movedBuffers(message: unknown): ArrayBuffer[] {
  const args = (message as { args?: unknown } | null)?.args;
  if (args === undefined || args === null || typeof args !== "object") return [];
  const out: ArrayBuffer[] = [];
  for (const value of Object.values(args)) {
    if (value instanceof Uint8Array && value.buffer instanceof ArrayBuffer) out.push(value.buffer);
  }
  return out;
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
 * Sandbox → main thread: the analysis it started (`generation`) stopped —
 * out of its heap, or by an uncaught error — and answers nothing more.
 */
export interface FailedMessage {
  readonly kind: "failed";
  readonly generation: number;
  readonly outOfMemory: boolean;
  readonly message: string;
}

/** What an analysis worker sends the main thread (itself, or through the sandbox). */
export type AnalysisMessage = ReplyMessage | ReadyMessage | StartedMessage;

/** Sandbox → main thread: what the analysis it started (`generation`) sent. */
export interface RelayedMessage {
  readonly kind: "relayed";
  readonly generation: number;
  readonly message: AnalysisMessage;
}

/**
 * Sandbox → main thread: the files its syntax check found clean, and every
 * file it found the root reaches, checked or not yet (it checks the rest
 * first, for at most its setup's `finishMs`, then stops).
 */
export interface VerdictsMessage {
  readonly kind: "verdicts";
  readonly clean: readonly CleanVerdict[];
  readonly reached: readonly string[];
}

/** Main thread → sandbox. */
export type SandboxRequest =
  /** Read for the analysis the main thread started, on this channel (reads.ts). */
  | { readonly kind: "serve"; readonly reads: ReadChannel }
  /** Finish the syntax check, or stop it, and send its verdicts. */
  | { readonly kind: "verdicts" }
  /** Start an analysis of your own (a restart: the main thread can no longer start one). */
  | { readonly kind: "spawn"; readonly generation: number }
  /** Hand this message on to analysis `generation`, if it is the current one. */
  | {
    readonly kind: "relay";
    readonly generation: number;
    readonly message: InitMessage | CallMessage;
  }
  /** Terminate analysis `generation`. */
  | { readonly kind: "stop"; readonly generation: number };

/** Sandbox → main thread: something for the log (its syntax check failed). */
export interface NoteMessage {
  readonly kind: "note";
  readonly message: string;
}

/**
 * The analysis' young generation, in MiB, wherever it is started. 32: the
 * first analysis builds some 100 MiB that lives on, and a worker's default,
 * sized from its heap limit, collects and copies it too often (measured on
 * the generated 100,000-line program: its first analysis took 1.43 s
 * instead of 1.63, median of 4 each, against 1.45 s at 16 MiB and 1.51 s at
 * 48 MiB).
 */
export const YOUNG_GENERATION_MB = 32;

/** An analysis {@link startAnalysisWorker} started. */
export interface AnalysisWorker {
  readonly worker: NodeWorker;
  /** Terminates it; `failed` hears nothing of this end. */
  stop(): void;
}

/**
 * Starts an analysis, by the main thread or the sandbox alike: a node
 * worker of this thread with the analysis' heap limits (only a node worker
 * can have one). `failed` hears once of an end `stop` did not ask for: out
 * of its heap, an error, or an exit (an out-of-memory error is followed by
 * an exit).
 */
export function startAnalysisWorker(
  module: URL,
  heapMb: number,
  workerData: Readonly<Record<string, unknown>>,
  transferList: MessagePort[],
  failed: (outOfMemory: boolean, message: string) => void,
): AnalysisWorker {
  const worker = new NodeWorker(module, {
    resourceLimits: {
      maxOldGenerationSizeMb: heapMb,
      maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
    },
    workerData,
    transferList,
  });
  let ended = false;
  const end = (outOfMemory: boolean, message: string) => {
    if (ended) return;
    ended = true;
    failed(outOfMemory, message);
  };
  worker.on("error", (error: Error & { code?: string }) => {
    end(error.code === "ERR_WORKER_OUT_OF_MEMORY", error.message);
  });
  worker.on("exit", (code: number) => end(false, `the analysis stopped (exit ${code})`));
  return {
    worker,
    stop: () => {
      ended = true;
      void worker.terminate();
    },
  };
}

/** What the sandbox starts, passed as its worker name (it is there before any message). */
export interface SandboxSetup {
  /** The analysis module's URL, for the analyses the sandbox starts. */
  readonly module: string;
  /** Their heap's limit (old generation), in MiB. */
  readonly heapMb: number;
  /**
   * The root whose files the sandbox checks for syntax while the first
   * analysis starts, and how long the rest of the check may delay the
   * verdicts when the bridge asks for them (ms); or null.
   */
  readonly check: {
    readonly root: string;
    readonly sourceRoot: string;
    readonly finishMs: number;
  } | null;
}

/** Everything the sandbox sends the main thread. */
export type SandboxMessage = RelayedMessage | FailedMessage | VerdictsMessage | NoteMessage;

/** What a call resolves to on the main thread. */
export type CallReply =
  | ToolOutcome
  | { readonly kind: "internal_error"; readonly message: string };
