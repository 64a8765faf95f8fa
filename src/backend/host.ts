/**
 * Where programs run: a Web Worker started from the generated module's
 * text with no permission at all (`deno: { permissions: "none" }`), so a
 * program cannot read, write, connect, spawn or read the environment
 * whatever its code does. The host gives each run a time limit and an
 * output limit, and passes printed text on as it arrives.
 *
 * Stopping: when the time is up the host raises a flag in a shared buffer
 * that the generated code checks at every turn of a loop and at the entry of
 * every function on a cycle of calls (src/backend/recursion.ts), so
 * the program stops with a `timeout` error and its Nazm stack; a program
 * that does not answer within a grace period (it is inside one long runtime
 * operation) is terminated, and its place is unknown.
 *
 * @module
 */
import { type Report, RUNTIME_ERRORS } from "./runtime.js";

export type { Report };

/** The options every program worker gets: a module, and no permission. */
export function programWorkerOptions(): WorkerOptions {
  return {
    type: "module",
    name: "nazm-program",
    deno: { permissions: "none" },
  } as WorkerOptions;
}

export interface RunLimits {
  /** Wall-clock time for one run, in milliseconds. */
  readonly timeoutMs: number;
  /** Bytes of output (UTF-8) one run may print. */
  readonly outputLimit: number;
}

/**
 * How long a program that was asked to stop may take to stop, before it is
 * terminated: generous, because a loaded machine delays the answer too.
 */
export const STOP_GRACE_MS = 2000;

/** What one run of `main` or of a test came to. */
export type RunOutcome =
  | {
    readonly kind: "finished";
    /** `main`'s exit status (0 for `Unit`, and for a test). */
    readonly status: number;
    readonly milliseconds: number;
  }
  | { readonly kind: "failed"; readonly report: Report; readonly milliseconds: number };

/** The exit status of an outcome. */
export function outcomeStatus(outcome: RunOutcome): number {
  return outcome.kind === "finished" ? outcome.status : RUNTIME_ERRORS[outcome.report.kind].status;
}

function durationText(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

type WorkerMessage =
  | { readonly type: "ready" }
  | { readonly type: "output"; readonly text: string }
  | { readonly type: "done"; readonly status: number; readonly milliseconds: number }
  | { readonly type: "failed"; readonly report: Report; readonly milliseconds: number };

/** A started program worker: runs `main` or tests one at a time. */
export class ProgramWorker {
  readonly #worker: Worker;
  #alive = true;
  #onMessage: (message: WorkerMessage) => void = () => {};
  #onError: (message: string) => void = () => {};

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => this.#onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.#alive = false;
      this.#onError(event.message);
    };
  }

  /** Starts a worker on a module assembled with the `worker` entry. */
  static start(moduleText: string): Promise<ProgramWorker> {
    const url = URL.createObjectURL(new Blob([moduleText], { type: "text/javascript" }));
    const worker = new ProgramWorker(new Worker(url, programWorkerOptions()));
    return new Promise((resolve, reject) => {
      worker.#onMessage = (message) => {
        if (message.type !== "ready") return;
        URL.revokeObjectURL(url);
        resolve(worker);
      };
      worker.#onError = (message) => {
        URL.revokeObjectURL(url);
        worker.close();
        reject(new Error(`the program's module did not load: ${message}`));
      };
    });
  }

  /** False once the worker died or was terminated: start another for the next run. */
  get alive(): boolean {
    return this.#alive;
  }

  /**
   * Runs `main` (test null) or the test with that index, under the limits;
   * printed text goes to `onOutput` as it arrives.
   */
  run(
    test: number | null,
    limits: RunLimits,
    onOutput: (text: string) => void,
  ): Promise<RunOutcome> {
    if (!this.#alive) return Promise.reject(new Error("the program worker is not running"));
    const stop = new SharedArrayBuffer(4);
    const flag = new Int32Array(stop);
    const started = performance.now();
    const timeoutText = durationText(limits.timeoutMs);
    return new Promise<RunOutcome>((resolve) => {
      let grace: ReturnType<typeof setTimeout> | undefined;
      const finish = (outcome: RunOutcome) => {
        clearTimeout(timer);
        if (grace !== undefined) clearTimeout(grace);
        this.#onMessage = () => {};
        this.#onError = () => {};
        resolve(outcome);
      };
      const timer = setTimeout(() => {
        Atomics.store(flag, 0, 1);
        grace = setTimeout(() => {
          this.close();
          finish({
            kind: "failed",
            report: {
              kind: "timeout",
              message:
                `the program did not finish within ${timeoutText}, and did not stop when asked (it was inside one long operation of the runtime), so where it was is unknown`,
              frames: [],
              truncated: false,
            },
            milliseconds: performance.now() - started,
          });
        }, STOP_GRACE_MS);
      }, limits.timeoutMs);
      this.#onMessage = (message) => {
        switch (message.type) {
          case "output":
            onOutput(message.text);
            return;
          case "done":
            finish({
              kind: "finished",
              status: message.status,
              milliseconds: message.milliseconds,
            });
            return;
          case "failed":
            finish({ kind: "failed", report: message.report, milliseconds: message.milliseconds });
            return;
        }
      };
      this.#onError = (message) => {
        finish({
          kind: "failed",
          report: {
            kind: "internal",
            message: `the program's worker failed: ${message}`,
            frames: [],
            truncated: false,
          },
          milliseconds: performance.now() - started,
        });
      };
      this.#worker.postMessage({
        test,
        stop,
        timeoutText,
        outputLimit: limits.outputLimit,
      });
    });
  }

  /** Terminates the worker. */
  close(): void {
    if (this.#alive) this.#worker.terminate();
    this.#alive = false;
  }
}
