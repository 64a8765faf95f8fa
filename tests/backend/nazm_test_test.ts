/**
 * `nazm test ROOT`: test functions discovered across the root's
 * compilation, each run alone in the program worker with its own time
 * limit; `--filter`; the human report with its summary line (golden,
 * tests/golden/test/suite.out); `--summary-json` valid against
 * schema/nazm.test-summary-1.json (its golden is the schema golden,
 * tests/mcp/schema_goldens_test.ts); exit 1 when a test
 * fails or the compilation has errors, 2 on a usage error. Durations vary,
 * so the goldens show them as `<ms>`.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { checkGoldenText } from "../support/golden.ts";
import { main } from "../../src/cli/main.ts";

const SUITE = "tests/golden/test/suite/main.nz";

async function nazm(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const status = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
}

function withoutDurations(text: string): string {
  return text.replace(
    /\(\d+\.\d ms\)|\(\d+\.\d\d s\)|in \d+\.\d ms|in \d+\.\d\d s/g,
    (m) => m.startsWith("in") ? "in <ms>" : "(<ms>)",
  );
}

Deno.test("nazm test: every test of the compilation, in module order, with failures explained", async () => {
  const r = await nazm("test", SUITE, "--timeout", "0.5");
  assertEquals(r.status, 1);
  assertEquals(r.stderr, "");
  checkGoldenText(SUITE, "tests/golden/test/suite.out", withoutDurations(r.stdout));
});

Deno.test("nazm test --summary-json: each test's key, place, status, duration, output and failure", async () => {
  const r = await nazm("test", SUITE, "--timeout", "0.5", "--summary-json");
  assertEquals(r.status, 1);
  const summary = JSON.parse(r.stdout);
  assertValidAgainst("nazm.test-summary-1.json", summary);
  assertEquals(
    [summary.status, summary.exit_status, summary.passed, summary.failed],
    ["failed", 1, 4, 3],
  );
  // Measured inside the worker, from the test's first step: the host's clock
  // started a little earlier, when it sent the test.
  const timed = summary.tests.find((t: { name: string }) => t.name === "never_ends");
  assert(timed.duration_ms >= 300, `stopped after ${timed.duration_ms} ms, by a 500 ms limit`);
  assertEquals(
    summary.tests.map((t: { name: string; status: string }) => `${t.name} ${t.status}`),
    [
      "balance_of_nothing passed",
      "overflowing_balance failed",
      "never_ends failed",
      "cents_adds_units passed",
      "show_pads passed",
      "show_rounds failed",
      "money_and_ledger_agree passed",
    ],
  );
});

Deno.test("nazm test --filter: a substring of the key; the others are counted as filtered out", async () => {
  const r = await nazm("test", SUITE, "--filter", "bank.money::show_p");
  assertEquals(r.status, 0);
  assertMatch(
    r.stdout,
    /^running 1 test \(6 filtered out\)\ntest bank\.money::show_pads \.\.\. ok/,
  );
  assertMatch(r.stdout, /test result: ok\. 1 passed; 0 failed; 6 filtered out; finished in /);
  const none = await nazm("test", SUITE, "--filter", "no such test", "--summary-json");
  assertEquals(none.status, 0);
  const summary = JSON.parse(none.stdout);
  assertEquals([summary.status, summary.tests, summary.filtered_out], ["passed", [], 7]);
});

Deno.test("nazm test: each test is alone — a failure, a panic or a timeout never touches the next", async () => {
  const r = await nazm("test", SUITE, "--timeout", "0.3", "--summary-json");
  const byName = new Map(
    JSON.parse(r.stdout).tests.map((t: { name: string; status: string }) => [t.name, t.status]),
  );
  // `never_ends` runs out of time between `balance_of_nothing` and the money tests, which pass.
  assertEquals(byName.get("never_ends"), "failed");
  assertEquals(byName.get("cents_adds_units"), "passed");
  assertEquals(byName.get("money_and_ledger_agree"), "passed");
});

Deno.test("nazm test: a compilation with errors runs nothing and exits 1; usage errors exit 2", async () => {
  const bad = await nazm("test", "tests/golden/semantics/N0301_mismatch.nz");
  assertEquals(bad.status, 1);
  assertEquals(bad.stdout, "");
  assertMatch(bad.stderr, /error\[N0301\]/);
  assertMatch(bad.stderr, /nazm test: the program has errors; nothing was run\n$/);
  const json = await nazm("test", "tests/golden/semantics/N0301_mismatch.nz", "--summary-json");
  assertEquals(json.status, 1);
  const summary = JSON.parse(json.stdout);
  assertValidAgainst("nazm.test-summary-1.json", summary);
  assertEquals([summary.status, summary.tests], ["refused", []]);
  assertEquals((await nazm("test")).status, 2);
  assertEquals((await nazm("test", SUITE, "--timeout", "0")).status, 2);
  assertEquals((await nazm("test", SUITE, "--max-output", "lots")).status, 2);
  assertEquals((await nazm("test", "does/not/exist.nz")).status, 2);
});
