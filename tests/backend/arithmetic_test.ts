/**
 * Int arithmetic as the back end lowers it — the fast path inline in the
 * generated code, the runtime past it — equals exact 64-bit arithmetic, or
 * stops with `overflow` or `division_by_zero`: random operands from every
 * range (small, around 2^31, 2^53 and 2^63), as variables, literals and
 * nested operations, one generated test function each, run by the program
 * worker.
 */
import fc from "fast-check";
import { anyInt, MAX, MIN } from "./_ints.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { loadCompilation } from "../../src/semantics/mod.ts";
import { generateModule, ProgramWorker, testsOf } from "../../src/backend/mod.ts";

const OPS = ["+", "-", "*", "/", "%"] as const;
type Op = typeof OPS[number];

function exact(a: bigint, op: Op, b: bigint): bigint | "overflow" | "division_by_zero" {
  if ((op === "/" || op === "%") && b === 0n) return "division_by_zero";
  const r = op === "+"
    ? a + b
    : op === "-"
    ? a - b
    : op === "*"
    ? a * b
    : op === "/"
    ? a / b
    : a % b;
  return r < MIN || r > MAX ? "overflow" : r;
}

/** A Nazm expression for an Int (the minimum has no literal: it is written `-max - 1`). */
function lit(v: bigint): string {
  return v === MIN ? "(-9223372036854775807 - 1)" : v < 0n ? `(${v})` : `${v}`;
}

Deno.test("lowered Int arithmetic: exact 64-bit or the runtime error, from variables, literals and nesting", async () => {
  const cases = fc.sample(fc.tuple(anyInt, fc.constantFrom(...OPS), anyInt, anyInt), {
    numRuns: 400,
    seed: 0x5eed,
  });
  const tests: string[] = [];
  const expected: (bigint | string)[] = [];
  cases.forEach(([a, op, b, c], i) => {
    const shape = i % 4;
    let source: string;
    let result: bigint | string;
    if (shape === 0) {
      source = `let a = ${lit(a)};\n  let b = ${lit(b)};\n  a ${op} b`;
      result = exact(a, op, b);
    } else if (shape === 1) {
      source = `let a = ${lit(a)};\n  a ${op} ${lit(b)}`;
      result = exact(a, op, b);
    } else if (shape === 2) {
      source = `let b = ${lit(b)};\n  ${lit(a)} ${op} b`;
      result = exact(a, op, b);
    } else {
      // (a op b) + c, and -(…): nested operations and negation.
      const inner = exact(a, op, b);
      const sum = typeof inner === "string" ? inner : exact(inner, "+", c);
      source = `let a = ${lit(a)};\n  let b = ${lit(b)};\n  let c = ${
        lit(c)
      };\n  -((a ${op} b) + c)`;
      result = typeof sum === "string" ? sum : exact(0n, "-", sum);
    }
    expected.push(result);
    tests.push(
      `fn case${i}() -> Int {\n  ${source}\n}\n\ntest fn t${i}() {\n  print(to_string(case${i}()));\n}\n`,
    );
  });
  const dir = Deno.makeTempDirSync({ prefix: "nazm-arith-" });
  try {
    Deno.writeTextFileSync(`${dir}/main.nz`, tests.join("\n"));
    const compilation = loadCompilation(`${dir}/main.nz`, { resolve: true });
    // A tested compilation needs no `main` (N0501); nothing else may be wrong.
    assertEquals(
      compilation.diagnostics.filter((d) => d.severity === "error" && d.code !== "N0501"),
      [],
    );
    const worker = await ProgramWorker.start(
      generateModule(compilation, { entry: "worker", tests: true }),
    );
    try {
      const order = testsOf(compilation).map((t) => Number(t.name.slice(1)));
      for (const [index, i] of order.entries()) {
        let out = "";
        const outcome = await worker.run(
          index,
          { timeoutMs: 10_000, outputLimit: 1 << 16 },
          (s) => (out += s),
        );
        const want = expected[i];
        const [a, op, b, c] = cases[i];
        const what = `case ${i} (shape ${i % 4}): ${a} ${op} ${b} (c = ${c})`;
        if (typeof want === "string") {
          assert(outcome.kind === "failed", `${what}: expected ${want}, printed ${out}`);
          assertEquals(outcome.report.kind, want, what);
        } else {
          assertEquals(outcome.kind, "finished", `${what}: ${JSON.stringify(outcome)}`);
          assertEquals(out, `${want}\n`, what);
        }
      }
    } finally {
      worker.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
