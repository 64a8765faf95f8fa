/**
 * Benchmarks "run" and "build": the back end's speed.
 *
 * - run: the compute program of bench/compute_gen.ts lowered by the back end
 *   and run in this process, against its TypeScript twin run by the same
 *   Deno, runs interleaved; medians; **ratio = Nazm ÷ TypeScript** (goal
 *   ≤ 2.0). The Int representations of bench/int_candidates.ts run on the
 *   same program as further rows. Each output is checked to be the twin's.
 * - build: `nazm build` of the generated 100,000-line program against
 *   `nazm check` of it, whole processes with the same flags, interleaved;
 *   medians; **ratio = build ÷ check** (goal ≤ 1.5); the in-process split
 *   (check, check with resolutions, lowering, BLAKE3) as further rows.
 *
 * @module
 */
import {
  type BenchContext,
  type Benchmark,
  type BenchResult,
  fmt,
  measureProcess,
  median,
  type ProcessRun,
} from "./common.ts";
import { generateCompute } from "./compute_gen.ts";
import { INT_CANDIDATES } from "./int_candidates.ts";
import { loadCompilation } from "../src/semantics/mod.ts";
import { generateModule } from "../src/backend/mod.ts";
import { blake3 } from "../src/base/mod.ts";

/** Transactions in the compute program: lists of this length and half of it. */
export const COMPUTE_ITEMS = 200_000;

type Runner = (output: (text: string) => void) => unknown;

async function importRun(path: string): Promise<Runner> {
  const mod = await import(new URL(`file://${path}`).href) as { run: Runner };
  return mod.run;
}

async function runBenchmark(ctx: BenchContext): Promise<BenchResult> {
  const dir = `${ctx.outDir}/compute`;
  Deno.mkdirSync(dir, { recursive: true });
  const program = generateCompute({ items: COMPUTE_ITEMS });
  Deno.writeTextFileSync(`${dir}/main.nz`, program.nazm);
  Deno.writeTextFileSync(`${dir}/twin.ts`, program.ts);
  const compilation = loadCompilation(`${dir}/main.nz`, { resolve: true });
  const errors = compilation.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`the compute program has errors: ${errors[0].message}`);

  const subjects: { key: string; label: string; run: Runner }[] = [];
  for (const candidate of INT_CANDIDATES) {
    const text = candidate.transform(
      generateModule(compilation, { entry: "library", intLiterals: candidate.name }),
    );
    const path = `${dir}/nazm-${candidate.name}.js`;
    Deno.writeTextFileSync(path, text);
    subjects.push({
      key: `nazm_${candidate.name}`,
      label: `Nazm, Int as ${candidate.label}`,
      run: await importRun(path),
    });
  }
  subjects.push({ key: "ts", label: "TypeScript twin", run: await importRun(`${dir}/twin.ts`) });

  ctx.log(
    `run: ${COMPUTE_ITEMS} transactions, ${ctx.runs} runs + ${ctx.warmups} warm-ups each, interleaved`,
  );
  const notes: string[] = [];
  const times = new Map<string, number[]>(subjects.map((s) => [s.key, []]));
  const outputs = new Map<string, string>();
  // One subject's garbage must not be collected on another's time: a full
  // collection before each run (the bench task exposes `gc`), and the order
  // rotates from one round to the next.
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) notes.push("gc() is not exposed: runs may pay for each other's garbage");
  for (let i = 0; i < ctx.warmups + ctx.runs; i++) {
    for (let j = 0; j < subjects.length; j++) {
      const s = subjects[(i + j) % subjects.length];
      gc?.();
      let out = "";
      const t0 = performance.now();
      s.run((text) => (out += text));
      const ms = performance.now() - t0;
      if (i >= ctx.warmups) times.get(s.key)!.push(ms);
      outputs.set(s.key, out);
    }
  }
  const reference = outputs.get("ts")!;
  for (const s of subjects) {
    if (outputs.get(s.key) !== reference) {
      throw new Error(`${s.label} printed something else than the twin:\n${outputs.get(s.key)}`);
    }
  }
  // A shared machine's load drifts: the ratio is the median of each round's
  // own ratio (runs next to each other see the same load), beside the medians.
  const ts = times.get("ts")!;
  const metrics: Record<string, number | string | null> = { items: COMPUTE_ITEMS };
  const rows: string[][] = [];
  for (const s of subjects) {
    const own = times.get(s.key)!;
    const ms = median(own);
    const ratio = median(own.map((t, i) => t / ts[i]));
    metrics[`${s.key}_ms`] = Math.round(ms);
    if (s.key !== "ts") metrics[`${s.key}_ratio`] = Math.round(ratio * 1000) / 1000;
    rows.push([s.label, fmt(ms, 0), s.key === "ts" ? "1.00" : fmt(ratio, 2)]);
  }
  metrics.ratio = metrics.nazm_safe_ratio;
  rows.push([
    "ratio Nazm ÷ TypeScript (the runtime's Int; goal ≤ 2.0)",
    "",
    fmt(Number(metrics.ratio), 2),
  ]);
  notes.push(`output checked equal to the twin's: ${reference.split("\n")[0].slice(0, 80)}…`);
  return {
    status: "ok",
    notes,
    table: { header: ["run (in process)", "median ms", "median of ÷ TypeScript per round"], rows },
    metrics,
  };
}

