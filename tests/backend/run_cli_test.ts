/**
 * `nazm run FILE`: a program with errors is refused with its diagnostics
 * (exit 1) and never runs; usage errors exit 2; every runtime error has its
 * own exit status, distinct from the others and from `main`'s own (0–100),
 * and the README and the specification document each one.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { main } from "../../src/cli/main.ts";
import { MAX_PROGRAM_STATUS, RUNTIME_ERRORS } from "../../src/backend/mod.ts";
import { nazmRun } from "./_run_cases.ts";

Deno.test("nazm run: a program with errors is refused with its diagnostics, exit 1, nothing run", async () => {
  const r = await nazmRun("tests/golden/semantics/N0301_mismatch.nz", []);
  assertEquals(r.status, 1);
  assertEquals(r.stdout, "");
  assertMatch(r.stderr, /^error\[N0301\]: mismatched types/);
  assertMatch(
    r.stderr,
    /\d+ errors?, \d+ warnings?\nnazm run: the program has errors; nothing was run\n$/,
  );
  const noMain = await nazmRun("tests/golden/semantics/N0501_missing_main.nz", []);
  assertEquals(noMain.status, 1);
  assertMatch(noMain.stderr, /error\[N0501\]/);
});

Deno.test("nazm run: warnings do not stop it", async () => {
  const r = await nazmRun("tests/golden/semantics/N0401_unused_local.nz", []);
  assertEquals(r.stderr, "");
  assertEquals(r.status, 0);
});

Deno.test("nazm run: usage errors exit 2", async () => {
  const run = async (...args: string[]) => {
    let err = "";
    const status = await main(["run", ...args], { stdout: () => {}, stderr: (t) => (err += t) });
    return { status, err };
  };
  for (
    const args of [
      [],
      ["a.nz", "b.nz"],
      ["examples/shapes/main.nz", "--timeout"],
      ["examples/shapes/main.nz", "--timeout", "0"],
      ["examples/shapes/main.nz", "--timeout", "-1"],
      ["examples/shapes/main.nz", "--timeout", "ten"],
      ["examples/shapes/main.nz", "--timeout", "86401"],
      ["examples/shapes/main.nz", "--max-output", "1.5"],
      ["examples/shapes/main.nz", "--bogus"],
    ]
  ) {
    const r = await run(...args);
    assertEquals(r.status, 2, args.join(" "));
    assertMatch(r.err, /^nazm run: .*\nusage: nazm run FILE/);
  }
  const missing = await run("does/not/exist.nz");
  assertEquals(missing.status, 2);
  assertMatch(missing.err, /^nazm run: cannot read does\/not\/exist\.nz/);
});

Deno.test("exit statuses: each runtime error has its own, above main's 0 to 100, and the docs list them", () => {
  const statuses = Object.values(RUNTIME_ERRORS).map((e) => e.status);
  assertEquals(new Set(statuses).size, statuses.length);
  assert(
    statuses.every((s) => s > MAX_PROGRAM_STATUS && s < 126),
    "clear of the shell's 126 and up",
  );
  const readme = Deno.readTextFileSync("README.md");
  const spec = Deno.readTextFileSync("docs/specification.md");
  for (const [kind, { status }] of Object.entries(RUNTIME_ERRORS)) {
    const row = new RegExp(`\\| \`${status}\` +\\| \`${kind}\` +\\|`);
    assertMatch(readme, row, `README.md lists ${status} ${kind}`);
    assertMatch(spec, row, `the specification lists ${status} ${kind}`);
  }
});
