/**
 * Benchmarks "run" and "build": the back end's speed.
 *
 * - run: the compute program of bench/compute_gen.ts lowered by the back end
 *   and run against its TypeScript twin by the same Deno, each in a worker
 *   of its own (as `nazm run` runs a program), runs interleaved; medians;
 *   **ratio = Nazm ÷ TypeScript** (goal ≤ 2.0). The Int representations of
 *   bench/int_candidates.ts run on the same program as further rows, and on
 *   a second, small program of Ints between 2^31 and 2^53. Each output is
 *   checked to be the twin's.
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

/** A subject of benchmark "run", loaded in a worker of its own (bench/run_worker.ts). */
class Subject {
  readonly #worker = new Worker(new URL("./run_worker.ts", import.meta.url), { type: "module" });
  #answer: ((data: unknown) => void) | null = null;
  #fail: ((error: Error) => void) | null = null;

  constructor(readonly key: string, readonly label: string) {
    this.#worker.onmessage = (event) => this.#answer?.(event.data);
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#fail?.(new Error(`${label}: ${event.message}`));
    };
  }

  #ask<T>(message: unknown): Promise<T> {
    return new Promise((resolve, reject) => {
      this.#answer = (data) => resolve(data as T);
      this.#fail = reject;
      this.#worker.postMessage(message);
    });
  }

  /** Whether the worker can collect garbage on demand (known once loaded). */
  gc = false;

  async load(path: string): Promise<void> {
    this.gc = (await this.#ask<{ gc: boolean }>({ module: new URL(`file://${path}`).href })).gc;
  }

  run(): Promise<{ ms: number; output: string }> {
    return this.#ask({ run: true });
  }

  close(): void {
    this.#worker.terminate();
  }
}

/** A program of benchmark "run": Nazm source and its TypeScript twin (exporting `run(output)`). */
interface RunProgram {
  readonly name: string;
  readonly nazm: string;
  readonly ts: string;
}

/**
 * The second program: millisecond timestamps (past 2^31, within 2^53)
 * summed 2,000,000 times, the values the 32-bit and the 53-bit fast paths
 * part on, and no list, record or string to hide the difference.
 */
const WIDE_INTS: RunProgram = {
  name: "wide",
  nazm: `fn sum(n: Int, at: Int, acc: Int) -> Int {
  if n == 0 { acc } else { sum(n - 1, at + 1003, acc + at % 86400000 + at / 1000) }
}

fn main() -> Unit {
  print(to_string(sum(2000000, 1700000000000, 0)));
}
`,
  ts: `export function run(print: (text: string) => void): void {
  let acc = 0;
  let at = 1700000000000;
  for (let n = 2000000; n !== 0; n--) {
    acc = acc + (at % 86400000) + Math.trunc(at / 1000);
    at += 1003;
  }
  print(String(acc) + "\\n");
}
`,
};

/**
 * Writes the program, its twin and each Int candidate's module into `dir`,
 * and loads each in a worker of its own: the twin last.
 */
async function loadSubjects(dir: string, program: RunProgram, subjects: Subject[]): Promise<void> {
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(`${dir}/main.nz`, program.nazm);
  Deno.writeTextFileSync(`${dir}/twin.ts`, program.ts);
  const compilation = loadCompilation(`${dir}/main.nz`, { resolve: true });
  const errors = compilation.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`${program.name}: ${errors[0].message}`);
  for (const candidate of INT_CANDIDATES) {
    const path = `${dir}/nazm-${candidate.name}.js`;
    Deno.writeTextFileSync(
      path,
      candidate.transform(
        generateModule(compilation, { entry: "library", intLiterals: candidate.name }),
      ),
    );
    subjects.push(new Subject(`nazm_${candidate.name}`, `Nazm, Int as ${candidate.label}`));
    await subjects[subjects.length - 1].load(path);
  }
  subjects.push(new Subject("ts", "TypeScript twin"));
  await subjects[subjects.length - 1].load(`${dir}/twin.ts`);
}

/** Each subject's times, by key; the outputs are checked to be the twin's. */
async function timeSubjects(
  subjects: readonly Subject[],
  warmups: number,
  rounds: number,
): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(subjects.map((s) => [s.key, []]));
  const outputs = new Map<string, string>();
  // One at a time, the order rotating from one round to the next; each run
  // after a full collection in its worker (the bench task exposes `gc`).
  for (let i = 0; i < warmups + rounds; i++) {
    for (let j = 0; j < subjects.length; j++) {
      const s = subjects[(i + j) % subjects.length];
      const { ms, output } = await s.run();
      if (i >= warmups) times.get(s.key)!.push(ms);
      outputs.set(s.key, output);
    }
  }
  const reference = outputs.get("ts")!;
  for (const s of subjects) {
    if (outputs.get(s.key) !== reference) {
      throw new Error(`${s.label} printed something else than the twin:\n${outputs.get(s.key)}`);
    }
  }
  return times;
}

async function runBenchmark(ctx: BenchContext): Promise<BenchResult> {
  // A round takes about a second, and one round's ratio on a shared machine
  // moves by half its value: three times the usual rounds.
  const rounds = 3 * ctx.runs;
  ctx.log(
    `run: ${COMPUTE_ITEMS} transactions, ${rounds} runs + ${ctx.warmups} warm-ups each, ` +
      `interleaved, each subject in a worker of its own; then the wide Ints program`,
  );
  const metrics: Record<string, number | string | null> = { items: COMPUTE_ITEMS, rounds };
  const rows: string[][] = [];
  const notes: string[] = [];
  const compute = generateCompute({ items: COMPUTE_ITEMS });
  const programs: [RunProgram, string][] = [
    [{ name: "compute", ...compute }, ""],
    [WIDE_INTS, "wide Ints: "],
  ];
  for (const [program, prefix] of programs) {
    const subjects: Subject[] = [];
    try {
      await loadSubjects(`${ctx.outDir}/${program.name}`, program, subjects);
      if (!subjects[0].gc) {
        notes.push("gc() is not exposed: a run may pay for the last one's garbage");
      }
      const times = await timeSubjects(subjects, ctx.warmups, rounds);
      // A shared machine's load drifts: the ratio is the median of each round's
      // own ratio (runs next to each other see the same load), beside the medians.
      const ts = times.get("ts")!;
      const metricPrefix = prefix === "" ? "" : `${program.name}_`;
      for (const s of subjects) {
        const own = times.get(s.key)!;
        const ms = median(own);
        const ratio = median(own.map((t, i) => t / ts[i]));
        metrics[`${metricPrefix}${s.key}_ms`] = Math.round(ms);
        if (s.key !== "ts") {
          metrics[`${metricPrefix}${s.key}_ratio`] = Math.round(ratio * 1000) / 1000;
        }
        rows.push([prefix + s.label, fmt(ms, 0), s.key === "ts" ? "1.00" : fmt(ratio, 2)]);
      }
    } finally {
      for (const s of subjects) s.close();
    }
    if (prefix === "") {
      metrics.ratio = metrics.nazm_safe_ratio;
      rows.push([
        "ratio Nazm ÷ TypeScript (the runtime's Int; goal ≤ 2.0)",
        "",
        fmt(Number(metrics.ratio), 2),
      ]);
    }
  }
  notes.push("every subject's output checked equal to its twin's");
  return {
    status: "ok",
    notes: [...new Set(notes)],
    table: {
      header: ["run (a worker each)", "median ms", "median of ÷ TypeScript per round"],
      rows,
    },
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