/** The run benchmark. */
export const runBench: Benchmark = {
  name: "run",
  title: "the compute program lowered to JavaScript vs its TypeScript twin, both run by Deno",
  run: runBenchmark,
};

async function buildBenchmark(ctx: BenchContext): Promise<BenchResult> {
  const root = `${ctx.programDir}/nazm/main.nz`;
  const out = `${ctx.outDir}/gen-built.js`;
  const cli = `${ctx.repoDir}/src/cli/main.ts`;
  // The flags of `deno task nazm`, for both.
  const flags = ["run", "--allow-read", "--allow-write", "--unstable-worker-options", cli];
  const subjects = [
    {
      key: "build",
      label: "nazm build (whole process)",
      args: [...flags, "build", root, "-o", out],
    },
    { key: "check", label: "nazm check (whole process)", args: [...flags, "check", root] },
  ];
  ctx.log(`build: whole process, ${ctx.runs} runs + 1 warm-up each, interleaved`);
  const runs = new Map<string, ProcessRun[]>(subjects.map((s) => [s.key, []]));
  for (let i = 0; i < 1 + ctx.runs; i++) {
    for (const s of subjects) {
      const r = await measureProcess(Deno.execPath(), s.args, { cwd: ctx.repoDir });
      if (r.code !== 0) throw new Error(`${s.label} exited ${r.code}: ${r.stderr.slice(0, 300)}`);
      if (i > 0) runs.get(s.key)!.push(r);
    }
  }
  const wall = (key: string) => median(runs.get(key)!.map((r) => r.wallMs));
  const rss = (key: string) => Math.max(...runs.get(key)!.map((r) => r.peakRssMiB ?? 0));
  const cpus = (key: string) => runs.get(key)!.map((r) => r.cpuMs);
  // A shared machine's load drifts: the ratio is the median of each round's
  // own ratio (the two runs of a round are next to each other).
  const builds = runs.get("build")!;
  const checks = runs.get("check")!;
  const ratio = median(builds.map((b, i) => b.wallMs / checks[i].wallMs));
  const cpuKnown = [...cpus("build"), ...cpus("check")].every((x) => x !== null);
  const cpuRatio = cpuKnown ? median(builds.map((b, i) => b.cpuMs! / checks[i].cpuMs!)) : null;
  const built = Deno.readFileSync(out);
  const rows: string[][] = subjects.map((s) => [
    s.label,
    fmt(wall(s.key), 0),
    cpuKnown ? fmt(median(cpus(s.key) as number[]), 0) : "—",
    fmt(rss(s.key), 0),
  ]);
  rows.push([
    "ratio build ÷ check (wall, median of rounds; goal ≤ 1.5)",
    fmt(ratio, 2),
    fmt(cpuRatio, 2),
    "",
  ]);

  // In process: where the difference goes.
  ctx.log("build: in process split");
  const phases = {
    check: [] as number[],
    resolve: [] as number[],
    lower: [] as number[],
    hash: [] as number[],
  };
  for (let i = 0; i < ctx.warmups + ctx.runs; i++) {
    let t0 = performance.now();
    loadCompilation(root);
    const check = performance.now() - t0;
    t0 = performance.now();
    const compilation = loadCompilation(root, { resolve: true });
    const resolve = performance.now() - t0;
    t0 = performance.now();
    const bytes = new TextEncoder().encode(generateModule(compilation, { entry: "standalone" }));
    const lower = performance.now() - t0;
    t0 = performance.now();
    blake3(bytes);
    const hash = performance.now() - t0;
    if (i < ctx.warmups) continue;
    phases.check.push(check);
    phases.resolve.push(resolve);
    phases.lower.push(lower);
    phases.hash.push(hash);
  }
  const inProcessBuild = median(phases.resolve) + median(phases.lower) + median(phases.hash);
  rows.push(
    ["in process: check (load, parse, check)", fmt(median(phases.check), 0), "", ""],
    ["in process: check with resolutions recorded", fmt(median(phases.resolve), 0), "", ""],
    ["in process: lowering and assembling the module", fmt(median(phases.lower), 0), "", ""],
    ["in process: UTF-8 and BLAKE3 of the module", fmt(median(phases.hash), 0), "", ""],
    ["in process: ratio build ÷ check", fmt(inProcessBuild / median(phases.check), 2), "", ""],
  );
  return {
    status: "ok",
    notes: [`built ${built.length} bytes of JavaScript`],
    table: { header: ["build (median)", "wall ms", "CPU ms", "peak RSS MiB"], rows },
    metrics: {
      build_ms: Math.round(wall("build")),
      check_ms: Math.round(wall("check")),
      ratio: Math.round(ratio * 1000) / 1000,
      cpu_ratio: cpuRatio === null ? null : Math.round(cpuRatio * 1000) / 1000,
      build_peak_rss_mib: Math.round(rss("build")),
      output_bytes: built.length,
      in_process_check_ms: Math.round(median(phases.check)),
      in_process_resolve_ms: Math.round(median(phases.resolve)),
      in_process_lower_ms: Math.round(median(phases.lower)),
      in_process_hash_ms: Math.round(median(phases.hash)),
      in_process_ratio: Math.round((inProcessBuild / median(phases.check)) * 1000) / 1000,
    },
  };
}

/** The build benchmark. */
export const buildBench: Benchmark = {
  name: "build",
  title: "nazm build of the generated program vs nazm check of it",
  run: buildBenchmark,
};
