/**
 * Benchmark "check": `nazm check` of the generated program against
 * TypeScript 7's `tsc --noEmit` on its twin.
 *
 * - in process: `loadCompilation(root)` timed inside this process (the first,
 *   cold call, and the median of the later ones);
 * - whole process: `deno run --allow-read src/cli/main.ts check <root>`, wall
 *   time and peak RSS, against the native `tsc -p <twin>` (typescript@7.0.2
 *   from npm, installed into bench/out/node_modules on first use).
 *
 * Goals: nazm/tsc wall-time ratio ≤ 1.0, nazm peak RSS ≤ 300 MiB.
 *
 * @module
 */

import {
  type BenchContext,
  type Benchmark,
  type BenchResult,
  errorMessage,
  exists,
  fmt,
  measureProcess,
  median,
  type ProcessRun,
  rssMethod,
} from "./common.ts";

/** The TypeScript 7 release the comparison is made with. */
export const TSC_VERSION = "7.0.2";

/** The part of src/semantics/mod.ts this benchmark uses. */
interface SemanticsModule {
  loadCompilation(
    root: string,
    options?: { sourceRoot?: string },
  ): unknown;
}

interface DiagnosticLike {
  severity?: string;
}

async function loadSemantics(repoDir: string): Promise<SemanticsModule | string> {
  const path = `${repoDir}/src/semantics/mod.ts`;
  if (!exists(path)) return "src/semantics/mod.ts does not exist yet (the checker has not landed)";
  try {
    // A computed specifier, so `deno check bench/` passes before the checker exists.
    const mod = await import(new URL(`file://${path}`).href) as Partial<SemanticsModule>;
    if (typeof mod.loadCompilation !== "function") {
      return "src/semantics/mod.ts does not export `loadCompilation`";
    }
    return mod as SemanticsModule;
  } catch (e) {
    return `src/semantics/mod.ts failed to load: ${errorMessage(e)}`;
  }
}

/** Counts errors and warnings of a compilation's `diagnostics` list. */
function countDiagnostics(compilation: unknown): { errors: number; warnings: number } {
  const list = (compilation as { diagnostics?: readonly DiagnosticLike[] })?.diagnostics ?? [];
  let errors = 0;
  let warnings = 0;
  for (const d of list) {
    if (d.severity === "warning") warnings++;
    else errors++;
  }
  return { errors, warnings };
}

/** How to run tsc 7: a command and the arguments that come before ours. */
interface TscCommand {
  readonly cmd: string;
  readonly prefix: readonly string[];
  readonly how: string;
}

function nativePackage(): string {
  const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
  const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
  return `@typescript/typescript-${os}-${arch}`;
}

