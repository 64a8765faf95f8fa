/**
 * The capability matrix (docs/capabilities.md) stays honest: read through
 * the documentation tools' own functions, its tools table agrees with the
 * server's registry and its command table with the command line's
 * dispatcher. Something that can be called is never "planned"; something
 * "exists" or "partial" can be called — except where the note says it is
 * not yet registered.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { docsIndex, docsSection } from "../../src/docs/mod.ts";
import { answerOf } from "../support/outcome.ts";
import { TOOLS } from "../../src/mcp/registry.ts";
import { BUILT_REPOSITORY, SUBCOMMANDS } from "../../src/cli/main.ts";

const TOOL_NAMES = [
  "nazm.semantic_context",
  "nazm.semantic_snapshot",
  "nazm.semantic_delta",
  "nazm.semantic_patch",
  "nazm.diagnostics",
  "nazm.diagnostic_detail",
  "nazm.command_summary",
  "nazm.docs_index",
  "nazm.docs_section",
  "nazm.repository_map",
  "nazm.task_context",
];

/** The rows of the table in one section: first cell, status cell, notes. */
function rows(id: string): { first: string; status: string; notes: string }[] {
  const root = BUILT_REPOSITORY;
  const index = answerOf(docsIndex(root, { document: "capabilities" }));
  const section = answerOf(docsSection(root, { id, state: index.state }));
  return section.text.split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()))
    .map((cells) => {
      const status = cells.find((c) => ["exists", "partial", "planned"].includes(c));
      if (status === undefined) throw new Error(`no status in row ${cells.join(" | ")}`);
      return { first: cells[0], status, notes: cells[cells.length - 1] };
    });
}

Deno.test("capabilities: the tools table lists all eleven tools and agrees with the registry", () => {
  const table = rows("capabilities/the-server-s-tools");
  const listed = table.map((r) => r.first.replaceAll("`", ""));
  assertEquals([...listed].sort(), [...TOOL_NAMES].sort());
  const registered = new Set(TOOLS.map((t) => t.name));
  for (const row of table) {
    const name = row.first.replaceAll("`", "");
    if (registered.has(name)) {
      assert(row.status !== "planned", `${name} is registered but listed as planned`);
    } else {
      assert(
        row.status === "planned" || row.notes.includes("not yet in the server's registry"),
        `${name} is listed as ${row.status} but is not registered`,
      );
    }
  }
});

Deno.test("capabilities: the command table agrees with the dispatcher", () => {
  const table = rows("capabilities/the-command-line");
  const listed = new Map<string, string>();
  for (const row of table) {
    for (const match of row.first.matchAll(/`nazm ([a-z]+)/g)) listed.set(match[1], row.status);
  }
  for (const name of Object.keys(SUBCOMMANDS)) {
    assert(listed.has(name), `nazm ${name} exists but is not in the matrix`);
    assert(listed.get(name) !== "planned", `nazm ${name} exists but is listed as planned`);
  }
  for (const [name, status] of listed) {
    if (status !== "planned") assert(name in SUBCOMMANDS, `nazm ${name} is listed as ${status}`);
  }
});
