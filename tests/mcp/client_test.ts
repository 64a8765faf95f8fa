/**
 * The real server through the SDK v2 Client over stdio, pinned to 2026-07-28
 * and in legacy mode: the same tools in both eras, each published with its
 * schema/ file byte for byte and the read-only annotations, and every answer
 * valid against schema/ (Ajv 2020).
 */
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { connectClient, REPO } from "../support/server.ts";
import { join } from "node:path";
import { TOOLS } from "../../src/mcp/mod.ts";

async function listBoth() {
  const modern = await connectClient("modern");
  const legacy = await connectClient("legacy");
  try {
    const [m, l] = await Promise.all([
      modern.client.listTools(),
      legacy.client.listTools(),
    ]);
    return { modern: m, legacy: l };
  } finally {
    await Promise.all([modern.close(), legacy.close()]);
  }
}

Deno.test("tools/list is the same in both eras, apart from envelope fields", async () => {
  const { modern, legacy } = await listBoth();
  assertEquals(modern.tools, legacy.tools);
  assertEquals(
    modern.tools.map((tool) => tool.name),
    TOOLS.map((tool) => tool.name),
  );
});

Deno.test("tools/list publishes each schema/ file byte for byte, with read-only annotations", async () => {
  const { modern } = await listBoth();
  for (const tool of modern.tools) {
    const definition = TOOLS.find((candidate) => candidate.name === tool.name)!;
    const file = Deno.readTextFileSync(
      join(REPO, "schema", definition.outputSchema),
    );
    assertEquals(
      JSON.stringify(tool.outputSchema),
      JSON.stringify(JSON.parse(file)),
      tool.name,
    );
    assertEquals(tool.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assertEquals(tool.inputSchema.type, "object");
    assertEquals(
      tool.inputSchema.additionalProperties,
      false,
      `${tool.name} input is strict`,
    );
    assert(
      tool.description && tool.description.length > 80,
      `${tool.name} has a real description`,
    );
    assert(tool.title, `${tool.name} has a title`);
  }
});

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`${era}: docs tools answer, refuse and reject through the SDK Client`, async () => {
    const { client, close } = await connectClient(era);
    try {
      const index = await client.callTool({
        name: "nazm.docs_index",
        arguments: {},
      });
      assertEquals(index.content, []);
      assertEquals(index.isError, undefined);
      assertValidAgainst("nazm.docs-index-1.json", index.structuredContent);
      const state = (index.structuredContent as { state: string }).state;
      const documents = (index.structuredContent as {
        documents: { sections: { id: string }[] }[];
      })
        .documents;
      const firstSection = documents.flatMap((document) => document.sections)[0];
      if (firstSection) {
        const section = await client.callTool({
          name: "nazm.docs_section",
          arguments: { id: firstSection.id, state },
        });
        assertEquals(section.content, []);
        assertValidAgainst(
          "nazm.docs-section-1.json",
          section.structuredContent,
        );
      }
      for (const id of ["/etc/passwd", "../README.md", "no-such-document/x"]) {
        const refused = await client.callTool({
          name: "nazm.docs_section",
          arguments: { id, state },
        });
        assertEquals(refused.isError, true, id);
        assertValidAgainst(
          "nazm.docs-section-1.json",
          refused.structuredContent,
        );
      }
      await assertRejects(() => client.callTool({ name: "nazm.nope", arguments: {} }));
      await assertRejects(() =>
        client.callTool({
          name: "nazm.docs_index",
          arguments: { document: "readme", extra: 1 },
        })
      );
    } finally {
      await close();
    }
  });
}
