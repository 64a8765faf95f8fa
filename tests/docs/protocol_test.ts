/**
 * The documentation tools through the real server over stdio, with the
 * flags a user runs: the structured content is exactly what the functions
 * answer, refusals come back as isError results valid against the schema,
 * and `--docs` picks the repository.
 *
 * Spawning needs --allow-run, which `deno task test` grants; under the
 * narrower `deno test --allow-read --allow-write --allow-env tests/docs/`
 * these tests are reported as ignored.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { connectClient, EXAMPLE_ROOT, REPO } from "../support/server.ts";
import { assertValidAgainst } from "../support/schema.ts";
import { docsIndex, docsSection, MANIFEST_PATH } from "../../src/docs/mod.ts";
import type { DocsIndexAnswer as DocsIndex } from "../../src/contracts/mod.ts";

const canRun = (await Deno.permissions.query({ name: "run" })).state === "granted";

Deno.test({
  name: "docs protocol: the tools answer over stdio exactly what the functions answer",
  ignore: !canRun,
  async fn() {
    const { client, close } = await connectClient("modern");
    try {
      const listed = await client.listTools();
      const names = listed.tools.map((t) => t.name);
      assert(names.includes("nazm.docs_index") && names.includes("nazm.docs_section"));

      const indexResult = await client.callTool({ name: "nazm.docs_index", arguments: {} });
      assertEquals(indexResult.isError ?? false, false, JSON.stringify(indexResult).slice(0, 500));
      assertEquals(indexResult.content, []);
      const index = indexResult.structuredContent as unknown as DocsIndex;
      assertValidAgainst("nazm.docs-index-1.json", index);
      assertEquals(index, docsIndex(REPO).value);

      const id = "architecture/the-tools/nazm-docs-index-and-nazm-docs-section";
      const sectionResult = await client.callTool({
        name: "nazm.docs_section",
        arguments: { id, state: index.state },
      });
      assertEquals(sectionResult.isError ?? false, false);
      assertValidAgainst("nazm.docs-section-1.json", sectionResult.structuredContent);
      assertEquals(
        sectionResult.structuredContent,
        docsSection(REPO, { id, state: index.state }).value,
      );

      for (const bad of ["../README.md", "/etc/passwd", "specification/../../x"]) {
        const refused = await client.callTool({
          name: "nazm.docs_section",
          arguments: { id: bad, state: index.state },
        });
        assertEquals(refused.isError, true);
        assertValidAgainst("nazm.docs-section-1.json", refused.structuredContent);
        assertEquals((refused.structuredContent as { reason: string }).reason, "not_found");
      }
      const stale = await client.callTool({
        name: "nazm.docs_section",
        arguments: { id, state: "0".repeat(64) },
      });
      assertEquals(stale.isError, true);
      assertEquals((stale.structuredContent as { reason: string }).reason, "stale_state");
    } finally {
      await close();
    }
  },
});

Deno.test({
  name: "docs protocol: --docs names the repository, re-read at every call",
  ignore: !canRun,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "nazm-docs-" });
    Deno.copyFileSync(join(REPO, MANIFEST_PATH), join(dir, MANIFEST_PATH));
    Deno.mkdirSync(join(dir, "docs"));
    Deno.writeTextFileSync(join(dir, "docs/goals.md"), "# Goals\n\n## One\n");
    const { client, close } = await connectClient("legacy", [
      "--root",
      EXAMPLE_ROOT,
      "--docs",
      dir,
    ]);
    try {
      const first = await client.callTool({
        name: "nazm.docs_index",
        arguments: { document: "goals" },
      });
      assertEquals(first.structuredContent, docsIndex(dir, { document: "goals" }).value);
      Deno.writeTextFileSync(join(dir, "docs/goals.md"), "# Goals\n\n## One\n\n## Two\n");
      const second = await client.callTool({
        name: "nazm.docs_index",
        arguments: { document: "goals" },
      });
      const ids = (second.structuredContent as unknown as DocsIndex).documents[0].sections
        .map((s) => s.id);
      assertEquals(ids, ["goals", "goals/one", "goals/two"]);
      const unknown = await client.callTool({
        name: "nazm.docs_index",
        arguments: { document: "nope" },
      });
      assertEquals(unknown.isError, true);
      assertValidAgainst("nazm.docs-index-1.json", unknown.structuredContent);
    } finally {
      await close();
    }
  },
});
