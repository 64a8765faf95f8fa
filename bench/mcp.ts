/**
 * MCP latency: nazm.semantic_context over stdio on the generated program,
 * through the real server spawned with the user's flags and the SDK Client.
 *
 * - reference: reading and BLAKE3-hashing every file of the program, in this
 *   process (sync reads, one reused hasher): what every call cost before the
 *   server kept the files it read (a call now looks at each file with lstat
 *   and reads only the changed ones).
 * - warm: the median round trip of one call on a server that has answered
 *   before, the disk unchanged. Goal: at most 5 times the reference.
 * - after a body edit: a call after one function body of the module before
 *   the queried one changed (a `let` added): that file re-parsed and that
 *   module alone checked again (the engine's cut-off). Goal: at most 3 times
 *   warm.
 * - after a signature edit: a call after a parameter's type of an exported
 *   function of that module changed (Int ↔ String, its callers now wrong):
 *   that module and the modules that read its interface checked again.
 *   Goal: at most 8 times warm.
 * - cold: from spawning the server to the first answer, interleaved with
 *   tsc 7 `--noEmit` on the TypeScript twin (spawn to exit). Goal: the ratio
 *   at most 1.0. The server is started once, by a client that opens with the
 *   `initialize` handshake (as Claude Code, Cursor and the Inspector do).
 *   Also timed, the same way: an SDK v2 client pinned to 2026-07-28, which
 *   first starts a second server of its own to ask `server/discover`, then
 *   the one it talks to (its stdio negotiation, `negotiateStdioViaSibling`):
 *   two server starts, the first competing for the cores.
 * - the runtime's part of it: how long an empty worker takes to send its
 *   first message when a worker starts it, as the sandbox starts the
 *   analysis (sandbox.ts), against one the main thread starts. Deno 2.9.0
 *   takes some 45 ms for either; 2.9.1 to 2.9.6 take about 540 ms for the
 *   former, with the CPU idle.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { join } from "node:path";
import { blake3 } from "../src/base/mod.ts";
import { findTsc } from "./check.ts";
import {
  type BenchContext,
  type Benchmark,
  type BenchResult,
  fmt,
  measureProcess,
  median,
} from "./common.ts";

const FLAGS = ["--allow-read", "--allow-env=NAZM_LOG", "--unstable-worker-options"];

function nazmFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...nazmFiles(path));
    else if (entry.name.endsWith(".nz")) out.push(path);
  }
  return out.sort();
}

/** A position on the name of the first function of a module file: the request every call makes. */
function targetIn(sourceRoot: string, files: readonly string[]) {
  const file = files[Math.floor(files.length / 2)];
  const lines = Deno.readTextFileSync(file).split("\n");
  for (const [i, line] of lines.entries()) {
    const match = /^(pub )?fn ([a-z_0-9]+)/.exec(line);
    if (match) {
      return {
        file: file.slice(sourceRoot.length + 1),
        position: { line: i + 1, column: line.indexOf(match[2]) + 1 },
      };
    }
  }
  throw new Error(`no function in ${file}`);
}

/** The module text with a `let` added to its first function's body (the `r`-th edit). */
function bodyEdit(text: string, r: number): string {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => /^(pub )?fn .*\{$/.test(line));
  if (at < 0) throw new Error("no function to edit");
  lines.splice(at + 1, 0, `  let _bench${r} = ${r};`);
  return lines.join("\n");
}

/** The module text with the first `Int` parameter of an exported function made a `String`. */
function signatureEdit(text: string): string {
  const edited = text.replace(/^(pub fn \w+\([^)]*?\w+: )Int\b/m, "$1String");
  if (edited === text) throw new Error("no Int parameter to edit");
  return edited;
}

/** The data of a worker's first message; the worker is terminated. */
function firstMessage(worker: Worker): Promise<unknown> {
  return new Promise((resolve) =>
    worker.onmessage = (event) => {
      worker.terminate();
      resolve(event.data);
    }
  );
}

/** Milliseconds from creating an empty worker to its first message, started here or by a worker. */
async function workerStart(nested: boolean): Promise<number> {
  const empty = "data:application/javascript,postMessage(0)";
  if (!nested) {
    const t = performance.now();
    await firstMessage(new Worker(empty, { type: "module" }));
    return performance.now() - t;
  }
  const outer = `const t = performance.now();
    const w = new Worker(${JSON.stringify(empty)}, { type: "module" });
    w.onmessage = () => { postMessage(performance.now() - t); w.terminate(); };`;
  const url = `data:application/javascript,${encodeURIComponent(outer)}`;
  return await firstMessage(new Worker(url, { type: "module" })) as number;
}

/** How a client opens: `initialize` first, or pinned to 2026-07-28 (a probe server first). */
type Opening = "initialize" | "pinned";