async function versionOf(cmd: string, prefix: readonly string[]): Promise<string | null> {
  try {
    const out = await new Deno.Command(cmd, {
      args: [...prefix, "--version"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : null;
  } catch {
    return null;
  }
}

/**
 * Finds tsc 7: the native binary of the npm package installed in
 * bench/out/node_modules (installing it with npm on first use), else
 * `deno run -A npm:typescript@7.0.2/tsc` (slower to start: Deno, then the binary).
 */
export async function findTsc(
  outDir: string,
  log: (m: string) => void,
): Promise<TscCommand | string> {
  const native = `${outDir}/node_modules/${nativePackage()}/lib/tsc`;
  if (!exists(native)) {
    log(`check: installing typescript@${TSC_VERSION} into ${outDir}/node_modules with npm`);
    try {
      const out = await new Deno.Command("npm", {
        args: [
          "install",
          "--prefix",
          outDir,
          "--no-audit",
          "--no-fund",
          `typescript@${TSC_VERSION}`,
        ],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (!out.success) log(`check: npm install failed: ${new TextDecoder().decode(out.stderr)}`);
    } catch (e) {
      log(`check: npm is not available: ${errorMessage(e)}`);
    }
  }
  if (exists(native)) {
    const v = await versionOf(native, []);
    if (v?.includes(TSC_VERSION)) return { cmd: native, prefix: [], how: `${native} (native)` };
  }
  const prefix = ["run", "-A", `npm:typescript@${TSC_VERSION}/tsc`];
  const v = await versionOf(Deno.execPath(), prefix);
  if (v?.includes(TSC_VERSION)) {
    return { cmd: Deno.execPath(), prefix, how: `deno ${prefix.join(" ")}` };
  }
  return `typescript@${TSC_VERSION} could not be installed or run (no npm registry?)`;
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const notes: string[] = [];
  const rows: string[][] = [];
  const metrics: Record<string, number | string | null> = {};
  const root = `${ctx.programDir}/nazm/${ctx.program.nazmRoot}`;
  const runs = Math.max(3, Math.min(ctx.runs, 5));
  let subjects = 0;

  // -- in process
  const semantics = await loadSemantics(ctx.repoDir);
  if (typeof semantics === "string") {
    notes.push(`skipped nazm in-process check: ${semantics}`);
  } else {
    ctx.log(`check: loadCompilation in process`);
    try {
      let t0 = performance.now();
      const first = await semantics.loadCompilation(root);
      const coldMs = performance.now() - t0;
      const { errors, warnings } = countDiagnostics(first);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        t0 = performance.now();
        await semantics.loadCompilation(root);
        times.push(performance.now() - t0);
      }
      const ms = median(times);
      rows.push([
        "nazm loadCompilation (in process, cold)",
        "1",
        fmt(coldMs, 0),
        "—",
        `${errors} errors, ${warnings} warnings`,
      ]);
      rows.push(["nazm loadCompilation (in process, warm)", String(runs), fmt(ms, 0), "—", ""]);
      metrics.nazm_inprocess_cold_ms = Math.round(coldMs);
      metrics.nazm_inprocess_ms = Math.round(ms);
      metrics.nazm_errors = errors;
      metrics.nazm_warnings = warnings;
      if (errors + warnings > 0) {
        notes.push(`nazm check found ${errors} errors and ${warnings} warnings in the program`);
      }
      subjects++;
    } catch (e) {
      notes.push(`nazm in-process check threw: ${errorMessage(e)}`);
    }
  }

  // -- whole process: nazm and tsc, runs interleaved (nazm, tsc, nazm, ...) so
  // that a change of load on a shared machine falls on both alike.
  const cli = `${ctx.repoDir}/src/cli/main.ts`;
  const subjectsToRun: { label: string; cmd: string; args: string[]; key: string }[] = [];
  if (!exists(cli)) {
    notes.push("skipped nazm whole-process check: src/cli/main.ts does not exist yet");
  } else {
    subjectsToRun.push({
      label: "nazm check (whole process)",
      key: "nazm",
      cmd: Deno.execPath(),
      args: ["run", "--allow-read", cli, "check", root],
    });
  }
  const tsc = await findTsc(ctx.outDir, ctx.log);
  if (typeof tsc === "string") {
    notes.push(`skipped tsc: ${tsc}`);
  } else {
    metrics.tsc_command = tsc.how;
    subjectsToRun.push({
      label: `tsc ${TSC_VERSION} --noEmit (whole process)`,
      key: "tsc",
      cmd: tsc.cmd,
      args: [...tsc.prefix, "--noEmit", "-p", `${ctx.programDir}/ts`],
    });
  }
  ctx.log(
    `check: whole process, ${runs} runs + 1 warm-up each, interleaved: ` +
      subjectsToRun.map((x) => x.label).join(", "),
  );
  const results = new Map<string, ProcessRun[]>(subjectsToRun.map((x) => [x.key, []]));
  const failed = new Set<string>();
  for (let i = 0; i < 1 + runs; i++) {
    for (const x of subjectsToRun) {
      if (failed.has(x.key)) continue;
      try {
        const r = await measureProcess(x.cmd, x.args, { cwd: ctx.repoDir });
        if (i > 0) results.get(x.key)!.push(r); // the first run warms the disk and module caches
      } catch (e) {
        failed.add(x.key);
        notes.push(`skipped ${x.key}: could not start ${x.cmd}: ${errorMessage(e)}`);
      }
    }
  }
  const walls = new Map<string, number>();
  for (const x of subjectsToRun) {
    const rs = results.get(x.key)!;
    if (rs.length === 0) continue;
    const wall = median(rs.map((r) => r.wallMs));
    walls.set(x.key, wall);
    const rss = peak(rs);
    const code = rs[0].code;
    rows.push([x.label, String(runs), fmt(wall, 0), fmt(rss, 0), `exit ${code}`]);
    if (code !== 0) {
      notes.push(`${x.key} exited ${code}: ${firstLines(rs[0].stderr || rs[0].stdout)}`);
    }
    metrics[`${x.key}_process_ms`] = Math.round(wall);
    metrics[`${x.key}_process_min_ms`] = Math.round(Math.min(...rs.map((r) => r.wallMs)));
    metrics[`${x.key}_peak_rss_mib`] = rss === null ? null : Math.round(rss);
    metrics[`${x.key}_exit`] = code;
    subjects++;
  }
  const nazmWall = walls.get("nazm") ?? null;
  const tscWall = walls.get("tsc") ?? null;

  if (nazmWall !== null && tscWall !== null) {
    const ratio = nazmWall / tscWall;
    metrics.ratio_wall = Math.round(ratio * 1000) / 1000;
    rows.push(["ratio nazm/tsc (wall; goal ≤ 1.0)", "", fmt(ratio, 2), "", ""]);
  } else metrics.ratio_wall = null;
  metrics.rss_method = rssMethod();
  return {
    status: subjects === 0
      ? "skipped"
      : notes.some((n) => n.startsWith("skipped"))
      ? "partial"
      : "ok",
    notes,
    table: {
      header: ["check (median wall)", "runs", "ms", "peak RSS MiB", "outcome"],
      rows,
    },
    metrics,
  };
}

/** The largest peak RSS over the runs (the figure to hold against the budget). */
function peak(runs: readonly ProcessRun[]): number | null {
  const xs = runs.map((r) => r.peakRssMiB).filter((x): x is number => x !== null);
  return xs.length > 0 ? Math.max(...xs) : null;
}

function firstLines(text: string): string {
  return text.split("\n").slice(0, 5).join(" | ");
}

/** The check benchmark. */
export const checkBench: Benchmark = {
  name: "check",
  title: "nazm check (in process and whole process) vs tsc 7 --noEmit on the TypeScript twin",
  run,
};
