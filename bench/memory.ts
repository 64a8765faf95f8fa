/**
 * Peak memory of the whole server process for the biggest inputs it
 * accepts, each in a fresh `nazm-mcp` spawned with the user's flags, one
 * request on stdin, measured from spawn to exit (README.md's limits table):
 *
 * - a delta against a baseline just under its 64 MiB limit;
 * - the snapshot of 50,000 small functions (a 35 MB answer);
 * - the snapshot of the generated program (`--lines`, 100,000 by default);
 * - the diagnostics of a program whose analysis needs more than the analysis
 *   heap's limit (8 MiB of small functions): stopped alone, answered
 *   `internal_error`, the process survives.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { SECTIONS } from "../src/contracts/mod.ts";
import { MAX_BASELINE_BYTES, semanticSnapshot } from "../src/facts/mod.ts";
import {
  type BenchContext,
  type Benchmark,
  type BenchResult,
  fmt,
  measureProcess,
  rssMethod,
} from "./common.ts";

const FLAGS = ["--allow-read", "--allow-env=NAZM_LOG", "--unstable-worker-options"];
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function call(name: string, args: string): Uint8Array {
  const head = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: { "@": 0 }, _meta: ENVELOPE },
  });
  return new TextEncoder().encode(head.replace('{"@":0}', args) + "\n");
}

/** `modules` files of `perModule` small functions each, and a root importing them all. */
function smallFunctions(dir: string, modules: number, perModule: number): string {
  Deno.mkdirSync(dir, { recursive: true });
  for (let m = 0; m < modules; m++) {
    const body = Array.from(
      { length: perModule },
      (_, f) => `pub fn f${f}(x: Int) -> Int {\n  x + ${f}\n}\n`,
    ).join("\n");
    Deno.writeTextFileSync(join(dir, `m${m}.nz`), body);
  }
  const imports = Array.from({ length: modules }, (_, m) => `import m${m}\n`).join("");
  Deno.writeTextFileSync(
    join(dir, "main.nz"),
    `${imports}\nfn main() -> Unit {\n  print(to_string(m0.f0(1)))\n}\n`,
  );
  return join(dir, "main.nz");
}

/**
 * A well-formed snapshot of the program of `root` (its root identity,
 * compiler and unsupported list as the server gives them) with made-up
 * definitions, just under `bytes` bytes of JSON.
 */
function baselineOf(root: string, bytes: number): string {
  const real = semanticSnapshot({
    root: Deno.realPathSync(root),
    sourceRoot: Deno.realPathSync(dirname(root)),
  });
  if (real.kind !== "answer") throw new Error(`no snapshot of ${root}`);
  const { root: identity, compiler, unsupported } = real.value;
  const head = `{"schema":${JSON.stringify(real.value.schema)},"root":${
    JSON.stringify(identity)
  },"compiler":${JSON.stringify(compiler)},"unsupported":${
    JSON.stringify(unsupported)
  },"definitions":{`;
  const parts: string[] = [];
  let size = head.length + 2;
  for (let i = 0;; i++) {
    const digest = (k: number) =>
      ((i * 2654435761 + k) >>> 0).toString(16).padStart(8, "0").repeat(8);
    const entry = `"gen.m::f${i}":${
      JSON.stringify({
        kind: "function",
        name: `f${i}`,
        module: "gen.m",
        digests: Object.fromEntries(SECTIONS.map((s, k) => [s, digest(k)])),
      })
    }`;
    if (size + entry.length + 1 > bytes) break;
    parts.push(entry);
    size += entry.length + 1;
  }
  return `${head}${parts.join(",")}}}`;
}

export const memoryBench: Benchmark = {
  name: "memory",
  title: "peak memory of the server process on the biggest accepted inputs",
  async run(ctx: BenchContext): Promise<BenchResult> {
    const dir = join(ctx.outDir, "memory");
    const shapes = join(ctx.repoDir, "examples", "shapes", "main.nz");
    const cases: { name: string; root: string; input: Uint8Array }[] = [
      {
        name: "delta, 64 MiB baseline",
        root: shapes,
        input: call(
          "nazm.semantic_delta",
          `{"baseline":${baselineOf(shapes, MAX_BASELINE_BYTES - 4096)}}`,
        ),
      },
      {
        name: "snapshot, 50,000 functions",
        root: smallFunctions(join(dir, "f50k"), 50, 1000),
        input: call("nazm.semantic_snapshot", "{}"),
      },
      {
        name: `snapshot, generated ${ctx.program.stats.nazmLines} lines`,
        root: join(ctx.programDir, "nazm", ctx.program.nazmRoot),
        input: call("nazm.semantic_snapshot", "{}"),
      },
      {
        name: "diagnostics, 8 MiB of functions (over the heap limit)",
        root: smallFunctions(join(dir, "f8mib"), 1, 179_000),
        input: call("nazm.diagnostics", "{}"),
      },
    ];
    const rows: string[][] = [];
    const metrics: Record<string, number | string | null> = { method: rssMethod() };
    for (const c of cases) {
      ctx.log(`memory: ${c.name}`);
      const r = await measureProcess(
        Deno.execPath(),
        ["run", ...FLAGS, join(ctx.repoDir, "main.ts"), "--root", c.root],
        { input: c.input },
      );
      const outcome = r.stdout.includes("ran out of memory")
        ? "internal_error: out of memory"
        : r.stdout.includes("internal_error")
        ? "internal_error"
        : r.stdout.includes('"isError":true')
        ? "refused"
        : "answered";
      rows.push([
        c.name,
        fmt(r.peakRssMiB, 0),
        fmt(r.wallMs / 1000, 1),
        fmt(r.stdout.length / 2 ** 20, 1),
        `${outcome}, exit ${r.code}`,
      ]);
      metrics[`${c.name} peak MiB`] = r.peakRssMiB;
    }
    return {
      status: "ok",
      notes: [],
      table: { header: ["input", "peak RSS MiB", "wall s", "answer MiB", "outcome"], rows },
      metrics,
    };
  },
};
