/**
 * `nazm run`, `nazm test` and `nazm build`: a checked program lowered to
 * JavaScript (src/backend), run in a worker with no permission at all, or
 * written to one file.
 *
 * Exit statuses: 0 success; 1 the program has errors (nothing ran), or,
 * for `nazm test`, a test failed; 2 a usage error or an unreadable root or
 * output; for `nazm run`, what `main` returns (0 to 100), or a runtime
 * error's status (101 to 111, docs/specification.md §13.9).
 *
 * @module
 */
import { resolve } from "node:path";
import { blake3, COMPILER, type Place } from "../base/mod.ts";
import {
  CODES,
  type Compilation,
  fileLookup,
  loadCompilation,
  moduleNameOf,
  renderDiagnostic,
  renderSummary,
} from "../semantics/mod.ts";
import {
  entryOf,
  generateModule,
  outcomeStatus,
  ProgramWorker,
  renderReport,
  type Report,
  type RunLimits,
  type RunOutcome,
  testsOf,
} from "../backend/mod.ts";
import type { BuildSummaryAnswer, TestSummaryAnswer } from "../contracts/mod.ts";
import { summaryOf } from "../facts/mod.ts";
import { parseArgs, type ParsedArgs } from "./args.ts";
import { type CommandIo, usageError } from "./io.ts";

/** The default time limit of one run (of `main`, or of one test). */
export const DEFAULT_TIMEOUT_SECONDS = 10;
/** The default output limit of one run, in bytes. */
export const DEFAULT_MAX_OUTPUT = 16 * 1024 * 1024;

export const RUN_USAGE = "run FILE [--source-root DIR] [--timeout SECONDS] [--max-output BYTES]";
export const TEST_USAGE =
  "test ROOT [--source-root DIR] [--filter TEXT] [--timeout SECONDS] [--max-output BYTES] [--summary-json]";
export const BUILD_USAGE = "build FILE -o OUT [--source-root DIR] [--summary-json]";

/** The limits a run gets from `--timeout` and `--max-output`, or a problem. */
function limitsOf(parsed: ParsedArgs): RunLimits | string {
  const timeout = parsed.values.get("timeout");
  let seconds = DEFAULT_TIMEOUT_SECONDS;
  if (timeout !== undefined) {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(timeout) || Number(timeout) <= 0 || Number(timeout) > 86400) {
      return "--timeout takes a number of seconds, more than 0 and at most 86400";
    }
    seconds = Number(timeout);
  }
  const max = parsed.values.get("max-output");
  let outputLimit = DEFAULT_MAX_OUTPUT;
  if (max !== undefined) {
    if (!/^[0-9]+$/.test(max) || Number(max) > 2 ** 40) {
      return "--max-output takes a number of bytes, at most 2^40";
    }
    outputLimit = Number(max);
  }
  return { timeoutMs: Math.max(1, Math.round(seconds * 1000)), outputLimit };
}

/**
 * Loads the compilation with what the back end needs (its resolutions). An
 * unreadable root is a usage error: its message, and exit status 2.
 */
function load(
  io: CommandIo,
  command: string,
  parsed: ParsedArgs,
  root: string,
): Compilation | number {
  const compilation = loadCompilation(root, {
    sourceRoot: parsed.values.get("source-root"),
    resolve: true,
  });
  if (compilation.rootError !== null) {
    io.stderr(`nazm ${command}: ${compilation.rootError}\n`);
    return 2;
  }
  return compilation;
}

/** The errors that keep a compilation from running; `nazm test` needs no `main`. */
function blockingErrors(compilation: Compilation, needsMain: boolean) {
  return compilation.diagnostics.filter((d) =>
    d.severity === "error" && (needsMain || d.code !== CODES.missingMain)
  );
}

/** Prints the errors as `nazm check` does, on stderr, and says nothing ran. */
function refuse(
  io: CommandIo,
  command: string,
  compilation: Compilation,
  needsMain: boolean,
): number {
  const errors = blockingErrors(compilation, needsMain);
  const lookup = fileLookup(compilation);
  for (const d of errors) io.stderr(renderDiagnostic(d, lookup) + "\n\n");
  io.stderr(renderSummary(errors) + "\n");
  io.stderr(
    `nazm ${command}: the program has errors; nothing was ${
      command === "build" ? "written" : "run"
    }\n`,
  );
  return 1;
}

/** A zero-width place at a line and column of a file of the compilation (a runtime error's frame). */
function pointPlace(compilation: Compilation, file: string, line: number, column: number): Place {
  const f = compilation.files.find((x) => x.path === file);
  const offset = f?.lineIndex.offset(line, column) ?? 0;
  const at = { offset, line, column };
  return { file, start: at, end: at };
}

