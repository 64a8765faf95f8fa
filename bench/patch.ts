/**
 * Benchmark "patch": what verifying a plan costs. A rename of a parameter
 * in the middle module of the generated program, planned with verification
 * (what nazm.semantic_patch and `nazm patch` always do) against the same
 * plan without it (`verify: false`, which nothing published uses), in this
 * process, interleaved (with, without, with, …) so that a change of load
 * falls on both alike.
 *
 * - cold: each call loads the compilation from disk without any cache, as
 *   `nazm patch` does;
 * - warm: the calls share a fact cache (parses by file digest, the last
 *   analysis), as the server's worker does, the disk unchanged: without
 *   verification the analysis is reused; with it, the edited compilation is
 *   analysed anew (one file re-parsed, every module checked again).
 *
 * Goal: verified ÷ unverified ≤ 2.0 (docs/architecture.md §7.31); issue 14's
 * incremental analysis is where the warm ratio can get there.
 *
 * @module
 */
import { join } from "node:path";
import {
  newFactCache,
  type PatchOptions,
  type PatchRequest,
  semanticPatch,
} from "../src/facts/mod.ts";
import { type BenchContext, type Benchmark, type BenchResult, fmt, median } from "./common.ts";

/** The first parameter of the first function of the middle module: a local the rename may take. */
function target(ctx: BenchContext): PatchRequest {
  const modules = [...ctx.program.nazm.keys()].filter((p) => p !== "main.nz").sort();
  const file = modules[Math.floor(modules.length / 2)];
  const lines = ctx.program.nazm.get(file)!.split("\n");
  for (const [i, line] of lines.entries()) {
    const match = /^(?:pub )?fn [a-z_0-9]+(?:\[[^\]]*\])?\(([a-z_0-9]+):/.exec(line);
    if (match) {
      return {
        operation: "rename",
        file,
        position: { line: i + 1, column: line.indexOf(`(${match[1]}:`) + 2 },
        new_name: `${match[1]}_renamed`,
      };
    }
  }
  throw new Error(`no function with a parameter in ${file}`);
}

export const patchBench: Benchmark = {
  name: "patch",
  title:
    "a verified rename plan against the same plan unverified, on the generated program (cold and warm)",
  async run(ctx: BenchContext): Promise<BenchResult> {
    const dir = join(ctx.programDir, "nazm");
    const config = { root: join(dir, "main.nz"), sourceRoot: dir };
    const request = target(ctx);
    const notes: string[] = [];
    const plan = (options: PatchOptions) => {
      const outcome = semanticPatch(config, request, options);
      if (outcome.kind !== "answer") {
        throw new Error(
          `the rename was refused: ${outcome.value.reason}: ${outcome.value.message}`,
        );
      }
      return outcome.value;
    };
    const first = plan({});
    const v = first.verification!;
    ctx.log(
      `patch: ${JSON.stringify(request)}, ` +
        `${first.edits.length} edits; verified ${v.files_analysed} files, ${v.references_compared} names, ` +
        `${v.definitions_compared} definitions`,
    );
    const measure = (label: string, options: { cache?: ReturnType<typeof newFactCache> }) => {
      const withTimes: number[] = [];
      const withoutTimes: number[] = [];
      for (let i = 0; i < ctx.warmups + ctx.runs; i++) {
        for (const verify of [true, false]) {
          const t0 = performance.now();
          plan({ ...options, verify });
          const ms = performance.now() - t0;
          if (i >= ctx.warmups) (verify ? withTimes : withoutTimes).push(ms);
        }
      }
      const verified = median(withTimes);
      const unverified = median(withoutTimes);
      ctx.log(`patch ${label}: verified ${fmt(verified)} ms, unverified ${fmt(unverified)} ms`);
      return { verified, unverified, ratio: verified / unverified };
    };
    const cold = measure("cold", {});
    const warm = measure("warm", { cache: newFactCache() });
    await Promise.resolve();
    const rows = [
      ["cold (`nazm patch`: no cache), verified", `${fmt(cold.verified, 0)} ms`, ""],
      ["cold, unverified", `${fmt(cold.unverified, 0)} ms`, ""],
      ["**cold ratio verified/unverified** (goal ≤ 2.0)", `**${fmt(cold.ratio, 2)}**`, ""],
      ["warm (server: parses and last analysis kept), verified", `${fmt(warm.verified, 0)} ms`, ""],
      ["warm, unverified", `${fmt(warm.unverified, 0)} ms`, ""],
      ["**warm ratio verified/unverified** (goal ≤ 2.0)", `**${fmt(warm.ratio, 2)}**`, ""],
    ];
    if (warm.ratio > 2) {
      notes.push(
        "the warm ratio is over 2.0: without verification the server reuses its last analysis, with it the edited compilation is analysed whole (not incremental until issue 14)",
      );
    }
    return {
      status: "ok",
      notes,
      table: { header: ["subject", "median", ""], rows },
      metrics: {
        files_analysed: v.files_analysed,
        references_compared: v.references_compared,
        cold_verified_ms: cold.verified,
        cold_unverified_ms: cold.unverified,
        cold_ratio: cold.ratio,
        warm_verified_ms: warm.verified,
        warm_unverified_ms: warm.unverified,
        warm_ratio: warm.ratio,
      },
    };
  },
};
