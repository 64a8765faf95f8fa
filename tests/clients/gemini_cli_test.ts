/**
 * Gemini CLI (`@google/gemini-cli`), offline and without an account, with
 * the server in a project's `.gemini/settings.json` (the folder trusted):
 *
 * - `gemini mcp list`: it connects (Gemini CLI gives a server about 5 s and
 *   a reduced environment: the server's packages must be cached, which
 *   `deno task setup` does; here the test's own cache is passed);
 * - what its model receives, seen by a stand-in for the Gemini API
 *   (GOOGLE_GEMINI_BASE_URL) that asks for one nazm tool call: Gemini CLI
 *   reads only `content`, so with the seed's default an answer reaches the
 *   model empty, and with `--text-content` as its JSON.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { EXAMPLE_ROOT } from "../support/server.ts";
import { TOOLS } from "../../src/mcp/mod.ts";
import { fakeGemini } from "./_fake_models.ts";
import { clientHome, clientTest, denoDir, runClient, serverSpec } from "./_clients.ts";

const GEMINI = { folder: "gemini-cli", npm: "@google/gemini-cli" };

/** A fresh HOME whose project configures the server as the README says, trusted. */
async function configure(flags: readonly string[]) {
  const { home, project } = await clientHome();
  const server = serverSpec(["--root", EXAMPLE_ROOT, ...flags]);
  await Deno.mkdir(`${project}/.gemini`);
  await Deno.writeTextFile(
    `${project}/.gemini/settings.json`,
    JSON.stringify({
      mcpServers: {
        nazm: {
          command: server.command,
          args: server.args,
          env: { DENO_NO_UPDATE_CHECK: "1", DENO_DIR: denoDir() },
          trust: true,
        },
      },
    }),
  );
  await Deno.mkdir(`${home}/.gemini`);
  await Deno.writeTextFile(
    `${home}/.gemini/trustedFolders.json`,
    JSON.stringify({ [project]: "TRUST_FOLDER" }),
  );
  // An API key (the stand-in's), and no telemetry or update check.
  await Deno.writeTextFile(
    `${home}/.gemini/settings.json`,
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    }),
  );
  return { home, project };
}

clientTest(GEMINI, "gemini mcp list: the server connects", async () => {
  const { home, project } = await configure(["--tool-names=underscore", "--text-content"]);
  try {
    const listed = await runClient(GEMINI, "gemini", ["mcp", "list"], {
      cwd: project,
      env: { HOME: home },
    });
    assertEquals(listed.code, 0, listed.stderr);
    assertMatch(listed.stdout + listed.stderr, /✓ nazm: .* - Connected/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

async function modelTurn(flags: readonly string[]) {
  const { home, project } = await configure(flags);
  const model = fakeGemini("nazm_semantic_context", {
    file: "main.nz",
    position: { line: 5, column: 4 },
  });
  try {
    const run = await runClient(GEMINI, "gemini", ["-p", "use nazm", "--yolo", "-o", "json"], {
      cwd: project,
      env: { HOME: home, GEMINI_API_KEY: "stand-in", GOOGLE_GEMINI_BASE_URL: model.url },
    });
    assertEquals(model.seen.results.length, 1, `${run.stdout}\n${run.stderr}`);
    return {
      tools: model.seen.tools,
      result: model.seen.results[0] as { name: string; response: unknown },
    };
  } finally {
    await model.close();
    await Deno.remove(home, { recursive: true });
  }
}

clientTest(
  GEMINI,
  "the model receives {} for an answer by default and its JSON with --text-content",
  async () => {
    const [seed, text] = await Promise.all([modelTurn([]), modelTurn(["--text-content"])]);
    // Gemini CLI keeps the dots (the Gemini API accepts them) behind its own prefix.
    assertEquals(
      seed.tools.filter((name) => name.startsWith("mcp_nazm_")).sort(),
      TOOLS.map((tool) => `mcp_nazm_${tool.name}`).sort(),
    );
    assertEquals(seed.result.response, {});
    const output = (text.result.response as { output: string }).output;
    // It wraps a tool's text as untrusted context; inside is the answer's JSON.
    assert(output.startsWith("<untrusted_context>"), output.slice(0, 100));
    const packet = JSON.parse(output.slice(output.indexOf("{"), output.lastIndexOf("}") + 1));
    assertEquals(packet.schema, "nazm.context/4");
    assertEquals(packet.target.name, "describe");
  },
);
