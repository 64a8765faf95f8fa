/**
 * The MCP TypeScript SDK's v1 client (`@modelcontextprotocol/sdk` 1.32.2,
 * the legacy handshake) against the real server: it lists the eleven tools
 * and calls each one; the client itself validates every answer's structured
 * content against the tool's output schema (it throws on a mismatch), and
 * each value is validated again against schema/ with Ajv 2020.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { EXAMPLE_ROOT } from "../support/server.ts";
import { TOOLS } from "../../src/mcp/mod.ts";
import { canonicalTool, clientTest, dottedAgain, MODEL_API_NAME, runProbe } from "./_clients.ts";

const SDK_V1 = { folder: "sdk-v1", npm: "@modelcontextprotocol/sdk" };

interface Result {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
interface Probe {
  version: string;
  server: { name: string; version: string };
  tools: { name: string; description: string }[];
  calls: (Result & { name: string })[];
  refusal: Result;
}

function schemaOf(name: string): string {
  return canonicalTool(name).outputSchema;
}

clientTest(SDK_V1, "lists the eleven tools and calls each; every answer validates", async () => {
  const probe = await runProbe<Probe>(SDK_V1, ["--root", EXAMPLE_ROOT]);
  assertEquals(probe.server.name, "nazm-mcp");
  assertEquals(probe.tools.map((tool) => tool.name), TOOLS.map((tool) => tool.name));
  assertEquals(
    [...new Set(probe.calls.map((call) => call.name))].sort(),
    TOOLS.map((tool) => tool.name).sort(),
  );
  for (const call of probe.calls) {
    assertEquals(call.content, [], `${call.name}: the seed's content`);
    assertValidAgainst(schemaOf(call.name), call.structuredContent);
  }
  assert(probe.calls.filter((call) => !call.isError).length >= 10, "answers, not refusals");
  assertEquals(probe.refusal.isError, true);
  assertEquals(probe.refusal.content, []);
  assertEquals(probe.refusal.structuredContent?.reason, "no_definition");
});

clientTest(SDK_V1, "under --tool-names=underscore --text-content=refusals", async () => {
  const probe = await runProbe<Probe>(SDK_V1, [
    "--root",
    EXAMPLE_ROOT,
    "--tool-names=underscore",
    "--text-content=refusals",
  ]);
  assertEquals(probe.tools.length, 11);
  for (const tool of probe.tools) {
    assert(MODEL_API_NAME.test(tool.name), tool.name);
    for (const other of TOOLS) {
      assert(!tool.description.includes(other.name), `${tool.name} cites ${other.name}`);
    }
  }
  for (const call of probe.calls) {
    assertValidAgainst(schemaOf(call.name), dottedAgain(call.structuredContent));
    assertEquals(call.content.length, call.isError ? 1 : 0, call.name);
  }
  assertEquals(probe.refusal.content, [{
    type: "text",
    text: "no_definition: no function, record or enum is declared or used at that position",
  }]);
});
