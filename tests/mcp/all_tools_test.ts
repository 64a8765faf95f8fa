/**
 * Every tool of the production registry called through the real server over
 * the SDK Client (modern era), each answer or refusal validated against its
 * published schema/ file with Ajv 2020. An internal error fails the test.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { connectClient } from "../support/server.ts";
import { TOOLS } from "../../src/mcp/mod.ts";

type Structured = Record<string, unknown>;

Deno.test("every tool answers (or refuses) with structured content valid against its schema", async () => {
  const { client, close } = await connectClient("modern");
  const seen = new Set<string>();
  const call = async (
    name: string,
    args: Record<string, unknown>,
  ): Promise<Structured> => {
    const tool = TOOLS.find((candidate) => candidate.name === name);
    assert(tool, `${name} is registered`);
    const result = await client.callTool({ name, arguments: args });
    assert(
      result.structuredContent !== undefined,
      `${name} gave no structured content: ${JSON.stringify(result.content)}`,
    );
    assertEquals(result.content, [], `${name}: content is empty`);
    assertValidAgainst(tool.outputSchema, result.structuredContent);
    seen.add(name);
    return result.structuredContent as Structured;
  };
  try {
    await call("nazm.semantic_context", {
      file: "main.nz",
      position: { line: 5, column: 4 },
    });
    await call("nazm.semantic_context", {
      file: "main.nz",
      position: { line: 1, column: 1 },
    });
    const snapshot = await call("nazm.semantic_snapshot", {});
    await call("nazm.semantic_delta", { baseline: snapshot });
    await call("nazm.semantic_delta", { baseline: "/etc/passwd" });
    await call("nazm.semantic_patch", {
      operation: "rename",
      file: "main.nz",
      position: { line: 5, column: 4 },
      new_name: "describe_size",
    });
    const index = await call("nazm.diagnostics", {});
    const state = index.state as { source: string };
    const first = (index.diagnostics as { id: string }[])[0];
    await call("nazm.diagnostic_detail", {
      id: first?.id ?? "no-such-id",
      state: state.source,
    });
    await call("nazm.command_summary", {});
    const docs = await call("nazm.docs_index", {});
    const section = (docs.documents as { sections: { id: string }[] }[])
      .flatMap((document) => document.sections)[0];
    await call("nazm.docs_section", {
      id: section?.id ?? "readme",
      state: docs.state,
    });
    const map = await call("nazm.repository_map", {});
    const seed = (map.entities as { id: string }[] | undefined)?.[0]?.id ??
      "nazm";
    await call("nazm.task_context", {
      seeds: [seed],
      state: map.state,
      intent: "understand",
    });
    await call("nazm.task_context", {
      seeds: ["/etc/passwd"],
      state: map.state,
    });
  } finally {
    await close();
  }
  assertEquals(
    [...seen].sort(),
    TOOLS.map((tool) => tool.name).sort(),
    "every tool was called",
  );
});
