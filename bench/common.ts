/**
 * What every benchmark shares: the benchmark shape, the context `run.ts`
 * hands it, medians, and whole-process measurement (wall time and peak RSS).
 *
 * @module
 */

import type { GeneratedProgram } from "./gen.ts";

/** One benchmark: an entry in the list of bench/run.ts. */
export interface Benchmark {
  /** A short name, used by `--only` and as the key in the JSON line. */
  readonly name: string;
  /** One sentence: what is compared. */
  readonly title: string;
  run(ctx: BenchContext): Promise<BenchResult>;
}

/** What run.ts gives every benchmark. */
export interface BenchContext {
  /** The generated program, in memory. */
  readonly program: GeneratedProgram;
  /** Absolute path of the written program (`nazm/` and `ts/` below it). */
  readonly programDir: string;
  /** Absolute path of the repository. */
  readonly repoDir: string;
  /** Absolute path of bench/out. */
  readonly outDir: string;
  /** Measured runs per subject (after the warm-ups). */
  readonly runs: number;
  readonly warmups: number;
  /** Progress lines go to stderr, so stdout holds only the results. */
  log(message: string): void;
}

/** A benchmark's outcome: rows for the table, numbers for the JSON line. */
export interface BenchResult {
  readonly status: "ok" | "skipped" | "partial";
  /** Why a subject was skipped, one message each. */
  readonly notes: readonly string[];
  readonly table: Table;
  readonly metrics: Record<string, number | string | null>;
}

/** A small table: a header and rows of cells. */
export interface Table {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Runs `f` `warmups` times, then `runs` times, and returns the measured times in ms. */
export function timeRuns(f: () => void, runs: number, warmups: number): number[] {
  for (let i = 0; i < warmups; i++) f();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return times;
}

/** Async variant of {@link timeRuns}. */
export async function timeRunsAsync(
  f: () => Promise<void>,
  runs: number,
  warmups: number,
): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await f();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    times.push(performance.now() - t0);
  }
  return times;
}

/** One whole-process run. */
export interface ProcessRun {
  readonly wallMs: number;
  /** Peak resident set size in MiB; null when it could not be measured. */
  readonly peakRssMiB: number | null;
  /** User plus system CPU time in ms (`/usr/bin/time -v`); null when it could not be measured. */
  readonly cpuMs: number | null;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let timeBinary: boolean | null = null;

function hasGnuTime(): boolean {
  if (timeBinary === null) {
    try {
      const r = new Deno.Command("/usr/bin/time", { args: ["-v", "true"], stderr: "piped" })
        .outputSync();
      timeBinary = r.success && new TextDecoder().decode(r.stderr).includes("Maximum resident");
    } catch {
      timeBinary = false;
    }
  }
  return timeBinary;
}

/** How peak memory is measured on this machine. */
export function rssMethod(): string {
  return hasGnuTime() ? "/usr/bin/time -v" : "/proc/<pid>/status VmHWM polling";
}

/**
 * Runs a command to completion and measures its wall time (from spawn to
 * exit, measured here) and its peak RSS (`/usr/bin/time -v` when present,
 * which adds about a millisecond; else VmHWM polled from /proc every 5 ms,
 * which can miss a final spike).
 */
export async function measureProcess(
  cmd: string,
  args: readonly string[],
  options: { cwd?: string; input?: Uint8Array } = {},
): Promise<ProcessRun> {
  const decoder = new TextDecoder();
  /** Spawns with `input` on stdin (then closed), collecting the output as it comes. */
  const run = async (command: Deno.Command) => {
    const child = command.spawn();
    const output = child.output();
    const writer = child.stdin.getWriter();
    await writer.write(options.input ?? new Uint8Array(0));
    await writer.close();
    return await output;
  };
  if (hasGnuTime()) {
    const t0 = performance.now();
    const out = await run(
      new Deno.Command("/usr/bin/time", {
        args: ["-v", cmd, ...args],
        cwd: options.cwd,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }),
    );
    const wallMs = performance.now() - t0;
    const stderr = decoder.decode(out.stderr);
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
    const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
    const cut = stderr.lastIndexOf("\tCommand being timed:");
    return {
      wallMs,
      peakRssMiB: m ? Number(m[1]) / 1024 : null,
      cpuMs: user && system ? (Number(user[1]) + Number(system[1])) * 1000 : null,
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: cut >= 0 ? stderr.slice(0, cut) : stderr,
    };
  }
  const t0 = performance.now();
  const child = new Deno.Command(cmd, {
    args: [...args],
    cwd: options.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  const writer = child.stdin.getWriter();
  await writer.write(options.input ?? new Uint8Array(0));
  await writer.close();
  let peakKiB = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      try {
        const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
        const m = /VmHWM:\s+(\d+) kB/.exec(status);
        if (m) peakKiB = Math.max(peakKiB, Number(m[1]));
      } catch {
        // The process is gone or /proc is not there.
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const out = await output;
  const wallMs = performance.now() - t0;
  done = true;
  await poll;
  return {
    wallMs,
    peakRssMiB: peakKiB > 0 ? peakKiB / 1024 : null,
    cpuMs: null,
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
}

/** Whether a path exists. */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Formats a number with a fixed number of decimals, or a dash. */
export function fmt(x: number | null | undefined, decimals = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "—" : x.toFixed(decimals);
}

/** Formats a table with aligned columns. */
export function renderTable(table: Table): string {
  const widths = table.header.map((h, i) =>
    Math.max(h.length, ...table.rows.map((r) => (r[i] ?? "").length))
  );
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(table.header), widths.map((w) => "-".repeat(w)).join("  "), ...table.rows.map(line)]
    .join("\n");
}

/** The message of an unknown thrown value. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
