/**
 * The AI SDK's MCP client (`@ai-sdk/mcp`) against the real server, measured
 * where it matters: the tool output the model would receive, made by the
 * library's own conversion (each tool's `toModelOutput`, its
 * mcpToModelOutput) from the result of the tool's own `execute`.
 *
 * - with the seed's default (`content: []`) the model receives an empty
 *   value for every answer and refusal: recorded here, so that the README's
 *   "what the model sees" stays measured;
 * - with `--text-content` it receives one text part whose JSON equals the
 *   structured answer, for every tool, and a refusal's reason;
 * - with `--tool-names=underscore` every tool name fits model APIs
 *   (`^[a-zA-Z0-9_-]{1,64}$`).
 */
import { assert, assertEquals } from "../support/assert.ts";
import { EXAMPLE_ROOT } from "../support/server.ts";
import { TOOLS } from "../../src/mcp/mod.ts";
import { canonicalTool, clientTest, dottedAgain, MODEL_API_NAME, runProbe } from "./_clients.ts";
import { assertValidAgainst } from "../support/schema.ts";

const AI_SDK = { folder: "ai-sdk", npm: "@ai-sdk/mcp" };

interface Call {
  name: string;
  result: { content: unknown[]; structuredContent?: Record<string, unknown>; isError?: boolean };
  modelOutput: { type: string; value: { type: string; text?: string }[] };
}
interface Probe {
  version: string;
  names: string[];
  calls: Call[];
  refusal: Call;
}

const probe = (...flags: string[]) => runProbe<Probe>(AI_SDK, ["--root", EXAMPLE_ROOT, ...flags]);

clientTest(
  AI_SDK,
  "with --text-content the model receives each answer's JSON, equal to the structured answer",
  async () => {
    const { calls, refusal } = await probe("--text-content");
    assertEquals(
      [...new Set(calls.map((call) => call.name))].sort(),
      TOOLS.map((tool) => tool.name).sort(),
    );
    for (const call of [...calls, refusal]) {
      assertEquals(call.modelOutput.type, "content", call.name);
      assertEquals(call.modelOutput.value.length, 1, call.name);
      const [part] = call.modelOutput.value;
      assertEquals(part.type, "text");
      assert(part.text !== undefined && part.text.length > 2, `${call.name}: a non-empty text`);
      assertEquals(JSON.parse(part.text), call.result.structuredContent, call.name);
      assertValidAgainst(canonicalTool(call.name).outputSchema, call.result.structuredContent);
    }
    assertEquals(refusal.result.isError, true);
    assertEquals(JSON.parse(refusal.modelOutput.value[0].text!).reason, "no_definition");
  },
);

clientTest(
  AI_SDK,
  "with --tool-names=underscore every name fits a model API and answers equal the dotted ones",
  async () => {
    const [dotted, underscore] = await Promise.all([
      probe("--text-content"),
      probe("--text-content", "--tool-names=underscore"),
    ]);
    assertEquals(underscore.names.length, 11);
    for (const name of underscore.names) assert(MODEL_API_NAME.test(name), name);
    assertEquals(dottedAgain(underscore.names), dotted.names);
    for (const [index, call] of underscore.calls.entries()) {
      const before = dotted.calls[index];
      assertEquals(dottedAgain(call.name), before.name);
      // Digests of the repository and its documentation are the same on both
      // sides; only the names of tools differ.
      assertEquals(dottedAgain(call.result.structuredContent), before.result.structuredContent);
    }
  },
);

clientTest(
  AI_SDK,
  "with the seed's default the model receives nothing; with =refusals, only a refusal's reason",
  async () => {
    const [seed, refusals] = await Promise.all([probe(), probe("--text-content=refusals")]);
    for (const call of [...seed.calls, seed.refusal]) {
      assertEquals(call.modelOutput, { type: "content", value: [] }, `seed: ${call.name}`);
    }
    for (const call of refusals.calls) {
      if (call.result.isError) {
        const { reason, message } = call.result.structuredContent as Record<string, string>;
        assertEquals(call.modelOutput.value, [{ type: "text", text: `${reason}: ${message}` }]);
      } else {
        assertEquals(call.modelOutput, { type: "content", value: [] }, `refusals: ${call.name}`);
      }
    }
    assertEquals(refusals.refusal.modelOutput, {
      type: "content",
      value: [{
        type: "text",
        text: "no_definition: no function, record or enum is declared or used at that position",
      }],
    });
  },
);
