/**
 * The conformance suite: every case of tests/run/ (and the bundled
 * examples) run through `nazm run`, its exit status, stdout and stderr
 * compared with the expectation beside it. `NAZM_GOLDEN_WRITE=1` rewrites.
 * Nothing else lives in tests/run/: an expectation whose case was renamed
 * or deleted would be checked by nobody.
 */
import { assertEquals } from "../support/assert.ts";
import { checkGoldenText } from "../support/golden.ts";
import { nazmRun, renderResult, RUN_DIR, runCases } from "./_run_cases.ts";

Deno.test("conformance: tests/run/ through nazm run", async (t) => {
  for (const c of runCases()) {
    await t.step(c.name, async () => {
      checkGoldenText(c.root, c.expected, renderResult(await nazmRun(c.root, c.args)));
    });
  }
});

Deno.test("conformance: tests/run/ holds cases and their expectations, nothing else", () => {
  const known = new Set<string>();
  for (const c of runCases()) {
    known.add(c.expected); // the examples' expectations live here too
    if (!c.root.startsWith(`${RUN_DIR}/`)) continue;
    known.add(c.root.endsWith("/main.nz") ? c.root.slice(0, -"/main.nz".length) : c.root);
  }
  const present = [...Deno.readDirSync(RUN_DIR)].map((e) => `${RUN_DIR}/${e.name}`).sort();
  assertEquals(present.filter((p) => !known.has(p)), [], "files that are no case's");
});
