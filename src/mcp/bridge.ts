/**
 * The main thread's side of the analysis: starts the sandbox (sandbox.ts)
 * with the narrow permissions, and the first analysis, a node worker with a
 * capped heap that reads through the sandbox (reads.ts); forwards calls,
 * matches replies, and survives an analysis that dies or runs out of memory
 * (its calls fail as internal errors; the next call has the sandbox start a
 * new one).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isWithin } from "../base/launch.ts";
import type { Logger } from "./log.ts";
import {
  type AnalysisMessage,
  type CallMessage,
  type CallReply,
  type InitMessage,
  movedBuffers,
  type ReplyMessage,
  type SandboxMessage,
  type SandboxRequest,
  type SandboxSetup,
  startAnalysisWorker,
} from "./protocol.ts";
import { readChannel } from "./read_channel.ts";
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

/**
 * The npm packages the analysis imports, each named by an import that is
 * never made: `import.meta.resolve` finds a package's files only when the
 * program's module graph holds it, and the graph holds the statically
 * analysable dynamic imports too. The main thread itself loads zod but not
 * hash-wasm (its modules would cost it some 100 ms: base/launch.ts), and a
 * server run without the lock file then resolved hash-wasm to no file.
 */
export const ANALYSIS_PACKAGES = {
  zod: () => import("zod"),
  "hash-wasm": () => import("hash-wasm"),
} as const;

