/**
 * `nazm build FILE -o OUT`: one self-contained JavaScript file that runs
 * with `deno run OUT` (no permission flag) and with `node OUT`, and prints,
 * exits and fails exactly as `nazm run` does — compared with the
 * conformance suite's own expectations. `--summary-json` is valid against
 * schema/nazm.build-summary-1.json, with the written file's size and BLAKE3.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { blake3 } from "../../src/base/mod.ts";
import { main } from "../../src/cli/main.ts";
import { renderResult, runCases, type RunResult } from "./_run_cases.ts";

async function cli(...args: string[]): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { status, stdout, stderr };
}

async function spawn(command: string, args: string[]): Promise<RunResult> {
  const out = await new Deno.Command(command, {
    args,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  return {
    status: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
}

/** Cases whose built file must behave as `nazm run` does, errors included. */
const BUILT = [
  "example_shapes",
  "example_ledger",
  "tail_calls",
  "prelude_to_string",
  "unicode",
  "error_overflow",
  "error_stack_overflow",
  "error_panic",
  "error_exit_status",
  "main_status",
];

Deno.test("build: the file runs with `deno run OUT` and `node OUT` exactly as nazm run runs it", async (t) => {
  const dir = Deno.makeTempDirSync({ prefix: "nazm-build-" });
  try {
    for (const c of runCases().filter((c) => BUILT.includes(c.name))) {
      await t.step(c.name, async () => {
        const out = join(dir, `${c.name}.js`);
        const built = await cli("build", c.root, "-o", out);
        assertEquals(built.status, 0, built.stderr);
        // What `nazm run` prints, but its note on main's status: that is the tool's, not the program's.
        const expected = Deno.readTextFileSync(c.expected)
          .replace(/\| note: main returned .*\n\| {3}at main .*\n/, "")
          .replace(/stderr:\n$/, "stderr: (none)\n");
        const text = Deno.readTextFileSync(out);
        assert(!/^\s*import[\s{*]/m.test(text) && !text.includes("require("), "self-contained");
        // All ASCII (strings escaped): V8 keeps the module text one byte a character.
        assert([...text].every((c) => c.charCodeAt(0) < 0x7f), "ASCII only");
        assertEquals(renderResult(await spawn("deno", ["run", "--quiet", out])), expected, "deno");
        assertEquals(renderResult(await spawn("node", [out])), expected, "node");
      });
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("build --summary-json: what was written, its size and BLAKE3, the entry point", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "nazm-build-" });
  try {
    const out = join(dir, "shapes.js");
    const r = await cli("build", "examples/shapes/main.nz", "-o", out, "--summary-json");
    assertEquals(r.status, 0);
    assertEquals(r.stderr, "");
    const summary = JSON.parse(r.stdout);
    assertValidAgainst("nazm.build-summary-1.json", summary);
    const bytes = Deno.readFileSync(out);
    assertEquals(summary.output, { path: out, bytes: bytes.length, digest: blake3(bytes) });
    assertEquals(summary.status, "built");
    assertEquals(summary.entry.key, "main::main");
    const source = Deno.readTextFileSync("examples/shapes/main.nz");
    assertEquals(summary.entry.place.start, {
      offset: source.indexOf("fn main") + 3,
      line: 13,
      column: 4,
    });
    assertEquals(summary.root, "main");
    // The same program builds to the same bytes.
    await cli("build", "examples/shapes/main.nz", "--output", join(dir, "again.js"));
    assertEquals(Deno.readFileSync(join(dir, "again.js")), bytes);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("build: a program with errors is refused and nothing is written", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "nazm-build-" });
  try {
    const out = join(dir, "out.js");
    const human = await cli("build", "tests/golden/semantics/N0301_mismatch.nz", "-o", out);
    assertEquals(human.status, 1);
    assertMatch(human.stderr, /error\[N0301\]: mismatched types/);
    assertMatch(human.stderr, /nazm build: the program has errors; nothing was written\n$/);
    const json = await cli(
      "build",
      "tests/golden/semantics/N0501_missing_main.nz",
      "-o",
      out,
      "--summary-json",
    );
    assertEquals(json.status, 1);
    const summary = JSON.parse(json.stdout);
    assertValidAgainst("nazm.build-summary-1.json", summary);
    assertEquals([summary.status, summary.output, summary.entry], ["refused", null, null]);
    assert(summary.diagnostics.some((d: { code: string }) => d.code === "N0501"));
    assertEquals([...Deno.readDirSync(dir)], []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("build: usage errors and an output that cannot be written exit 2", async () => {
  assertEquals((await cli("build", "examples/shapes/main.nz")).status, 2);
  assertEquals((await cli("build", "-o", "x.js")).status, 2);
  assertEquals((await cli("build", "missing.nz", "-o", "x.js")).status, 2);
  const r = await cli("build", "examples/shapes/main.nz", "-o", "/nonexistent-dir/x.js");
  assertEquals(r.status, 2);
  assertMatch(r.stderr, /^nazm build: cannot write \/nonexistent-dir\/x.js: /);
});
