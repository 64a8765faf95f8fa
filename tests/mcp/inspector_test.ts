/**
 * A real third-party client: the MCP Inspector CLI (npm
 * @modelcontextprotocol/inspector-cli 1.0.3, installed by .ci/run into
 * .ci/inspector) lists the tools and calls one over stdio, starting the
 * server with the real flags. It is run from .ci/inspector/node_modules
 * because it looks for ../package.json relative to its working directory.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { childEnv, EXAMPLE_ROOT, REPO, serverArgs } from "../support/server.ts";
import { join } from "node:path";
import { TOOLS } from "../../src/mcp/mod.ts";

const HOME = join(REPO, ".ci", "inspector");
const CLI = join(HOME, "node_modules", ".bin", "mcp-inspector-cli");
const installed = (() => {
  try {
    return Deno.statSync(CLI).isFile;
  } catch {
    return false;
  }
})();

async function inspect(...method: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(CLI, {
    args: [
      "--cli",
      "--",
      Deno.execPath(),
      ...serverArgs(["--root", EXAMPLE_ROOT]),
      ...method,
    ],
    cwd: join(HOME, "node_modules"),
    env: childEnv(),
    clearEnv: true,
  }).output();
  const out = new TextDecoder().decode(stdout);
  const json = out.slice(out.indexOf("{"));
  assertEquals(code, 0, `${out}\n${new TextDecoder().decode(stderr)}`);
  return JSON.parse(json);
}

Deno.test({
  name: installed
    ? "MCP Inspector CLI lists the tools and calls one"
    : "MCP Inspector CLI lists the tools and calls one (NOT RUN: .ci/run installs it into .ci/inspector)",
  ignore: !installed,
  async fn() {
    const listed = await inspect("--method", "tools/list");
    assertEquals(
      listed.tools.map((tool: { name: string }) => tool.name),
      TOOLS.map((tool) => tool.name),
    );
    const called = await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "nazm.semantic_context",
      "--tool-arg",
      "file=main.nz",
      "--tool-arg",
      'position={"line":5,"column":4}',
    );
    assertEquals(called.content, []);
    assertValidAgainst("nazm.context-4.json", called.structuredContent);
    assertEquals(called.structuredContent.schema, "nazm.context/4");
    assertEquals(called.structuredContent.target.name, "describe");
    assert(called.isError !== true);
  },
});
