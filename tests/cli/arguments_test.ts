/**
 * The command line checks a fact's arguments with the tool's own input
 * schema, as the server's gate does: what the gate refuses with -32602 the
 * command line refuses as a usage error (exit 2), saying the same thing.
 */
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { runNazm } from "../support/cli.ts";
import { describeIssues } from "../../src/contracts/mod.ts";
import { findTool } from "../../src/mcp/mod.ts";

const ROOT = "examples/shapes/main.nz";
const STATE = "0".repeat(64);

const cases: [string, string[], string, Record<string, unknown>][] = [
  ["a line 0", ["context", "main.nz", "0:4", "--root", ROOT], "nazm.semantic_context", {
    file: "main.nz",
    position: { line: 0, column: 4 },
  }],
  [
    "a file argument over 4,096 characters",
    ["context", "x".repeat(4097), "1:1", "--root", ROOT],
    "nazm.semantic_context",
    {
      file: "x".repeat(4097),
      position: { line: 1, column: 1 },
    },
  ],
  [
    "a fix index over 1,000",
    ["patch", "fix", "some-id", "1001", "--state", STATE, "--root", ROOT],
    "nazm.semantic_patch",
    {
      operation: "fix",
      diagnostic: "some-id",
      fix: 1001,
      state: STATE,
    },
  ],
  [
    "an empty new name",
    ["patch", "rename", "main.nz", "5:4", "", "--root", ROOT],
    "nazm.semantic_patch",
    {
      operation: "rename",
      file: "main.nz",
      position: { line: 5, column: 4 },
      new_name: "",
    },
  ],
  [
    "a state that is no digest",
    ["diagnostics", "some-id", "--state", "nope", "--root", ROOT],
    "nazm.diagnostic_detail",
    {
      id: "some-id",
      state: "nope",
    },
  ],
];

for (const [what, argv, tool, args] of cases) {
  Deno.test(`cli arguments: nazm ${argv[0]} refuses ${what}, as ${tool} does`, async () => {
    const input = findTool(tool)!.input.safeParse(args);
    assertEquals(input.success, false, "the gate refuses these arguments");
    const said = describeIssues(input.error!).summary;
    const run = await runNazm(...argv);
    assertEquals([run.status, run.out], [2, ""]);
    assertStringIncludes(run.err, `: ${said}\n`);
  });
}