async function connect(repoDir: string, root: string, opening: Opening): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...FLAGS, join(repoDir, "main.ts"), "--root", root],
    env: { HOME: Deno.env.get("HOME") ?? "", PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1" },
    stderr: "ignore",
  });
  const client = new Client(
    { name: "nazm-bench", version: "0" },
    opening === "pinned" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(transport);
  return client;
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

export const mcpBench: Benchmark = {
  name: "mcp",
  title: "nazm.semantic_context over stdio, warm and cold, against reading and hashing every file",
  async run(ctx: BenchContext): Promise<BenchResult> {
    const sourceRoot = join(ctx.programDir, "nazm");
    const root = join(sourceRoot, ctx.program.nazmRoot);
    const files = nazmFiles(sourceRoot);
    const request = targetIn(sourceRoot, files);
    const readAndHash = () => {
      for (const file of files) blake3(Deno.readFileSync(file));
    };
    const reference: number[] = [];
    for (let i = 0; i < ctx.warmups; i++) readAndHash();
    for (let i = 0; i < ctx.runs * 3; i++) {
      const t0 = performance.now();
      readAndHash();
      reference.push(performance.now() - t0);
    }

    const cold: number[] = [];
    const coldPinned: number[] = [];
    const tscCold: number[] = [];
    const warm: number[] = [];
    const bodyEdited: number[] = [];
    const signatureEdited: number[] = [];
    const call = (client: Client) => async () => {
      const result = await client.callTool({ name: "nazm.semantic_context", arguments: request });
      if (result.isError) throw new Error(`refused: ${JSON.stringify(result.structuredContent)}`);
    };
    // The module before the queried one: the queried module imports it.
    const editedFile = files[Math.floor(files.length / 2) - 1];
    const original = Deno.readTextFileSync(editedFile);
    const tsc = await findTsc(ctx.outDir, ctx.log);
    const notes = [
      `${files.length} files; every call looks at them all, and reads the changed ones`,
    ];
    if (typeof tsc === "string") notes.push(`skipped tsc: ${tsc}`);
    try {
      for (let i = 0; i < 1 + 3; i++) {
        // Interleaved with tsc (the first of each a warm-up of the disk and module caches).
        if (typeof tsc !== "string") {
          const r = await measureProcess(tsc.cmd, [
            ...tsc.prefix,
            "--noEmit",
            "-p",
            join(ctx.programDir, "ts"),
          ]);
          if (i > 0) tscCold.push(r.wallMs);
        }
        const t = performance.now();
        const once = await connect(ctx.repoDir, root, "initialize");
        await call(once)();
        if (i > 0) cold.push(performance.now() - t);
        await once.close();
        const t0 = performance.now();
        const client = await connect(ctx.repoDir, root, "pinned");
        await call(client)();
        if (i > 0) coldPinned.push(performance.now() - t0);
        if (i === 0) {
          for (let w = 0; w < ctx.warmups; w++) await call(client)();
          for (let r = 0; r < ctx.runs * 3; r++) warm.push(await timed(call(client)));
          // Each edit against the one before: a body edit, then a signature
          // edit and back (two signature edits), interleaved.
          for (let r = 0; r < ctx.runs + ctx.warmups; r++) {
            Deno.writeTextFileSync(editedFile, bodyEdit(original, r));
            const body = await timed(call(client));
            Deno.writeTextFileSync(editedFile, signatureEdit(bodyEdit(original, r)));
            const signature = await timed(call(client));
            if (r >= ctx.warmups) {
              bodyEdited.push(body);
              signatureEdited.push(signature);
            }
          }
        }
        await client.close();
      }
    } finally {
      Deno.writeTextFileSync(editedFile, original);
    }
    const ref = median(reference);
    const warmMedian = median(warm);
    const body = median(bodyEdited);
    const signature = median(signatureEdited);
    const nestedStart: number[] = [];
    const directStart: number[] = [];
    for (let i = 0; i < 3; i++) {
      nestedStart.push(await workerStart(true));
      directStart.push(await workerStart(false));
    }
    notes.push(
      `Deno ${Deno.version.deno}: an empty worker started by a worker sends its first message after ` +
        `${fmt(median(nestedStart))} ms, one started by the main thread after ` +
        `${fmt(median(directStart))} ms (median of 3; the first analysis is the latter, one ` +
        `started after a failure the former)`,
    );
    const coldMedian = median(cold);
    const pinnedMedian = median(coldPinned);
    const tscMedian = tscCold.length > 0 ? median(tscCold) : null;
    const edited = editedFile.slice(sourceRoot.length + 1);
    return {
      status: "ok",
      notes,
      table: {
        header: ["what", "median ms", "ratio"],
        rows: [
          ["read + BLAKE3 every file (reference)", fmt(ref), "1.0"],
          [
            "semantic_context, warm, disk unchanged (÷ reference; goal ≤ 5)",
            fmt(warmMedian),
            fmt(warmMedian / ref, 2),
          ],
          [
            `after a body edit of ${edited} (÷ warm; goal ≤ 3)`,
            fmt(body),
            fmt(body / warmMedian, 2),
          ],
          [
            `after a signature edit of ${edited} (÷ warm; goal ≤ 8)`,
            fmt(signature),
            fmt(signature / warmMedian, 2),
          ],
          [
            "cold: spawn to first answer (÷ tsc; goal ≤ 1.0)",
            fmt(coldMedian),
            tscMedian === null ? "—" : fmt(coldMedian / tscMedian, 2),
          ],
          [
            "cold, SDK v2 client pinned to 2026-07-28: a probe server first (÷ tsc)",
            fmt(pinnedMedian),
            tscMedian === null ? "—" : fmt(pinnedMedian / tscMedian, 2),
          ],
          ["tsc 7 --noEmit on the TypeScript twin (spawn to exit)", fmt(tscMedian), "—"],
        ],
      },
      metrics: {
        reference_ms: ref,
        warm_ms: warmMedian,
        warm_ratio: warmMedian / ref,
        body_edit_ms: body,
        body_edit_ratio: body / warmMedian,
        signature_edit_ms: signature,
        signature_edit_ratio: signature / warmMedian,
        cold_ms: coldMedian,
        tsc_cold_ms: tscMedian,
        cold_ratio: tscMedian === null ? null : coldMedian / tscMedian,
        cold_pinned_ms: pinnedMedian,
        cold_pinned_ratio: tscMedian === null ? null : pinnedMedian / tscMedian,
        nested_worker_start_ms: median(nestedStart),
        worker_start_ms: median(directStart),
      },
    };
  },
};
