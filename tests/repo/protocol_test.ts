/**
 * The repository tools through the real server over stdio: the structured
 * content is exactly what the functions answer, refusals are isError results
 * valid against the schema. Needs --allow-run (`deno task test` grants it)
 * and the tools in the server's registry; otherwise reported as ignored.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { connectClient, REPO } from "../support/server.ts";
import { repositoryMap, taskContext } from "../../src/repo/mod.ts";
import type { RepositoryMapAnswer as RepositoryMap } from "../../src/contracts/mod.ts";
import { TOOLS } from "../../src/mcp/registry.ts";

const canRun = (await Deno.permissions.query({ name: "run" })).state === "granted";
const registered = ["nazm.repository_map", "nazm.task_context"]
  .every((name) => TOOLS.some((tool) => tool.name === name));

Deno.test({
  name: "repo protocol: the map and a task context over stdio equal the functions' answers",
  ignore: !canRun || !registered,
  async fn() {
    const { client, close } = await connectClient("modern");
    try {
      const mapResult = await client.callTool({ name: "nazm.repository_map", arguments: {} });
      assertEquals(mapResult.isError ?? false, false);
      assertEquals(mapResult.content, []);
      const map = mapResult.structuredContent as unknown as RepositoryMap;
      assertEquals(map, repositoryMap(REPO).value);

      const request = {
        seeds: ["definition:shapes/geometry.shapes::area", "profile:new-tool"],
        state: map.state,
        intent: "edit" as const,
        budget: { max_items: 10 },
      };
      const contextResult = await client.callTool({
        name: "nazm.task_context",
        arguments: request,
      });
      assertEquals(contextResult.isError ?? false, false);
      assertEquals(contextResult.structuredContent, taskContext(REPO, request).value);

      const refused = await client.callTool({
        name: "nazm.task_context",
        arguments: { seeds: ["/etc/passwd"], state: map.state },
      });
      assertEquals(refused.isError, true);
      assert(
        (refused.structuredContent as { reason: string }).reason === "invalid_request",
        JSON.stringify(refused.structuredContent),
      );
    } finally {
      await close();
    }
  },
});
