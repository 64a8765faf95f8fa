/**
 * The naming rules of publishing.ts on their edges: whole-word mentions only,
 * schema keywords but not property names, quoted input left as given.
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  publishedName,
  renameInResult,
  renameInSchema,
  textBlockOf,
  toolNameMap,
} from "../../src/mcp/publishing.ts";
import { TOOLS } from "../../src/mcp/mod.ts";

const names = toolNameMap(TOOLS.map((tool) => tool.name), "underscore");
const dotted = toolNameMap(TOOLS.map((tool) => tool.name), "dotted");

Deno.test("publishing: a published name is the canonical one with its dot replaced", () => {
  assertEquals(publishedName("nazm.semantic_context", "underscore"), "nazm_semantic_context");
  assertEquals(publishedName("nazm.semantic_context", "dotted"), "nazm.semantic_context");
  assertEquals(names.canonicalOf("nazm_diagnostics"), "nazm.diagnostics");
  assertEquals(names.canonicalOf("nazm.diagnostics"), undefined);
  assertEquals(dotted.canonicalOf("nazm_diagnostics"), undefined);
});

Deno.test("publishing: only whole mentions of tool names are renamed", () => {
  const cases: [string, string][] = [
    ["ask nazm.diagnostics again.", "ask nazm_diagnostics again."],
    ["nazm.diagnostic_detail's answer", "nazm_diagnostic_detail's answer"],
    ["(`nazm.docs_index`, not nazm.docs_index_x)", "(`nazm_docs_index`, not nazm.docs_index_x)"],
    ["as nazm.diagnostic/1 publishes it", "as nazm.diagnostic/1 publishes it"],
    ["schema/nazm.docs-index-1.json", "schema/nazm.docs-index-1.json"],
    [
      "x.nazm.diagnostics and nazm.diagnostics-like",
      "x.nazm.diagnostics and nazm.diagnostics-like",
    ],
    ["nazm.semantic_snapshot,nazm.semantic_delta", "nazm_semantic_snapshot,nazm_semantic_delta"],
  ];
  for (const [text, expected] of cases) assertEquals(names.renameMentions(text), expected, text);
  assertEquals(dotted.renameMentions(cases[0][0]), cases[0][0]);
});

Deno.test("publishing: a schema's texts and enums are renamed, a property named title is descended into", () => {
  const schema = {
    description: "pass it to nazm.docs_section",
    properties: {
      title: { type: "string", description: "see nazm.docs_index" },
      tool: { enum: ["nazm.docs_index", "other"] },
      fixed: { const: "nazm.task_context" },
      pattern: { type: "string", pattern: "^nazm.diagnostics$" },
    },
  };
  assertEquals(renameInSchema(schema, names), {
    description: "pass it to nazm_docs_section",
    properties: {
      title: { type: "string", description: "see nazm_docs_index" },
      tool: { enum: ["nazm_docs_index", "other"] },
      fixed: { const: "nazm_task_context" },
      pattern: { type: "string", pattern: "^nazm.diagnostics$" },
    },
  });
  assert(renameInSchema(schema, dotted) === schema);
});

Deno.test("publishing: an answer changes only in tool fields; a refusal's quoted input stays as given", () => {
  const answer = {
    text: "call nazm.docs_index first",
    retrieve: { tool: "nazm.docs_section", arguments: { id: "nazm.docs_index" } },
    tool: "not a tool",
  };
  assertEquals(renameInResult(answer, "answer", names), {
    text: "call nazm.docs_index first",
    retrieve: { tool: "nazm_docs_section", arguments: { id: "nazm.docs_index" } },
    tool: "not a tool",
  });
  const refusal = {
    status: "refused",
    reason: "invalid_request",
    message: 'The seed "nazm.docs_index \\"x\\"" is not an id; ask nazm.repository_map',
  };
  assertEquals(
    (renameInResult(refusal, "refusal", names) as { message: string }).message,
    'The seed "nazm.docs_index \\"x\\"" is not an id; ask nazm_repository_map',
  );
  assert(renameInResult(refusal, "refusal", dotted) === refusal);
});

Deno.test("publishing: the text block of each content mode", () => {
  const refusal = { status: "refused", reason: "stale_state", message: "ask again" };
  const answer = { schema: "x", value: 1 };
  assertEquals(textBlockOf("refusal", refusal, "structured"), undefined);
  assertEquals(textBlockOf("answer", answer, "structured"), undefined);
  assertEquals(textBlockOf("refusal", refusal, "refusals"), "stale_state: ask again");
  assertEquals(textBlockOf("answer", answer, "refusals"), undefined);
  assertEquals(textBlockOf("refusal", refusal, "all"), JSON.stringify(refusal));
  assertEquals(textBlockOf("answer", answer, "all"), JSON.stringify(answer));
});