function spanPlace(compilation: Compilation, file: string, start: number, end: number): Place {
  const f = compilation.files.find((x) => x.path === file)!;
  return f.lineIndex.place(file, { start, end });
}

// ---------------------------------------------------------------- nazm run

/** `nazm run FILE`: checks, then runs `main` in a worker with no permission. */
export async function runCommand(io: CommandIo): Promise<number> {
  const parsed = parseArgs(io.args, {
    values: ["source-root", "timeout", "max-output"],
    positionals: ["FILE"],
  });
  if (typeof parsed === "string") return usageError(io, "run", parsed, RUN_USAGE);
  const limits = limitsOf(parsed);
  if (typeof limits === "string") return usageError(io, "run", limits, RUN_USAGE);
  const compilation = load(io, "run", parsed, parsed.positionals.get("FILE")!);
  if (typeof compilation === "number") return compilation;
  if (blockingErrors(compilation, true).length > 0) return refuse(io, "run", compilation, true);
  const worker = await ProgramWorker.start(generateModule(compilation, { entry: "worker" }));
  let outcome: RunOutcome;
  try {
    outcome = await worker.run(null, limits, io.stdout);
  } finally {
    worker.close();
  }
  if (outcome.kind === "failed") {
    io.stderr(renderReport(outcome.report));
    return outcomeStatus(outcome);
  }
  const entry = entryOf(compilation);
  if (outcome.status !== 0 && entry !== null) {
    const at = spanPlace(compilation, entry.file, entry.offset, entry.offset).start;
    io.stderr(
      `note: main returned ${outcome.status}, the exit status\n  at main (${entry.file}:${at.line}:${at.column})\n`,
    );
  }
  return outcome.status;
}

// ---------------------------------------------------------------- nazm test

/** `nazm.test-summary/1`: what `nazm test --summary-json` prints (schema/nazm.test-summary-1.json). */
export type TestSummary = TestSummaryAnswer;
/** One test's result in it. */
export type TestResult = TestSummary["tests"][number];