/** The folder of an npm package as this program resolves it (the one holding its package.json). */
function packageFolder(name: keyof typeof ANALYSIS_PACKAGES): string {
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

/**
 * How long the sandbox's syntax check may go on when the bridge asks for
 * its verdicts, at most (sandbox.ts): its parser is warm by then, the
 * analysis' cold, and the 100,000-line benchmark's check ended within 15
 * to 240 ms of the request; of a larger program, what the check has not
 * reached by then the analysis parses itself.
 */
export const CHECK_FINISH_MS = 500;

/** Options of {@link AnalysisBridge}. */
export interface BridgeOptions {
  /** The analysis module; defaults to {@link WORKER_MODULE}. */
  module?: URL;
  /** Defaults to {@link CALL_TIMEOUT_MS}. */
  callTimeoutMs?: number;
  /** Defaults to {@link ANALYSIS_HEAP_MB}. */
  heapMb?: number;
  /** Defaults to {@link CHECK_FINISH_MS}. */
  checkFinishMs?: number;
  /**
   * Resolves when the first analysis may be told the roots: main.ts
   * resolves it once it has revoked the process's read permission, which
   * that analysis shares. Default: at once (tests, which must not revoke
   * their own process's permission).
   */
  gate?: Promise<void>;
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

/**
 * One analysis worker, as the bridge talks to it: the first, started here,
 * or a later one, which the sandbox started and relays.
 */
interface Analysis {
  post(message: InitMessage | CallMessage, transfer: Transferable[]): void;
  terminate(): void;
  /** Whether it shares the process's permissions (then it waits for the gate). */
  readonly direct: boolean;
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

/** A bridge started by {@link startConfinedAnalysis}, and the step that confines its analysis. */
export interface ConfinedAnalysis {
  readonly bridge: AnalysisBridge;
  /**
   * Once the analysis and `loaded` (the rest of this thread's code) have
   * loaded, revokes the process's read permission, and only then lets the
   * analysis be told the roots. From then on nothing in the process reads
   * but the sandbox, under its own permission.
   */
  confine(loaded: Promise<unknown>): Promise<void>;
}

/**
 * What main.ts runs: {@link startAnalysis} with the first analysis held
 * until the process can no longer read (the analysis shares its
 * permissions: sandbox.ts).
 */
export function startConfinedAnalysis(
  paths: ServerPaths,
  log: Logger,
  options: Omit<BridgeOptions, "gate"> = {},
): ConfinedAnalysis {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => open = resolve);
  const bridge = startAnalysis(paths, log, { ...options, gate });
  return {
    bridge,
    async confine(loaded) {
      // A module loads under the read permission: both threads load all
      // their code first. One that failed to load fails its own way (a call
      // gets an internal error); the others must not wait for ever.
      await Promise.allSettled([bridge.loaded, loaded]);
      await Deno.permissions.revoke({ name: "read" });
      open();
    },
  };
}

/** Forwards tool calls to the analysis worker. */
export class AnalysisBridge {
  #paths: ServerPaths;
  #log: Logger;
  #module: URL;
  #heapMb: number;
  #checkFinishMs: number;
  #timeoutMs: number;
  #gate: Promise<void>;
  #sandbox: Worker | undefined;
  /** Why the sandbox stopped: no analysis can run any more. */
  #sandboxFailed: string | undefined;
  #analysis: Analysis | undefined;
  /** Generations of the analyses the sandbox starts (see sandbox.ts). */
  #generation = 0;
  #relayed = new Map<number, Analysis>();
  /** Messages for the current analysis (with what they transfer), held until it says it is ready. */
  #held: Held[] | undefined;
  /** Resolves the bridge's request for the sandbox's syntax verdicts. */
  #verdicts: ((message: Extract<SandboxMessage, { kind: "verdicts" }>) => void) | undefined;
  #loaded: { promise: Promise<void>; resolve: () => void };
  #next = 1;
  #pending = new Map<number, Pending>();
  #closed = false;

  constructor(paths: ServerPaths, log: Logger, options: BridgeOptions = {}) {
    this.#paths = paths;
    this.#log = log;
    this.#module = options.module ?? WORKER_MODULE;
    this.#checkFinishMs = options.checkFinishMs ?? CHECK_FINISH_MS;
    this.#heapMb = options.heapMb ?? ANALYSIS_HEAP_MB;
    this.#timeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
    this.#gate = options.gate ?? Promise.resolve();
    let resolve!: () => void;
    this.#loaded = { promise: new Promise((r) => resolve = r), resolve };
  }

  /**
   * Resolves once the first analysis has loaded all its code (or failed to):
   * from then on no worker of the process started by this thread loads a
   * module, and main.ts may revoke the process's read permission.
   */
  get loaded(): Promise<void> {
    return this.#loaded.promise;
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
    const transfer: Transferable[] = movedBuffers(message);
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
    if (this.#sandboxFailed !== undefined) {
      this.#take(id)?.({ kind: "internal_error", message: this.#sandboxFailed });
      return;
    }
    const analysis = this.#ensure();
    clearTimeout(pending.timer);
    pending.timer = setTimeout(() => this.#stuck(analysis, id), this.#timeoutMs);
    try {
      this.#post(analysis, pending.held);
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

  /** Terminates the workers; calls still waiting fail as internal errors. */
  terminate(): void {
    this.#closed = true;
    this.#analysis?.terminate();
    this.#analysis = undefined;
    this.#sandbox?.terminate();
    this.#sandbox = undefined;
    this.#loaded.resolve();
    this.#failAll("the server is shutting down");
  }

  #post(analysis: Analysis, held: Held): void {
    if (analysis === this.#analysis && this.#held !== undefined) {
      this.#held.push(held);
    } else analysis.post(held.message, held.transfer);
  }

  /** The sandbox, started with the first analysis and kept for the server's life. */
  #startSandbox(check: boolean): Worker {
    const sandbox = new Worker(
      SANDBOX_MODULE,
      analysisWorkerOptions(this.#paths, {
        module: this.#module.href,
        heapMb: this.#heapMb,
        check: check
          ? {
            root: this.#paths.root,
            sourceRoot: this.#paths.sourceRoot,
            finishMs: this.#checkFinishMs,
          }
          : null,
      }),
    );
    sandbox.onmessage = (event: MessageEvent<SandboxMessage>) => {
      const data = event.data;
      switch (data.kind) {
        case "relayed": {
          const analysis = this.#relayed.get(data.generation);
          if (analysis !== undefined) this.#received(analysis, data.message);
          return;
        }
        case "failed": {
          const analysis = this.#relayed.get(data.generation);
          if (analysis !== undefined) this.#failed(analysis, data.outOfMemory, data.message);
          return;
        }
        case "verdicts":
          this.#verdicts?.(data);
          this.#verdicts = undefined;
          return;
        case "note":
          this.#log.warn(data.message);
          return;
      }
    };
    sandbox.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      // The sandbox reads for every analysis and starts the later ones: none
      // can run without it, and this thread can start no other (main.ts
      // revoked its read permission).
      const why = `the analysis sandbox failed: ${event.message}; restart the server`;
      this.#log.error(why);
      this.#sandboxFailed = why;
      this.#verdicts?.({ kind: "verdicts", clean: [], reached: [] });
      const analysis = this.#analysis;
      if (analysis !== undefined) this.#discard(analysis, why);
      this.#failAll(why);
    };
    sandbox.onmessageerror = () => {
      this.#log.error("a message from the analysis sandbox could not be read");
    };
    return sandbox;
  }

  #ensure(prepare = false): Analysis {
    if (this.#analysis) return this.#analysis;
    const first = this.#sandbox === undefined;
    const sandbox = this.#sandbox ??= this.#startSandbox(prepare);
    const analysis = first ? this.#startFirst(sandbox) : this.#startRelayed(sandbox);
    this.#analysis = analysis;
    this.#held = [{ message: { kind: "init", paths: this.#paths, prepare }, transfer: [] }];
    return analysis;
  }

  /**
   * The first analysis: a node worker of this thread (one started by the
   * sandbox would begin some 500 ms late: sandbox.ts), reading through the
   * sandbox, started before the sandbox has loaded.
   */
  #startFirst(sandbox: Worker): Analysis {
    const reads = readChannel();
    const serve: SandboxRequest = { kind: "serve", reads: reads.server };
    sandbox.postMessage(serve, [reads.server.port as unknown as Transferable]);
    const { worker, stop } = startAnalysisWorker(
      this.#module,
      this.#heapMb,
      { reads: reads.client },
      [reads.client.port],
      (outOfMemory, message) => this.#failed(analysis, outOfMemory, message),
    );
    const analysis: Analysis = {
      direct: true,
      post: (message, transfer) => worker.postMessage(message, transfer as ArrayBuffer[]),
      terminate: stop,
    };
    worker.on("message", (message: AnalysisMessage) => this.#received(analysis, message));
    return analysis;
  }

  /** A later analysis, which the sandbox starts and relays. */
  #startRelayed(sandbox: Worker): Analysis {
    const generation = ++this.#generation;
    const send = (request: SandboxRequest, transfer: Transferable[] = []) =>
      sandbox.postMessage(request, transfer);
    const analysis: Analysis = {
      direct: false,
      post: (message, transfer) => send({ kind: "relay", generation, message }, transfer),
      terminate: () => {
        this.#relayed.delete(generation);
        send({ kind: "stop", generation });
      },
    };
    this.#relayed.set(generation, analysis);
    send({ kind: "spawn", generation });
    return analysis;
  }

  #failed(analysis: Analysis, outOfMemory: boolean, message: string): void {
    const why = outOfMemory
      ? `the analysis ran out of memory (its limit is ${this.#heapMb} MiB)`
      : `the analysis worker failed: ${message}`;
    if (analysis === this.#analysis) this.#log.error(`${why}; it will be restarted`);
    this.#discard(analysis, why);
  }

  #received(analysis: Analysis, data: AnalysisMessage): void {
    if (data.kind === "started") {
      const pending = this.#pending.get(data.id);
      if (pending !== undefined) pending.started = true;
      return;
    }
    if (data.kind === "ready") {
      if (analysis.direct) this.#loaded.resolve();
      if (analysis === this.#analysis && this.#held !== undefined) void this.#release(analysis);
      return;
    }
    this.#reply(data);
  }

  /**
   * Sends the held messages to an analysis that said it is ready: the init
   * message first, with the sandbox's verdicts when it prepares. The first
   * analysis waits for the gate: until main.ts has revoked the process's
   * read permission, it is told nothing it could read.
   */
  async #release(analysis: Analysis): Promise<void> {
    const init = this.#held![0].message as InitMessage;
    if (analysis.direct) await this.#gate;
    let clean: InitMessage["clean"] = undefined;
    let reached: InitMessage["reached"] = undefined;
    if (init.prepare && this.#sandbox !== undefined && this.#sandboxFailed === undefined) {
      const sandbox = this.#sandbox;
      [clean, reached] = await new Promise((resolve) => {
        this.#verdicts = (message) => resolve([message.clean, message.reached]);
        const request: SandboxRequest = { kind: "verdicts" };
        sandbox.postMessage(request);
      });
    }
    if (analysis !== this.#analysis || this.#held === undefined) return;
    const [, ...calls] = this.#held;
    this.#held = undefined;
    // The worker's first step waits for the calls sent with its init
    // message: they may reach it a turn or two after the init.
    analysis.post({ ...init, clean, reached, calls: calls.length }, []);
    for (const { message, transfer } of calls) analysis.post(message, transfer);
    // A call's time counts from here, not from the worker's start.
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.timer = setTimeout(() => this.#stuck(analysis, id), this.#timeoutMs);
    }
  }

  /**
   * Stops an analysis that failed or hung. The calls it had begun fail with
   * `why`, and so does `culprit` (a call over its deadline, begun or not);
   * those still waiting their turn go to a fresh analysis, so a call that
   * could not finish delays the others by no more than its own work (one
   * whose bytes had already moved to the old worker fails too). An analysis
   * that failed before it was ready (it could not load) takes every call
   * with it: a fresh one would most likely fail the same way, and trying
   * again at once would loop for ever; the next call tries a fresh one.
   */
  #discard(analysis: Analysis, why: string, culprit?: number): void {
    if (this.#analysis !== analysis) return;
    const neverReady = this.#held !== undefined;
    this.#analysis = undefined;
    this.#held = undefined;
    analysis.terminate();
    if (analysis.direct) this.#loaded.resolve();
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

  #stuck(analysis: Analysis, id: number): void {
    if (this.#analysis !== analysis) return;
    const tool = (this.#pending.get(id)?.held.message as CallMessage | undefined)?.tool;
    const seconds = this.#timeoutMs / 1000;
    this.#log.error(
      `${tool} ran over ${seconds} s; the analysis worker is restarted`,
    );
    this.#discard(analysis, `the analysis did not finish within ${seconds} s`, id);
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
