/**
 * Claude Code (`@anthropic-ai/claude-code`), offline and without an account:
 *
 * - `claude mcp add nazm … -- <the README's checkout command>` then
 *   `claude mcp list`: its health check connects;
 * - what its model receives, seen by a stand-in for the Messages API
 *   (ANTHROPIC_BASE_URL) that asks for one nazm tool call: the tool names
 *   it is offered (`mcp__nazm__nazm_semantic_context`: Claude Code renames a
 *   dotted name itself), an answer's JSON (it reads structuredContent), and
 *   a refusal: "Unknown error" with the seed's default, `reason: message`
 *   with `--text-content=refusals`.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { EXAMPLE_ROOT } from "../support/server.ts";
import { TOOLS } from "../../src/mcp/mod.ts";
import { fakeAnthropic } from "./_fake_models.ts";
import { clientHome, clientTest, denoDir, runClient, serverSpec } from "./_clients.ts";

const CLAUDE = { folder: "claude-code", npm: "@anthropic-ai/claude-code" };
const QUIET = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_AUTOUPDATER: "1",
  DISABLE_TELEMETRY: "1",
  // How long it waits for a server to connect before the first turn: a
  // loaded machine needs more than the default.
  MCP_TIMEOUT: "60000",
  MCP_CONNECT_TIMEOUT_MS: "60000",
};

/** `claude mcp add` in a fresh HOME, with the server started as the README's checkout configuration does. */
async function addServer(flags: readonly string[]) {
  const { home, project } = await clientHome();
  const server = serverSpec(["--root", EXAMPLE_ROOT, ...flags]);
  const added = await runClient(CLAUDE, "claude", [
    "mcp",
    "add",
    "nazm",
    "-e",
    "DENO_NO_UPDATE_CHECK=1",
    "-e",
    `DENO_DIR=${denoDir()}`,
    "--",
    server.command,
    ...server.args,
  ], { cwd: project, env: { HOME: home, ...QUIET } });
  assertEquals(added.code, 0, added.stderr);
  return { home, project };
}

/** One `claude -p` turn whose stand-in model calls `tool` with `args`; what the model was sent. */
async function modelTurn(flags: readonly string[], tool: string, args: Record<string, unknown>) {
  const { home, project } = await addServer(flags);
  const model = fakeAnthropic(tool, args);
  try {
    const run = await runClient(
      CLAUDE,
      "claude",
      ["-p", "use nazm", "--allowedTools", "mcp__nazm", "--output-format", "json"],
      {
        cwd: project,
        env: {
          HOME: home,
          ANTHROPIC_BASE_URL: model.url,
          ANTHROPIC_API_KEY: "sk-stand-in",
          ...QUIET,
        },
        timeoutMs: 120_000,
      },
    );
    assertEquals(run.code, 0, `exit ${run.code}\n${run.stdout}\n${run.stderr}`);
    assert(
      model.seen.tools.some((name) => name.startsWith("mcp__nazm__")),
      `Claude Code offered its model no nazm tool: ${model.seen.tools.join(", ")}\n${run.stderr}`,
    );
    assertEquals(model.seen.results.length, 1, run.stdout);
    return {
      tools: model.seen.tools,
      result: model.seen.results[0] as { content: unknown; is_error?: boolean },
    };
  } finally {
    await model.close();
    await Deno.remove(home, { recursive: true });
  }
}

const CONTEXT_ARGS = { file: "main.nz", position: { line: 5, column: 4 } };
const NO_DEFINITION = { file: "main.nz", position: { line: 1, column: 1 } };

clientTest(CLAUDE, "claude mcp list: the health check connects", async () => {
  const { home, project } = await addServer(["--text-content=refusals"]);
  try {
    const listed = await runClient(CLAUDE, "claude", ["mcp", "list"], {
      cwd: project,
      env: { HOME: home, ...QUIET },
    });
    assertEquals(listed.code, 0, listed.stderr);
    assertMatch(listed.stdout, /nazm: .*main\.ts --root .* - ✔ Connected/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

clientTest(
  CLAUDE,
  "the model is offered mcp__nazm__nazm_* and receives an answer's JSON",
  async () => {
    const { tools, result } = await modelTurn([], "nazm_semantic_context", CONTEXT_ARGS);
    assertEquals(
      tools.filter((name) => name.startsWith("mcp__nazm__")).sort(),
      TOOLS.map((tool) => `mcp__nazm__${tool.name.replaceAll(".", "_")}`).sort(),
    );
    assert(result.is_error !== true);
    const packet = JSON.parse(result.content as string);
    assertEquals(packet.schema, "nazm.context/4");
    assertEquals(packet.target.name, "describe");
  },
);

clientTest(
  CLAUDE,
  "a refusal reaches the model as 'Unknown error' by default, as its reason with --text-content=refusals",
  async () => {
    const [seed, refusals] = await Promise.all([
      modelTurn([], "nazm_semantic_context", NO_DEFINITION),
      modelTurn(["--text-content=refusals"], "nazm_semantic_context", NO_DEFINITION),
    ]);
    assertEquals(seed.result.is_error, true);
    assertEquals(seed.result.content, "Unknown error");
    assertEquals(refusals.result.is_error, true);
    assertEquals(
      refusals.result.content,
      "no_definition: no function, record or enum is declared or used at that position",
    );
  },
);
