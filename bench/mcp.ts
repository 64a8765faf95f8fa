/**
 * MCP latency: nazm.semantic_context over stdio on the generated program,
 * through the real server spawned with the user's flags and the SDK Client.
 *
 * - reference: reading and BLAKE3-hashing every file of the program, in this
 *   process (sync reads, one reused hasher): the floor of any call that
 *   re-reads the disk, as every call does.
 * - warm: the median round trip of one call on a server that has answered
 *   before, the disk unchanged. Goal: at most 5 times the reference.
 * - after an edit: a call after one file changed (its parse and the whole
 *   analysis redone).
 * - cold: from spawning the server to the first answer.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { join } from "node:path";
import { blake3 } from "../src/base/mod.ts";
import { type BenchContext, type Benchmark, type BenchResult, fmt, median } from "./common.ts";

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

async function connect(repoDir: string, root: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...FLAGS, join(repoDir, "main.ts"), "--root", root],
    env: { HOME: Deno.env.get("HOME") ?? "", PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1" },
    stderr: "ignore",
  });
  const client = new Client({ name: "nazm-bench", version: "0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
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
    const warm: number[] = [];
    const edited: number[] = [];
    const call = (client: Client) => async () => {
      const result = await client.callTool({ name: "nazm.semantic_context", arguments: request });
      if (result.isError) throw new Error(`refused: ${JSON.stringify(result.structuredContent)}`);
    };
    const editedFile = files[0];
    const original = Deno.readTextFileSync(editedFile);
    try {
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const client = await connect(ctx.repoDir, root);
        await call(client)();
        cold.push(performance.now() - t0);
        if (i === 0) {
          for (let w = 0; w < ctx.warmups; w++) await call(client)();
          for (let r = 0; r < ctx.runs * 3; r++) warm.push(await timed(call(client)));
          for (let r = 0; r < ctx.runs; r++) {
            Deno.writeTextFileSync(editedFile, `${original}\n// edit ${r}\n`);
            edited.push(await timed(call(client)));
          }
        }
        await client.close();
      }
    } finally {
      Deno.writeTextFileSync(editedFile, original);
    }
    const ref = median(reference);
    const warmMedian = median(warm);
    return {
      status: "ok",
      notes: [`${files.length} files; every call re-reads and re-hashes them all`],
      table: {
        header: ["what", "median ms", "ratio to reference"],
        rows: [
          ["read + BLAKE3 every file (reference)", fmt(ref), "1.0"],
          ["semantic_context, warm, disk unchanged", fmt(warmMedian), fmt(warmMedian / ref, 2)],
          [
            "semantic_context after a one-file edit",
            fmt(median(edited)),
            fmt(median(edited) / ref, 2),
          ],
          ["cold: spawn to first answer", fmt(median(cold)), "—"],
        ],
      },
      metrics: {
        reference_ms: ref,
        warm_ms: warmMedian,
        warm_ratio: warmMedian / ref,
        after_edit_ms: median(edited),
        cold_ms: median(cold),
      },
    };
  },
};
