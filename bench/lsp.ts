/**
 * The language server on the generated program: `nazm lsp` spawned with
 * the user's flags (deno.json's `lsp` task), driven by vscode-jsonrpc's
 * client connection over its stdio.
 *
 * - reference: one analysis from scratch of the same program in this
 *   process (`compileRoot`, as `nazm check` loads it): what every edit costs
 *   while analysis is not incremental.
 * - didChange → publishDiagnostics: a one-character body edit (a literal in
 *   a `let`) of one module, sent as an incremental change, timed until the
 *   diagnostics of that version arrive; one edit at a time. Goal: median at
 *   most 50 ms.
 * - inlay hints: after each edit's diagnostics, the hints of the whole edited
 *   file, as an editor that shows them asks (VS Code does by default): the
 *   inferred types need the checker's resolutions, of that module alone.
 * - memory: the server's resident set (/proc/<pid>/status) after opening the
 *   program's root and that module, after 50 edits and after 100, and its
 *   peak (VmHWM), inlay hints included. Goal: peak at most 300 MiB, no growth
 *   over the last 50.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import {
  createMessageConnection,
  type MessageConnection,
  type PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import { compileRoot } from "../src/facts/mod.ts";
import { type BenchContext, type Benchmark, type BenchResult, fmt, median } from "./common.ts";

/** The flags of deno.json's `lsp` task, read from it: what editors are told to run. */
function lspTaskFlags(repoDir: string): string[] {
  const tasks = JSON.parse(Deno.readTextFileSync(join(repoDir, "deno.json"))).tasks;
  const words = (tasks.lsp as string).split(" ");
  return words.filter((w) => w.startsWith("--") && !w.startsWith("--lock") && w !== "--frozen");
}
/** Edits per run: the first `warmups` are not timed. */
const EDITS = 100;

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/**
 * Resident and peak set size of a process in MiB, from /proc (Linux), read
 * by `cat`: Deno lets only --allow-all read /proc itself.
 */
