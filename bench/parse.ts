/**
 * Benchmark "parse": Nazm's `parse` over every file of the generated program
 * against TypeScript's `ts.createSourceFile` (typescript 6.0.3, the last line
 * with a JS API) over every file of its twin. Reported per subject: the
 * median time of one pass over all files, lines/s and MB/s; and the ratio of
 * Nazm's bytes/s to TypeScript's (goal: ≥ 1).
 *
 * @module
 */

import {
  type BenchContext,
  type Benchmark,
  type BenchResult,
  errorMessage,
  fmt,
  median,
  timeRuns,
} from "./common.ts";

/** The part of src/syntax/mod.ts this benchmark uses. */
interface SyntaxModule {
  parse(source: Uint8Array, file?: string): { diagnostics: readonly unknown[] };
}

/** Loads src/syntax/mod.ts, or explains why it cannot. */
export async function loadSyntax(repoDir: string): Promise<SyntaxModule | string> {
  const path = `${repoDir}/src/syntax/mod.ts`;
  try {
    Deno.statSync(path);
  } catch {
    return "src/syntax/mod.ts does not exist yet (the parser has not landed)";
  }
  try {
    // A computed specifier, so `deno check bench/` passes before the parser exists.
    const mod = await import(new URL(`file://${path}`).href) as Partial<SyntaxModule>;
    if (typeof mod.parse !== "function") return "src/syntax/mod.ts does not export `parse`";
    return mod as SyntaxModule;
  } catch (e) {
    return `src/syntax/mod.ts failed to load: ${errorMessage(e)}`;
  }
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const { program } = ctx;
  const encoder = new TextEncoder();
  const nazmFiles = [...program.nazm].map(([path, text]) => ({
    path,
    bytes: encoder.encode(text),
  }));
  const tsFiles = [...program.ts].filter(([path]) => path.endsWith(".ts"));
  const nazmBytes = nazmFiles.reduce((n, f) => n + f.bytes.length, 0);
  const tsBytes = tsFiles.reduce((n, [, text]) => n + encoder.encode(text).length, 0);
  const nazmLines = program.stats.nazmLines;
  const tsLines = program.stats.tsLines;
  const notes: string[] = [];
  const rows: string[][] = [];
  const metrics: Record<string, number | string | null> = {};

  const row = (subject: string, files: number, lines: number, bytes: number, ms: number) => {
    rows.push([
      subject,
      String(files),
      String(lines),
      fmt(bytes / 1e6, 2),
      fmt(ms, 1),
      fmt(lines / (ms / 1000), 0),
      fmt(bytes / 1e6 / (ms / 1000), 2),
    ]);
  };

  // TypeScript 6 (deno.json's "typescript"), loaded here so that a missing npm
  // package skips this subject instead of failing the whole run.
  let tsMs: number | null = null;
  try {
    const ts = (await import("typescript")).default;
    ctx.log(`parse: typescript ${ts.version} createSourceFile on ${tsFiles.length} files`);
    const tsTimes = timeRuns(
      () => {
        for (const [path, text] of tsFiles) {
          ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
        }
      },
      ctx.runs,
      ctx.warmups,
    );
    tsMs = median(tsTimes);
    row(`typescript ${ts.version} createSourceFile`, tsFiles.length, tsLines, tsBytes, tsMs);
    metrics.ts_ms = round(tsMs);
    metrics.ts_lines_per_s = Math.round(tsLines / (tsMs / 1000));
    metrics.ts_mb_per_s = round(tsBytes / 1e6 / (tsMs / 1000), 3);
  } catch (e) {
    notes.push(`skipped typescript parse: npm:typescript could not be loaded: ${errorMessage(e)}`);
  }

  const syntax = await loadSyntax(ctx.repoDir);
  if (typeof syntax === "string") {
    notes.push(`skipped nazm parse: ${syntax}`);
    metrics.nazm_ms = null;
    metrics.ratio_bytes_per_s = null;
  } else {
    ctx.log(`parse: nazm parse on ${nazmFiles.length} files`);
    let diagnostics = 0;
    for (const f of nazmFiles) diagnostics += syntax.parse(f.bytes, f.path).diagnostics.length;
    if (diagnostics > 0) {
      notes.push(`nazm parse reported ${diagnostics} diagnostics on the program`);
    }
    const nazmTimes = timeRuns(
      () => {
        for (const f of nazmFiles) syntax.parse(f.bytes, f.path);
      },
      ctx.runs,
      ctx.warmups,
    );
    const nazmMs = median(nazmTimes);
    row("nazm parse", nazmFiles.length, nazmLines, nazmBytes, nazmMs);
    metrics.nazm_ms = round(nazmMs);
    metrics.nazm_lines_per_s = Math.round(nazmLines / (nazmMs / 1000));
    metrics.nazm_mb_per_s = round(nazmBytes / 1e6 / (nazmMs / 1000), 3);
    metrics.nazm_diagnostics = diagnostics;
    if (tsMs !== null) {
      const ratio = (nazmBytes / nazmMs) / (tsBytes / tsMs);
      metrics.ratio_bytes_per_s = round(ratio, 3);
      rows.push(["ratio nazm/ts (bytes/s; goal ≥ 1)", "", "", "", "", "", fmt(ratio, 2)]);
    } else metrics.ratio_bytes_per_s = null;
  }
  const skipped = notes.filter((n) => n.startsWith("skipped")).length;
  return {
    status: skipped === 0 ? "ok" : skipped === 2 ? "skipped" : "partial",
    notes,
    table: {
      header: [`parse (median of ${ctx.runs})`, "files", "lines", "MB", "ms", "lines/s", "MB/s"],
      rows,
    },
    metrics,
  };
}

function round(x: number, decimals = 1): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

/** The parse benchmark. */
export const parseBench: Benchmark = {
  name: "parse",
  title: "Nazm parse vs TypeScript createSourceFile, all files of the generated program",
  run,
};
