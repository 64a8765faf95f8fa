/**
 * The main thread's side of the analysis: starts the sandbox (sandbox.ts)
 * with the narrow permissions and the analysis inside it with a capped heap,
 * forwards calls, matches replies, and survives an analysis that dies or
 * runs out of memory (its calls fail as internal errors; the next call
 * starts a new one).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isWithin } from "../base/launch.ts";
import type { Logger } from "./log.ts";
import type {
  CallMessage,
  CallReply,
  InitMessage,
  ReplyMessage,
  SandboxSetup,
  WorkerMessage,
} from "./protocol.ts";
import type { ServerPaths } from "./types.ts";

/** The analysis module every server runs. */
export const WORKER_MODULE: URL = new URL("./worker.ts", import.meta.url);

/** The sandbox that holds it (sandbox.ts). */
export const SANDBOX_MODULE: URL = new URL("./sandbox.ts", import.meta.url);

/**
 * The analysis heap's limit, in MiB (V8's old generation). With the main
 * thread's share (bounded by the line limit and the answer limit), the
 * process stays under 1 GiB; an analysis that needs more is stopped alone
 * and its call answered `internal_error` (README.md's limits).
 */
export const ANALYSIS_HEAP_MB = 512;

/** The folder holding the analysis' code: this repository's src/ (a compiled binary embeds it). */
const CODE_ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * The folders the sandbox must read to load the analysis' code: src/, the
 * folder of the analysis module when it lies elsewhere (a test's probe),
 * and the folder of each npm package the analysis imports. A worker started
 * by a worker loads its modules under its parent's read permission
 * (measured on Deno 2.9.6: NotCapable for a static import without it), so
 * the sandbox needs them; they hold public code only. Not the rest of the
 * repository: deno.json, tests/ and .git are not readable.
 */
export function analysisCodeFolders(module: string = WORKER_MODULE.href): string[] {
  const moduleFolder = dirname(fileURLToPath(module));
  const folders = [CODE_ROOT, packageFolder("zod"), packageFolder("hash-wasm")];
  if (!isWithin(CODE_ROOT, moduleFolder)) folders.push(moduleFolder);
  return folders;
}

/** The folder of an npm package as this program resolves it (the one holding its package.json). */
function packageFolder(name: string): string {
  let folder = dirname(fileURLToPath(import.meta.resolve(name)));
  for (;;) {
    try {
      const manifest = JSON.parse(Deno.readTextFileSync(join(folder, "package.json")));
      if (manifest.name === name) return folder;
    } catch {
      // Not the package's own folder yet.
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`cannot find the folder of the npm package ${name}`);
    folder = parent;
  }
}

/**
 * The options the analysis sandbox is started with: a module worker whose
 * only permission is reading the source root, the docs repository and the
 * analysis' own code (see {@link analysisCodeFolders}). No write, net, env,
 * run, ffi or sys; `import: false` too (it governs remote module imports
 * only). Needs --unstable-worker-options. `setup` names the analysis module
 * and its heap limit.
 */
export function analysisWorkerOptions(
  roots: { readonly sourceRoot: string; readonly docsRoot: string },
  setup: SandboxSetup = { module: WORKER_MODULE.href, heapMb: ANALYSIS_HEAP_MB, check: null },
): WorkerOptions {
  return {
    type: "module",
    name: JSON.stringify(setup),
    deno: {
      permissions: {
        read: [roots.sourceRoot, roots.docsRoot, ...analysisCodeFolders(setup.module)],
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
  /** The analysis module; defaults to {@link WORKER_MODULE}. */
  module?: URL;
  /** Defaults to {@link CALL_TIMEOUT_MS}. */
  callTimeoutMs?: number;
  /** Defaults to {@link ANALYSIS_HEAP_MB}. */
  heapMb?: number;
}

interface Held {
  readonly message: InitMessage | CallMessage;
  readonly transfer: Transferable[];
}

interface Pending {
  resolve: (reply: CallReply) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  readonly held: Held;
  /** The worker said it began this call. */
  started: boolean;
}

/** A bridge whose worker is started and analysing the root already (see {@link AnalysisBridge.warm}). */
export function startAnalysis(
  paths: ServerPaths,
  log: Logger,
  options: BridgeOptions = {},
): AnalysisBridge {
  const bridge = new AnalysisBridge(paths, log, options);
  bridge.warm();
  return bridge;
}

/** Forwards tool calls to the analysis worker. */
export class AnalysisBridge {
  #paths: ServerPaths;
  #log: Logger;
  #module: URL;
  #heapMb: number;
  #timeoutMs: number;
  #worker: Worker | undefined;
  /** Messages for the current worker (with what they transfer), held until it says it is ready. */
  #held: Held[] | undefined;
  #next = 1;
  #pending = new Map<number, Pending>();
  #closed = false;

  constructor(paths: ServerPaths, log: Logger, options: BridgeOptions = {}) {
    this.#paths = paths;
    this.#log = log;
    this.#module = options.module ?? WORKER_MODULE;
    this.#heapMb = options.heapMb ?? ANALYSIS_HEAP_MB;
    this.#timeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
  }

  /**
   * Starts the worker now and has it analyse the root at once, so the first
   * call waits neither for the worker to load nor, when it comes a moment
   * later, for the analysis. A worker started again after a failure does not
   * analyse before its call: a root that ran the last one out of memory
   * would do it again, and take calls that need no analysis down with it.
   */
  warm(): void {
    this.#ensure(true);
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
    const message: CallMessage = { kind: "call", id, tool, args };
    const transfer: Transferable[] = [];
    for (const value of Object.values(args)) {
      if (value instanceof Uint8Array && value.buffer instanceof ArrayBuffer) {
        transfer.push(value.buffer);
      }
    }
    return new Promise((resolve) => {
      this.#pending.set(id, {
        resolve,
        timer: undefined,
        held: { message, transfer },
        started: false,
      });
      this.#send(id);
    });
  }

  /** Posts a pending call to the current worker (starting one if needed), with its deadline. */
  #send(id: number): void {
    const pending = this.#pending.get(id)!;
    const worker = this.#ensure();
    clearTimeout(pending.timer);
    pending.timer = setTimeout(() => this.#stuck(worker, id), this.#timeoutMs);
    try {
      this.#post(worker, pending.held);
    } catch (error) {
      this.#take(id)?.({
        kind: "internal_error",
        message: `cannot reach the worker: ${String(error)}`,
      });
    }
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

  #ensure(prepare = false): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(
      SANDBOX_MODULE,
      analysisWorkerOptions(this.#paths, {
        module: this.#module.href,
        heapMb: this.#heapMb,
        check: prepare ? { root: this.#paths.root, sourceRoot: this.#paths.sourceRoot } : null,
      }),
    );
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const data = event.data;
      if (data.kind === "failed") {
        const why = data.outOfMemory
          ? `the analysis ran out of memory (its limit is ${this.#heapMb} MiB)`
          : `the analysis worker failed: ${data.message}`;
        this.#log.error(`${why}; it will be restarted`);
        this.#discard(worker, why);
        return;
      }
      if (data.kind === "note") {
        this.#log.warn(data.message);
        return;
      }
      if (data.kind === "started") {
        const pending = this.#pending.get(data.id);
        if (pending !== undefined) pending.started = true;
        return;
      }
      if (data.kind === "ready") {
        if (worker === this.#worker && this.#held !== undefined) {
          const [init, ...calls] = this.#held;
          this.#held = undefined;
          // The worker's first step waits for the calls sent with its init
          // message: they may reach it a turn or two after the init.
          worker.postMessage({ ...init.message, calls: calls.length }, init.transfer);
          for (const { message, transfer } of calls) worker.postMessage(message, transfer);
          // A call's time counts from here, not from the worker's start.
          for (const [id, pending] of this.#pending) {
            clearTimeout(pending.timer);
            pending.timer = setTimeout(() => this.#stuck(worker, id), this.#timeoutMs);
          }
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
      this.#discard(worker, `the analysis worker failed: ${event.message}`);
    };
    worker.onmessageerror = () => {
      this.#log.error("a reply from the analysis worker could not be read");
    };
    this.#worker = worker;
    this.#held = [{ message: { kind: "init", paths: this.#paths, prepare }, transfer: [] }];
    return worker;
  }

  /**
   * Stops a worker that failed or hung. The calls it had begun fail with
   * `why`, and so does `culprit` (a call over its deadline, begun or not);
   * those still waiting their turn go to a fresh worker, so a call that
   * could not finish delays the others by no more than its own work (one
   * whose bytes had already moved to the old worker fails too). A worker
   * that failed before it was ready (it could not load) takes every call
   * with it: a fresh one would most likely fail the same way, and trying
   * again at once would loop for ever; the next call tries a fresh worker.
   */
  #discard(worker: Worker, why: string, culprit?: number): void {
    if (this.#worker !== worker) return;
    const neverReady = this.#held !== undefined;
    this.#worker = undefined;
    this.#held = undefined;
    worker.terminate();
    const retry: number[] = [];
    for (const [id, pending] of this.#pending) {
      if (
        neverReady || id === culprit || pending.started || pending.held.transfer.length > 0
      ) {
        this.#take(id)?.({ kind: "internal_error", message: why });
      } else {
        retry.push(id);
      }
    }
    if (this.#closed) return;
    for (const id of retry) this.#send(id);
  }

  #stuck(worker: Worker, id: number): void {
    if (this.#worker !== worker) return;
    const tool = (this.#pending.get(id)?.held.message as CallMessage | undefined)?.tool;
    const seconds = this.#timeoutMs / 1000;
    this.#log.error(
      `${tool} ran over ${seconds} s; the analysis worker is restarted`,
    );
    this.#discard(worker, `the analysis did not finish within ${seconds} s`, id);
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