function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const out = new Deno.Command("cat", { args: [`/proc/${pid}/status`], stdout: "piped" })
      .outputSync();
    if (!out.success) return null;
    const status = new TextDecoder().decode(out.stdout);
    const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
    return { rss: kib("VmRSS") / 1024, hwm: kib("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/** The first `let bonus = N;` of a module: a body edit that changes no interface. */
function bodyLiteral(text: string): { line: number; character: number } {
  const lines = text.split("\n");
  for (const [i, line] of lines.entries()) {
    const match = /^ {2}let bonus = (\d)/.exec(line);
    if (match) return { line: i, character: match[0].length - 1 };
  }
  throw new Error("no `let bonus` in the edited module");
}

export const lspBench: Benchmark = {
  name: "lsp",
  title: "nazm lsp: didChange of a body edit to publishDiagnostics, and the server's memory",
  async run(ctx: BenchContext): Promise<BenchResult> {
    const sourceRoot = join(ctx.programDir, "nazm");
    const root = join(sourceRoot, ctx.program.nazmRoot);
    const reference: number[] = [];
    for (let i = 0; i < ctx.warmups + ctx.runs; i++) {
      const t0 = performance.now();
      compileRoot({ root, sourceRoot });
      if (i >= ctx.warmups) reference.push(performance.now() - t0);
    }

    const child: ChildProcess = spawn(
      Deno.execPath(),
      [
        "run",
        `--lock=${join(ctx.repoDir, "server.lock")}`,
        "--frozen",
        ...lspTaskFlags(ctx.repoDir),
        join(ctx.repoDir, "src", "cli", "main.ts"),
        "lsp",
      ],
      {
        stdio: ["pipe", "pipe", "ignore"],
        env: { HOME: Deno.env.get("HOME") ?? "", PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1" },
      },
    );
    const connection: MessageConnection = createMessageConnection(
      new StreamMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    );
    let waiting: { uri: string; version: number; resolve: () => void } | null = null;
    connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
      if (waiting !== null && p.uri === waiting.uri && p.version === waiting.version) {
        const done = waiting.resolve;
        waiting = null;
        done();
      }
    });
    connection.onNotification("window/logMessage", () => {});
    connection.listen();
    const published = (uri: string, version: number) =>
      new Promise<void>((resolve) => waiting = { uri, version, resolve });
    try {
      await connection.sendRequest("initialize", {
        processId: null,
        rootUri: new URL(`file://${sourceRoot}`).href,
        capabilities: {},
        initializationOptions: { root: ctx.program.nazmRoot },
      });
      await connection.sendNotification("initialized", {});
      const modules = [...ctx.program.nazm.keys()].filter((p) => p !== ctx.program.nazmRoot).sort();
      const edited = modules[Math.floor(modules.length / 2)];
      const uri = new URL(`file://${join(sourceRoot, edited)}`).href;
      const text = ctx.program.nazm.get(edited)!;
      const rootUri = new URL(`file://${root}`).href;
      const t0 = performance.now();
      let wait = published(rootUri, 1);
      await connection.sendNotification("textDocument/didOpen", {
        textDocument: {
          uri: rootUri,
          languageId: "nazm",
          version: 1,
          text: ctx.program.nazm.get(ctx.program.nazmRoot)!,
        },
      });
      await wait;
      const firstDiagnostics = performance.now() - t0;
      wait = published(uri, 1);
      await connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId: "nazm", version: 1, text },
      });
      await wait;
      const opened = memoryOf(child.pid!);
      const at = bodyLiteral(text);
      const latencies: number[] = [];
      const hintLatencies: number[] = [];
      const lines = text.split("\n").length;
      let atHalf: ReturnType<typeof memoryOf> = null;
      for (let edit = 1; edit <= EDITS; edit++) {
        const version = edit + 1;
        wait = published(uri, version);
        const t = performance.now();
        await connection.sendNotification("textDocument/didChange", {
          textDocument: { uri, version },
          contentChanges: [{
            range: { start: at, end: { line: at.line, character: at.character + 1 } },
            text: String(edit % 10),
          }],
        });
        await wait;
        if (edit > ctx.warmups) latencies.push(performance.now() - t);
        const th = performance.now();
        await connection.sendRequest("textDocument/inlayHint", {
          textDocument: { uri },
          range: { start: { line: 0, character: 0 }, end: { line: lines, character: 0 } },
        });
        if (edit > ctx.warmups) hintLatencies.push(performance.now() - th);
        if (edit === EDITS / 2) atHalf = memoryOf(child.pid!);
      }
      const atEnd = memoryOf(child.pid!);
      const ref = median(reference);
      const med = median(latencies);
      const p95 = percentile(latencies, 95);
      const mem = (m: ReturnType<typeof memoryOf>) => m === null ? null : m.rss;
      return {
        status: "ok",
        notes: [
          `${ctx.program.nazm.size} files; edited ${edited}; ${latencies.length} timed edits after ${ctx.warmups}`,
          "memory from /proc/<pid>/status (VmRSS, VmHWM) of the server process",
        ],
        table: {
          header: ["what", "value", "ratio to reference"],
          rows: [
            ["one analysis from scratch, in process (reference), ms", fmt(ref), "1.0"],
            ["didChange → publishDiagnostics, median ms", fmt(med), fmt(med / ref, 2)],
            ["didChange → publishDiagnostics, p95 ms", fmt(p95), fmt(p95 / ref, 2)],
            [
              "inlay hints of the edited file after an edit, median ms",
              fmt(median(hintLatencies)),
              fmt(median(hintLatencies) / ref, 2),
            ],
            ["inlay hints, p95 ms", fmt(percentile(hintLatencies, 95)), "—"],
            ["didOpen of the root → its first diagnostics, ms", fmt(firstDiagnostics), "—"],
            ["resident after opening, MiB", fmt(mem(opened)), "—"],
            [`resident after ${EDITS / 2} edits, MiB`, fmt(mem(atHalf)), "—"],
            [`resident after ${EDITS} edits, MiB`, fmt(mem(atEnd)), "—"],
            ["peak resident (VmHWM), MiB", fmt(atEnd?.hwm ?? null), "—"],
          ],
        },
        metrics: {
          reference_ms: ref,
          did_change_median_ms: med,
          did_change_p95_ms: p95,
          did_change_ratio: med / ref,
          inlay_hints_median_ms: median(hintLatencies),
          inlay_hints_p95_ms: percentile(hintLatencies, 95),
          first_diagnostics_ms: firstDiagnostics,
          rss_opened_mib: mem(opened),
          rss_half_mib: mem(atHalf),
          rss_end_mib: mem(atEnd),
          peak_mib: atEnd?.hwm ?? null,
        },
      };
    } finally {
      try {
        await connection.sendRequest("shutdown");
        await connection.sendNotification("exit");
      } catch {
        child.kill();
      }
      connection.dispose();
    }
  },
};