function milliseconds(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function testFailure(compilation: Compilation, report: Report): TestResult["failure"] {
  const stack = report.frames.map((f) => ({
    function: f.name,
    place: pointPlace(compilation, f.file, f.line, f.column),
  }));
  return {
    kind: report.kind,
    message: report.message,
    place: stack.length > 0 ? stack[0].place : null,
    stack,
  };
}

/** `nazm test ROOT`: runs every test of the root's compilation, each alone, with a time limit. */
export async function testCommand(io: CommandIo): Promise<number> {
  const parsed = parseArgs(io.args, {
    values: ["source-root", "timeout", "max-output", "filter"],
    switches: ["summary-json"],
    positionals: ["ROOT"],
  });
  if (typeof parsed === "string") return usageError(io, "test", parsed, TEST_USAGE);
  const limits = limitsOf(parsed);
  if (typeof limits === "string") return usageError(io, "test", limits, TEST_USAGE);
  const json = parsed.switches.has("summary-json");
  const filter = parsed.values.get("filter") ?? null;
  const compilation = load(io, "test", parsed, parsed.positionals.get("ROOT")!);
  if (typeof compilation === "number") return compilation;
  const diagnostics = summaryOf(compilation).diagnostics.filter((d) =>
    d.code !== CODES.missingMain
  );
  const started = performance.now();
  const summary = (
    status: TestSummary["status"],
    tests: TestResult[],
    filteredOut: number,
  ): TestSummary => ({
    schema: "nazm.test-summary/1",
    compiler: COMPILER,
    root: moduleNameOf(compilation.root),
    status,
    exit_status: status === "passed" ? 0 : 1,
    filter,
    passed: tests.filter((t) => t.status === "passed").length,
    failed: tests.filter((t) => t.status === "failed").length,
    filtered_out: filteredOut,
    duration_ms: milliseconds(performance.now() - started),
    tests,
    diagnostics,
  });
  if (blockingErrors(compilation, false).length > 0) {
    if (json) {
      io.stdout(JSON.stringify(summary("refused", [], 0)) + "\n");
      return 1;
    }
    return refuse(io, "test", compilation, false);
  }
  const all = testsOf(compilation);
  const selected = all.map((t, index) => ({ ...t, index })).filter((t) =>
    filter === null || t.key.includes(filter)
  );
  const filteredOut = all.length - selected.length;
  if (!json) {
    io.stdout(
      `running ${selected.length} test${selected.length === 1 ? "" : "s"}${
        filteredOut > 0 ? ` (${filteredOut} filtered out)` : ""
      }\n`,
    );
  }
  const results: TestResult[] = [];
  const reports = new Map<string, Report>();
  if (selected.length > 0) {
    const text = generateModule(compilation, { entry: "worker", tests: true });
    let worker: ProgramWorker | null = null;
    try {
      for (const t of selected) {
        // A test that had to be terminated takes its worker with it.
        if (worker === null || !worker.alive) worker = await ProgramWorker.start(text);
        let output = "";
        const outcome = await worker.run(t.index, limits, (s) => (output += s));
        const result: TestResult = {
          key: t.key,
          name: t.name,
          module: t.key.slice(0, t.key.indexOf("::")),
          place: spanPlace(compilation, t.file, t.offset, t.offset + t.name.length),
          status: outcome.kind === "finished" ? "passed" : "failed",
          duration_ms: milliseconds(outcome.milliseconds),
          failure: outcome.kind === "failed" ? testFailure(compilation, outcome.report) : null,
          output,
        };
        results.push(result);
        if (!json) {
          io.stdout(
            `test ${t.key} ... ${result.status === "passed" ? "ok" : "FAILED"} (${
              formatMs(result.duration_ms)
            })\n`,
          );
        }
        if (outcome.kind === "failed") reports.set(result.key, outcome.report);
      }
    } finally {
      worker?.close();
    }
  }
  const failed = results.filter((r) => r.status === "failed");
  const s = summary(failed.length > 0 ? "failed" : "passed", results, filteredOut);
  if (json) {
    io.stdout(JSON.stringify(s) + "\n");
    return s.exit_status;
  }
  if (failed.length > 0) {
    io.stdout("\nfailures:\n");
    for (const r of failed) {
      const p = r.place.start;
      io.stdout(`\n--- ${r.key} (${r.place.file}:${p.line}:${p.column})\n`);
      io.stdout(renderReport(reports.get(r.key)!));
      if (r.output !== "") {
        io.stdout(`output:\n${r.output.replace(/^/gm, "  ").replace(/ +$/, "")}`);
        if (!r.output.endsWith("\n")) io.stdout("\n");
      }
    }
  }
  io.stdout(
    `\ntest result: ${
      failed.length > 0 ? "FAILED" : "ok"
    }. ${s.passed} passed; ${s.failed} failed; ${s.filtered_out} filtered out; finished in ${
      formatMs(s.duration_ms)
    }\n`,
  );
  return s.exit_status;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

// ---------------------------------------------------------------- nazm build

/** `nazm.build-summary/1`: what `nazm build --summary-json` prints (schema/nazm.build-summary-1.json). */
export type BuildSummary = BuildSummaryAnswer;

const encoder = new TextEncoder();

/** `nazm build FILE -o OUT`: one JavaScript file that runs with `deno run OUT` and `node OUT`. */
export function buildCommand(io: CommandIo): number {
  const parsed = parseArgs(io.args, {
    values: ["source-root", "output"],
    switches: ["summary-json"],
    positionals: ["FILE"],
    short: { "-o": "output" },
  });
  if (typeof parsed === "string") return usageError(io, "build", parsed, BUILD_USAGE);
  const out = parsed.values.get("output");
  if (out === undefined) return usageError(io, "build", "missing -o OUT", BUILD_USAGE);
  const json = parsed.switches.has("summary-json");
  const compilation = load(io, "build", parsed, parsed.positionals.get("FILE")!);
  if (typeof compilation === "number") return compilation;
  const diagnostics = summaryOf(compilation).diagnostics;
  const entry = entryOf(compilation);
  const summary = (
    status: BuildSummary["status"],
    output: BuildSummary["output"],
  ): BuildSummary => ({
    schema: "nazm.build-summary/1",
    compiler: COMPILER,
    root: moduleNameOf(compilation.root),
    status,
    exit_status: status === "built" ? 0 : 1,
    output,
    entry: entry === null || status !== "built" ? null : {
      key: entry.key,
      place: spanPlace(compilation, entry.file, entry.offset, entry.offset + "main".length),
    },
    diagnostics,
  });
  if (blockingErrors(compilation, true).length > 0) {
    if (json) {
      io.stdout(JSON.stringify(summary("refused", null)) + "\n");
      return 1;
    }
    return refuse(io, "build", compilation, true);
  }
  const bytes = encoder.encode(generateModule(compilation, { entry: "standalone" }));
  const path = resolve(out);
  try {
    Deno.writeFileSync(path, bytes);
  } catch (error) {
    io.stderr(
      `nazm build: cannot write ${out}: ${error instanceof Error ? error.message : error}\n`,
    );
    return 2;
  }
  const s = summary("built", { path, bytes: bytes.length, digest: blake3(bytes) });
  if (json) io.stdout(JSON.stringify(s) + "\n");
  else {io.stderr(
      `nazm build: wrote ${out} (${bytes.length} bytes); run it with \`deno run ${out}\` or \`node ${out}\`\n`,
    );}
  return 0;
}
