/**
 * Spawning the real nazm-mcp for tests: exactly the flags a user runs
 * (`deno task mcp`), never none (Deno would rewrite a flagless `deno run`
 * spawned from a test into `deno run -A`, hiding a missing permission).
 *
 * Two ways to talk to it: the SDK v2 Client over stdio (pinned to
 * 2026-07-28, or legacy), and a raw transcript (lines in, lines out).
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO: string = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
);
/** The server's permission flags: exactly deno.json's `mcp` task. */
export const SERVER_FLAGS = [
  "--allow-read",
  "--allow-env=NAZM_LOG",
  "--unstable-worker-options",
] as const;
/**
 * The lock flags of deno.json's `mcp` task, with the lock file's absolute
 * path: the server resolves its packages from server.lock alone, so a
 * package it imports that the lock lacks fails every protocol test.
 */
export const LOCK_FLAGS: readonly string[] = [`--lock=${join(REPO, "server.lock")}`, "--frozen"];
/** The default root every protocol test serves. */
export const EXAMPLE_ROOT: string = join(REPO, "examples", "shapes", "main.nz");
/** The modern revision. */
export const MODERN = "2026-07-28";

/** The test-only fixture server (tests/mcp/fixtures/server.ts): same machinery, test tools. */
export const FIXTURE_ENTRY: string = join(
  REPO,
  "tests",
  "mcp",
  "fixtures",
  "server.ts",
);

/** The argv of `deno run <flags> <entry> <args>`; the entry defaults to main.ts. */
export function serverArgs(
  args: readonly string[] = ["--root", EXAMPLE_ROOT],
  entry: string = join(REPO, "main.ts"),
): string[] {
  return ["run", ...LOCK_FLAGS, ...SERVER_FLAGS, entry, ...args];
}

/** What the child needs from our environment (DENO_DIR and friends), plus `extra`. */
export function childEnv(
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (
    const name of [
      "HOME",
      "PATH",
      "DENO_DIR",
      "XDG_CACHE_HOME",
      "TMPDIR",
      "NO_COLOR",
    ]
  ) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  env.NO_COLOR = "1";
  return { ...env, ...extra };
}

/** A connected SDK client and a way to close it. */
export interface Connected {
  client: Client;
  close(): Promise<void>;
}

/** Connects the SDK v2 Client over stdio, in the modern era (pinned) or the legacy one. */
export async function connectClient(
  era: "modern" | "legacy",
  args?: readonly string[],
  env?: Record<string, string>,
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: serverArgs(args),
    env: childEnv(env),
    cwd: REPO,
    stderr: "pipe",
  });
  const client = new Client(
    { name: "nazm-mcp-tests", version: "0.0.0" },
    era === "modern"
      ? { versionNegotiation: { mode: { pin: MODERN } } }
      : { versionNegotiation: { mode: "legacy" } },
  );
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** The outcome of a raw session: every stdout line parsed, stderr text, exit code. */
export interface Transcript {
  /** Every stdout line, parsed (a line that is not JSON fails the test at parse time). */
  messages: Record<string, unknown>[];
  /** The raw stdout text. */
  stdout: string;
  stderr: string;
  code: number;
  /** Milliseconds from spawn to exit. */
  elapsedMs: number;
}

/** Options of {@link transcript}. */
export interface TranscriptOptions {
  args?: readonly string[];
  env?: Record<string, string>;
  /** Milliseconds to wait before closing stdin (default: close right after writing). */
  holdMs?: number;
  /** Wait until this many stdout lines arrived before closing stdin. */
  waitForLines?: number;
  /** The entry script (default main.ts; FIXTURE_ENTRY for the fixture server). */
  entry?: string;
  /** Leave stdout unparsed (`messages` empty): for --help and --version. */
  raw?: boolean;
  /** The whole `deno` argv, instead of `serverArgs(args, entry)` (other Deno flags). */
  denoArgs?: readonly string[];
}

const encoder = new TextEncoder();

