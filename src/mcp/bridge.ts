/**
 * The main thread's side of the analysis worker: starts it with the narrow
 * permissions, forwards calls, matches replies, and survives a worker that
 * dies (its calls fail as internal errors; the next call starts a new one).
 *
 * @module
 */
import type { Logger } from "./log.ts";
import type {
  CallMessage,
  CallReply,
  InitMessage,
  ReadyMessage,
  ReplyMessage,
} from "./protocol.ts";
import type { ToolContext } from "./types.ts";

/** The worker module every server starts. */
export const WORKER_MODULE: URL = new URL("./worker.ts", import.meta.url);

/**
 * The options every analysis worker is started with: a module worker whose
 * only permission is reading the source root and the docs repository. No
 * write, net, env, run, ffi or sys; `import: false` too (it governs remote
 * module imports only: local modules and npm packages still load, measured).
 * Needs --unstable-worker-options.
 */
export function analysisWorkerOptions(
  roots: { readonly sourceRoot: string; readonly docsRoot: string },
): WorkerOptions {
  return {
    type: "module",
    name: "nazm-analysis",
    deno: {
      permissions: {
        read: [roots.sourceRoot, roots.docsRoot],
        write: false,
        net: false,
        env: false,
        run: false,
        ffi: false,
        sys: false,
        import: false,
      },
    },
  } as WorkerOptions;
}

/**
 * How long one call may run before the worker is deemed stuck: it is
 * terminated, its calls answered as internal errors, and the next call
 * starts a fresh worker. Far above any real analysis (a 100k-line program
 * is checked in seconds), so it only ever catches a bug such as a loop.
 */
export const CALL_TIMEOUT_MS = 120_000;

/** Options of {@link AnalysisBridge}. */
export interface BridgeOptions {
  /** The worker module; defaults to {@link WORKER_MODULE}. */
  module?: URL;
  /** Defaults to {@link CALL_TIMEOUT_MS}. */
  callTimeoutMs?: number;
}

interface Held {
  readonly message: InitMessage | CallMessage;
  readonly transfer: Transferable[];
}

interface Pending {
  resolve: (reply: CallReply) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** Forwards tool calls to the analysis worker. */
export class AnalysisBridge {
  #context: ToolContext;
  #log: Logger;
  #module: URL;
  #timeoutMs: number;
  #worker: Worker | undefined;
  /** Messages for the current worker (with what they transfer), held until it says it is ready. */
  #held: Held[] | undefined;
  #next = 1;
  #pending = new Map<number, Pending>();
  #closed = false;

  constructor(context: ToolContext, log: Logger, options: BridgeOptions = {}) {
    this.#context = context;
    this.#log = log;
    this.#module = options.module ?? WORKER_MODULE;
    this.#timeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
  }

  /** Starts the worker now, so the first call does not wait for it to load. */
  warm(): void {
    this.#ensure();
  }

  /**
   * Runs one tool call in the worker. Never rejects. An argument that is a
   * `Uint8Array` (a baseline cut out of its line) is moved to the worker,
   * not copied.
   */
  call(tool: string, args: Record<string, unknown>): Promise<CallReply> {
    if (this.#closed) {
      return Promise.resolve({
        kind: "internal_error",
        message: "the server is shutting down",
      });
    }
    const id = this.#next++;
    const worker = this.#ensure();
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => this.#stuck(worker, tool),
        this.#timeoutMs,
      );
      this.#pending.set(id, { resolve, timer });
      const message: CallMessage = { type: "call", id, tool, args };
      const transfer: Transferable[] = [];
      for (const value of Object.values(args)) {
        if (value instanceof Uint8Array && value.buffer instanceof ArrayBuffer) {
          transfer.push(value.buffer);
        }
      }
      try {
        this.#post(worker, { message, transfer });
      } catch (error) {
        this.#take(id);
        resolve({
          kind: "internal_error",
          message: `cannot reach the worker: ${String(error)}`,
        });
      }
    });
  }

  /** Number of calls waiting for the worker. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** Terminates the worker; calls still waiting fail as internal errors. */
  terminate(): void {
    this.#closed = true;
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#failAll("the server is shutting down");
  }

  #post(worker: Worker, held: Held): void {
    if (worker === this.#worker && this.#held !== undefined) {
      this.#held.push(held);
    } else worker.postMessage(held.message, held.transfer);
  }

  #ensure(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(
      this.#module,
      analysisWorkerOptions(this.#context),
    );
    worker.onmessage = (event: MessageEvent<ReplyMessage | ReadyMessage>) => {
      const data = event.data;
      if ("type" in data) {
        if (
          data.type === "ready" && worker === this.#worker &&
          this.#held !== undefined
        ) {
          const held = this.#held;
          this.#held = undefined;
          for (const { message, transfer } of held) worker.postMessage(message, transfer);
        }
        return;
      }
      this.#reply(data);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#log.error(
        `the analysis worker failed: ${event.message}; it will be restarted`,
      );
      if (this.#worker === worker) {
        this.#worker = undefined;
        this.#held = undefined;
      }
      worker.terminate();
      this.#failAll(`the analysis worker failed: ${event.message}`);
    };
    worker.onmessageerror = () => {
      this.#log.error("a reply from the analysis worker could not be read");
    };
    this.#worker = worker;
    this.#held = [{ message: { type: "init", context: this.#context }, transfer: [] }];
    return worker;
  }

  #stuck(worker: Worker, tool: string): void {
    if (this.#worker !== worker) return;
    const seconds = this.#timeoutMs / 1000;
    this.#log.error(
      `${tool} ran over ${seconds} s; the analysis worker is restarted`,
    );
    this.#worker = undefined;
    this.#held = undefined;
    worker.terminate();
    this.#failAll(`the analysis did not finish within ${seconds} s`);
  }

  #take(id: number): ((reply: CallReply) => void) | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined) return undefined;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    return pending.resolve;
  }

  #reply(message: ReplyMessage): void {
    const resolve = this.#take(message.id);
    if (resolve === undefined) return;
    if (message.kind === "internal_error") {
      this.#log.error(
        `internal error in call ${message.id}: ${message.stack ?? message.message}`,
      );
      resolve({ kind: "internal_error", message: message.message });
    } else {
      resolve(message);
    }
  }

  #failAll(why: string): void {
    for (const id of [...this.#pending.keys()]) {
      this.#take(id)?.({ kind: "internal_error", message: why });
    }
  }
}
