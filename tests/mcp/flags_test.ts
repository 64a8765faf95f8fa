/**
 * nazm-mcp's command line: every problem is one line on stderr and exit 2
 * before any protocol traffic (nothing on stdout); --help and --version.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../support/assert.ts";
import { REPO, runServerCommand } from "../support/server.ts";
import { resolvePaths } from "../../src/mcp/mod.ts";
import { join } from "node:path";

const denoJson = JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json")));

const ROOT = "examples/shapes/main.nz";

const failures: [string, string[], RegExp][] = [
  ["no --root", [], /--root FILE is required/],
  ["--root without a value", ["--root"], /--root needs a value/],
  ["an unknown flag", ["--root", ROOT, "--verbose"], /unknown flag --verbose/],
  ["a stray argument", ["--root", ROOT, "extra"], /unexpected argument extra/],
  ["--root twice", ["--root", ROOT, "--root", ROOT], /--root is given twice/],
  [
    "a root that does not exist",
    ["--root", "examples/shapes/nope.nz"],
    /does not exist/,
  ],
  ["a root that is not .nz", ["--root", "deno.json"], /is not a \.nz file/],
  ["a root that is a folder", ["--root", "examples"], /is not a \.nz file/],
  [
    "a source root that does not contain the root",
    ["--root", ROOT, "--source-root", "examples/shapes/geometry"],
    /does not contain the root/,
  ],
  [
    "a source root that does not exist",
    ["--root", ROOT, "--source-root", "nowhere"],
    /does not exist/,
  ],
  [
    "a docs repository that does not exist",
    ["--root", ROOT, "--docs", "nowhere"],
    /does not exist/,
  ],
  [
    "an unknown content mode",
    ["--root", ROOT, "--text-content=answers"],
    /--text-content takes all or refusals, not "answers"/,
  ],
  [
    "an empty content mode",
    ["--root", ROOT, "--text-content="],
    /--text-content takes all or refusals, not ""/,
  ],
  [
    "--text-content twice",
    ["--root", ROOT, "--text-content", "--text-content=refusals"],
    /--text-content is given twice/,
  ],
  [
    "a content mode as a separate argument",
    ["--root", ROOT, "--text-content", "refusals"],
    /unexpected argument refusals/,
  ],
  [
    "an unknown tool naming",
    ["--root", ROOT, "--tool-names=camel"],
    /--tool-names takes dotted or underscore, not "camel"/,
  ],
  ["--tool-names without a value", ["--root", ROOT, "--tool-names"], /--tool-names needs a value/],
  [
    "--tool-names twice",
    ["--root", ROOT, "--tool-names", "underscore", "--tool-names=dotted"],
    /--tool-names is given twice/,
  ],
  [
    "a docs repository that is a file",
    ["--root", ROOT, "--docs", "deno.json"],
    /is not a directory/,
  ],
];

for (const [what, args, message] of failures) {
  Deno.test(`flags: ${what} is exit 2 with one line on stderr and nothing on stdout`, async () => {
    const t = await runServerCommand(args);
    assertEquals(t.code, 2);
    assertEquals(t.stdout, "");
    assertMatch(t.stderr, message);
    assertMatch(t.stderr, /^nazm-mcp: [^\n]+\n$/);
  });
}

Deno.test("flags: --version prints the deno.json version", async () => {
  const t = await runServerCommand(["--version"]);
  assertEquals(t.code, 0);
  assertEquals(t.stdout, `nazm-mcp ${denoJson.version}\n`);
});

Deno.test("flags: --help prints the usage", async () => {
  const t = await runServerCommand(["--help"]);
  assertEquals(t.code, 0);
  assertStringIncludes(
    t.stdout,
    "nazm-mcp --root FILE [--source-root DIR] [--docs DIR]\n" +
      "           [--text-content[=all|refusals]] [--tool-names=dotted|underscore]",
  );
  assertStringIncludes(t.stdout, "--text-content=refusals");
  assertStringIncludes(t.stdout, "--tool-names=underscore");
  assertStringIncludes(t.stdout, "NAZM_LOG");
  assertEquals(t.stderr, "");
});

Deno.test("flags: a relative root, an explicit source root and docs repository are accepted", async () => {
  const t = await runServerCommand([
    "--root=examples/shapes/main.nz",
    "--source-root",
    "examples",
    "--docs",
    ".",
    "--text-content=refusals",
    "--tool-names",
    "underscore",
  ]);
  assertEquals(t.code, 0, t.stderr);
  assertEquals(t.stdout, "");
  assert(!t.stderr.includes("error"), t.stderr);
});

Deno.test("flags: a source root holds a root in a folder whose name begins with two dots", () => {
  // One containment check (src/base isWithin) for the flags and every read:
  // `..x/main.nz` under the source root is inside it, `../x` is not.
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-flags-" }));
  try {
    Deno.mkdirSync(join(dir, "..x"));
    Deno.writeTextFileSync(join(dir, "..x", "main.nz"), "fn main() {}\n");
    const paths = resolvePaths({ root: join(dir, "..x", "main.nz"), sourceRoot: dir }, REPO);
    assertEquals([paths.root, paths.sourceRoot], [join(dir, "..x", "main.nz"), dir]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