/** Spawns the real server with piped stdio and only the environment it needs. */
function spawnServer(
  options: {
    args?: readonly string[];
    entry?: string;
    env?: Record<string, string>;
    denoArgs?: readonly string[];
  },
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: options.denoArgs
      ? [...options.denoArgs]
      : serverArgs(options.args ?? (options.entry ? [] : undefined), options.entry),
    cwd: REPO,
    env: childEnv(options.env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * Starts the server, writes each input (a string is written as is, an object
 * as one JSON line), closes stdin, and collects everything until it exits.
 */
export async function transcript(
  inputs: readonly (string | Uint8Array | Record<string, unknown>)[],
  options: TranscriptOptions = {},
): Promise<Transcript> {
  const started = performance.now();
  const child = spawnServer(options);
  const stdoutChunks: Uint8Array[] = [];
  let lines = 0;
  let lineWaiter: (() => void) | undefined;
  const stdoutDone = (async () => {
    for await (const chunk of child.stdout) {
      stdoutChunks.push(chunk);
      for (const byte of chunk) if (byte === 10) lines++;
      if (options.waitForLines !== undefined && lines >= options.waitForLines) {
        lineWaiter?.();
      }
    }
  })();
  const stderrDone = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  try {
    for (const input of inputs) {
      const bytes = input instanceof Uint8Array ? input : encoder.encode(
        typeof input === "string" ? input : JSON.stringify(input) + "\n",
      );
      await writer.write(bytes);
    }
    if (options.waitForLines !== undefined && lines < options.waitForLines) {
      await new Promise<void>((resolve) => lineWaiter = resolve);
    }
    if (options.holdMs) {
      await new Promise((resolve) => setTimeout(resolve, options.holdMs));
    }
  } finally {
    await writer.close().catch(() => {});
  }
  const status = await child.status;
  await stdoutDone;
  const stderr = await stderrDone;
  const stdout = new TextDecoder().decode(concat(stdoutChunks));
  const messages = options.raw
    ? []
    : stdout.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
  return {
    messages,
    stdout,
    stderr,
    code: status.code,
    elapsedMs: performance.now() - started,
  };
}

/** Runs the server's command line to completion with empty stdin (flag tests). */
export async function runServerCommand(
  args: readonly string[],
): Promise<Transcript> {
  return await transcript([], { args, raw: true });
}

/**
 * The peak resident memory of a live process, in bytes (Linux: VmHWM), or
 * null elsewhere. Read by `cat`: Deno allows reading /proc/<pid> only with
 * every permission.
 */
export function peakRss(pid: number): number | null {
  if (Deno.build.os !== "linux") return null;
  try {
    const out = new Deno.Command("cat", { args: [`/proc/${pid}/status`] }).outputSync();
    const status = new TextDecoder().decode(out.stdout);
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** Resolves with `promise`, or rejects naming `what` after `ms` milliseconds. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The message answering request `id`, or a test failure naming what came back. */
export function answerTo(
  t: Transcript,
  id: string | number | null,
): Record<string, unknown> {
  const found = t.messages.filter((message) => message.id === id);
  if (found.length !== 1) {
    throw new Error(
      `expected one answer to id ${
        JSON.stringify(id)
      }, got ${found.length}:\n${t.stdout}\n${t.stderr}`,
    );
  }
  return found[0];
}

/** The 2026-07-28 envelope for `params._meta`. */
export function envelope(revision: string = MODERN): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": revision,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
}

/** A 2026-07-28 request line. */
export function modern(
  id: number,
  method: string,
  params: Record<string, unknown> = {},
  revision: string = MODERN,
): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: { ...params, _meta: envelope(revision) },
  };
}

/** A legacy `initialize` request and the `initialized` notification. */
export function legacyOpening(
  revision = "2025-11-25",
  id = 0,
): Record<string, unknown>[] {
  return [
    {
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: {
        protocolVersion: revision,
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ];
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** An interactive session with a spawned server: send lines, await answers. */
export interface Session {
  /** Writes one message (an object as one JSON line, a string as is). */
  send(message: Record<string, unknown> | string): Promise<void>;
  /** Resolves with the message answering `id`. */
  answer(id: string | number | null): Promise<Record<string, unknown>>;
  /** Closes stdin and waits for exit. */
  close(): Promise<
    { code: number; stderr: string; messages: Record<string, unknown>[] }
  >;
  /** Kills the server (a test that timed out); `close` then reports its end. */
  kill(): void;
  /** The server's process id. */
  readonly pid: number;
}

/** Starts a server for an interactive session. */
export function openSession(
  options: {
    args?: readonly string[];
    entry?: string;
    env?: Record<string, string>;
    /** The whole `deno` argv, instead of `serverArgs(args, entry)` (other Deno flags). */
    denoArgs?: readonly string[];
  } = {},
): Session {
  const child = spawnServer(options);
  const messages: Record<string, unknown>[] = [];
  const waiters: {
    id: unknown;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  const stdoutDone = (async () => {
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = buffer.indexOf("\n")) !== -1) {
        const message = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        messages.push(message);
        for (const waiter of waiters.filter((w) => w.id === message.id)) {
          waiter.resolve(message);
        }
      }
    }
  })();
  const stderrDone = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  return {
    async send(message) {
      await writer.write(
        encoder.encode(
          typeof message === "string" ? message : JSON.stringify(message) + "\n",
        ),
      );
    },
    answer(id) {
      const found = messages.find((message) => message.id === id);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ id, resolve }));
    },
    async close() {
      await writer.close().catch(() => {});
      const status = await child.status;
      await stdoutDone;
      return { code: status.code, stderr: await stderrDone, messages };
    },
    kill() {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    },
    pid: child.pid,
  };
}
