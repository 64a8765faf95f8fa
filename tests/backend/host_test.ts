/**
 * The worker host: output arrives while the program still runs; a program
 * asked to stop stops where it is; one stuck inside a single runtime
 * operation (simulated by a hook injected into the generated module, in
 * this test only) is terminated after the grace period and its worker
 * replaced; the next run on a live worker starts clean.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { loadCompilation } from "../../src/semantics/mod.ts";
import {
  generateModule,
  ProgramWorker,
  type RunLimits,
  STOP_GRACE_MS,
} from "../../src/backend/mod.ts";

function moduleOf(source: string): string {
  const dir = Deno.makeTempDirSync({ prefix: "nazm-host-" });
  try {
    Deno.writeTextFileSync(`${dir}/main.nz`, source);
    const c = loadCompilation(`${dir}/main.nz`, { resolve: true });
    assertEquals(c.diagnostics.filter((d) => d.severity === "error"), []);
    return generateModule(c, { entry: "worker" });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

const LIMITS: RunLimits = { timeoutMs: 5_000, outputLimit: 1 << 20 };

Deno.test("host: printed text arrives while the program is still running", async () => {
  const text = moduleOf(`fn count(n: Int) -> Unit {
  if n > 0 {
    print(substring("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 0, 80));
    count(n - 1)
  }
}

fn spin(n: Int) -> Int {
  spin(n + 1)
}

fn main() -> Unit {
  count(1000);
  let _ = spin(0);
}
`);
  const worker = await ProgramWorker.start(text);
  try {
    let received = 0;
    let firstAt = -1;
    const started = performance.now();
    const outcome = await worker.run(null, { ...LIMITS, timeoutMs: 1500 }, (s) => {
      if (firstAt < 0) firstAt = performance.now() - started;
      received += s.length;
    });
    assertEquals(received, 81 * 1000);
    assert(outcome.kind === "failed" && outcome.report.kind === "timeout");
    assert(
      firstAt < 1400,
      `the first output came at ${firstAt} ms, before the program was stopped`,
    );
    // The same worker runs again, from a clean state.
    let again = 0;
    await worker.run(null, { ...LIMITS, timeoutMs: 200 }, (s) => (again += s.length));
    assertEquals(again, 81 * 1000);
  } finally {
    worker.close();
  }
});

Deno.test("host: recursion that takes forever without overflowing stops at the time limit, even through a function value", async () => {
  // Only functions on a cycle of calls read the stop flag (src/backend/recursion.ts):
  // `slow_fib` and `apply` are one, through the value `slow_fib`.
  const text = moduleOf(`fn apply(f: fn(Int) -> Int, n: Int) -> Int {
  f(n)
}

fn slow_fib(n: Int) -> Int {
  if n < 2 { n } else { apply(slow_fib, n - 1) + apply(slow_fib, n - 2) }
}

fn main() -> Unit {
  print(to_string(slow_fib(80)));
}
`);
  const worker = await ProgramWorker.start(text);
  try {
    const outcome = await worker.run(null, { ...LIMITS, timeoutMs: 300 }, () => {});
    assert(outcome.kind === "failed");
    assertEquals(outcome.report.kind, "timeout");
    const names = new Set(outcome.report.frames.map((f) => f.name));
    assert(names.has("slow_fib") && names.has("apply"), [...names].join(", "));
    assertEquals(worker.alive, true); // it stopped itself: no termination
  } finally {
    worker.close();
  }
});

Deno.test("host: a program stuck inside the runtime is terminated after the grace period", async () => {
  const text = moduleOf('fn main() -> Unit {\n  print("stuck");\n}\n')
    // The hook: a print that never returns and never looks at the stop flag.
    .replace(/export function \$print\(text\) \{/, "export function $print(text) {\n  for (;;) {}");
  const worker = await ProgramWorker.start(text);
  const started = performance.now();
  const outcome = await worker.run(null, { ...LIMITS, timeoutMs: 200 }, () => {});
  const elapsed = performance.now() - started;
  assert(outcome.kind === "failed");
  assertEquals(outcome.report.kind, "timeout");
  assertEquals(outcome.report.frames, []);
  assertMatch(outcome.report.message, /did not stop when asked/);
  assert(elapsed >= 200 + STOP_GRACE_MS - 50, `terminated after ${elapsed} ms`);
  assertEquals(worker.alive, false);
});

Deno.test("host: a module that does not load is an error, not a hang", async () => {
  let message = "";
  try {
    await ProgramWorker.start("this is not JavaScript(");
  } catch (e) {
    message = (e as Error).message;
  }
  assertMatch(message, /^the program's module did not load: /);
});
