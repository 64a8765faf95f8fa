/**
 * `deno task bench`: generates the synthetic program once (in memory and
 * under bench/out/), then runs every benchmark of {@link BENCHMARKS} in this
 * process, prints one table each and, last, one JSON line with every metric.
 *
 * A benchmark whose subject is missing (the parser or the checker not there
 * yet, no tsc) says so in a note and the others still run.
 *
 * Flags: `--lines N` (default 100000), `--runs N` (default 7), `--warmups N`
 * (default 2), `--only a,b` (benchmark names; `memory` runs only when named),
 * `--seed N`.
 *
 * @module
 */

import { generate, writeProgram } from "./gen.ts";
import {
  type BenchContext,
  type Benchmark,
  type BenchResult,
  errorMessage,
  renderTable,
} from "./common.ts";
import { parseBench } from "./parse.ts";
import { checkBench } from "./check.ts";
import { mcpBench } from "./mcp.ts";
import { patchBench } from "./patch.ts";
import { memoryBench } from "./memory.ts";
import { buildBench, runBench } from "./backend.ts";
import { lspBench } from "./lsp.ts";

/** Every benchmark, in the order they run. Add one here (one file per benchmark). */
export const BENCHMARKS: readonly Benchmark[] = [
  parseBench,
  checkBench,
  mcpBench,
  patchBench,
  lspBench,
  runBench,
  buildBench,
];

/** Benchmarks run only when `--only` names them (each takes minutes). */
export const ON_REQUEST: readonly Benchmark[] = [memoryBench];

interface Flags {
  lines: number;
  runs: number;
  warmups: number;
  seed: number | undefined;
  only: string[] | null;
}

function parseFlags(args: readonly string[]): Flags {
  const flags: Flags = { lines: 100_000, runs: 7, warmups: 2, seed: undefined, only: null };
  for (let i = 0; i < args.length; i++) {
    const value = args[i + 1] ?? "";
    switch (args[i]) {
      case "--lines":
        flags.lines = Number(value);
        break;
      case "--runs":
        flags.runs = Number(value);
        break;
      case "--warmups":
        flags.warmups = Number(value);
        break;
      case "--seed":
        flags.seed = Number(value);
        break;
      case "--only":
        flags.only = value.split(",");
        break;
      default:
        throw new Error(
          `Unknown flag ${args[i]} (known: --lines, --runs, --warmups, --seed, --only)`,
        );
    }
    i++;
  }
  return flags;
}

function dirOf(url: URL): string {
  const path = decodeURIComponent(url.pathname);
  return path.endsWith("/") ? path.slice(0, -1) : path;
}

async function main(): Promise<void> {
  const flags = parseFlags(Deno.args);
  const benchDir = dirOf(new URL(".", import.meta.url));
  const repoDir = benchDir.slice(0, benchDir.lastIndexOf("/"));
  const outDir = `${benchDir}/out`;
  const programDir = `${outDir}/gen${Math.round(flags.lines / 1000)}k`;
  const log = (m: string) => console.error(`[bench] ${m}`);

  const t0 = performance.now();
  const program = generate({ lines: flags.lines, seed: flags.seed });
  writeProgram(program, programDir);
  const s = program.stats;
  log(
    `generated ${programDir}: ${s.modules} modules; nazm ${s.nazmLines} lines ` +
      `(${(s.nazmBytes / 1e6).toFixed(2)} MB), ts ${s.tsLines} lines ` +
      `(${(s.tsBytes / 1e6).toFixed(2)} MB) in ${(performance.now() - t0).toFixed(0)} ms`,
  );

  const ctx: BenchContext = {
    program,
    programDir,
    repoDir,
    outDir,
    runs: flags.runs,
    warmups: flags.warmups,
    log,
  };
  const results: Record<string, unknown> = {};
  console.log(
    `Nazm benchmarks — ${s.modules + 1} files, nazm ${s.nazmLines} lines, ts twin ${s.tsLines} ` +
      `lines; deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores`,
  );
  for (const bench of [...BENCHMARKS, ...ON_REQUEST]) {
    if (flags.only ? !flags.only.includes(bench.name) : ON_REQUEST.includes(bench)) continue;
    console.log(`\n## ${bench.name}: ${bench.title}\n`);
    let result: BenchResult;
    const started = performance.now();
    try {
      result = await bench.run(ctx);
    } catch (e) {
      // A benchmark that throws is reported, and the others still run.
      result = {
        status: "skipped",
        notes: [`failed: ${errorMessage(e)}`],
        table: { header: [], rows: [] },
        metrics: {},
      };
    }
    if (result.table.rows.length > 0) console.log(renderTable(result.table));
    for (const note of result.notes) console.log(`note: ${note}`);
    log(`${bench.name} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    results[bench.name] = { status: result.status, notes: result.notes, ...result.metrics };
  }
  console.log();
  console.log(JSON.stringify({
    bench: "nazm",
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    program: { ...s, seed: flags.seed ?? null },
    runs: flags.runs,
    warmups: flags.warmups,
    results,
  }));
}

if (import.meta.main) await main();
