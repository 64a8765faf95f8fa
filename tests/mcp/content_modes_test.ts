/**
 * How results and tool names are published, mode by mode, proved on whole
 * transcripts of the real server (`deno task mcp` flags):
 *
 * - with no mode flag, the seed's behaviour byte for byte: the transcript is
 *   the committed one (tests/mcp/transcripts/default.json, recorded before
 *   the modes existed; `deno task golden:update` rewrites it after a
 *   reviewed change);
 * - `--text-content=refusals`: a refusal's content is exactly one text block
 *   `reason: message`, an answer's content stays empty, nothing else moves;
 * - `--text-content` (`=all`): every result carries one text block with the
 *   same JSON as its structured content, nothing else moves;
 * - `--tool-names=underscore`: tools/list publishes eleven names matching
 *   `^[a-zA-Z0-9_-]{1,64}$`, no text names a dotted tool, only the published
 *   names are callable, and tools/list and every answer equal the dotted
 *   mode's once names are mapped back.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { checkGolden } from "../support/golden.ts";
import { publishedSchema } from "../support/schema.ts";
import { legacyOpening, modern, type Transcript, transcript } from "../support/server.ts";
import { TOOLS } from "../../src/mcp/mod.ts";

type Message = Record<string, unknown>;
type Result = {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const ROOT = ["--root", "examples/shapes/main.nz"];
const NO_STATE = "0".repeat(64);

/** One call of every kind: answers, refusals of several tools, a protocol error. */
function calls(name: (tool: string) => string): Message[] {
  const call = (id: number, tool: string, args: Message): Message => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: name(tool), arguments: args },
  });
  return [
    { jsonrpc: "2.0", id: 1, method: "tools/list" },
    call(2, "nazm.semantic_context", { file: "main.nz", position: { line: 5, column: 4 } }),
    call(3, "nazm.semantic_context", { file: "main.nz", position: { line: 1, column: 1 } }),
    call(4, "nazm.diagnostics", {}),
    call(5, "nazm.diagnostic_detail", { id: "no-such-id", state: NO_STATE }),
    call(6, "nazm.command_summary", {}),
    call(7, "nazm.semantic_delta", { baseline: "/etc/passwd" }),
    call(8, "nazm.docs_section", { id: "readme", state: NO_STATE }),
    call(9, "nazm.task_context", { seeds: ["/etc/passwd"], state: NO_STATE }),
    call(10, "nazm.no_such_tool", {}),
  ];
}

async function session(args: readonly string[], name = (tool: string) => tool) {
  const t = await transcript([...legacyOpening("2025-11-25", 0), ...calls(name)], {
    args: [...ROOT, ...args],
  });
  assertEquals(t.code, 0, t.stderr);
  return t;
}

function byId(t: Transcript): Map<unknown, Message> {
  return new Map(t.messages.map((message) => [message.id, message]));
}

/**
 * The transcript as data: messages in id order (answers to concurrent calls
 * may come in any order), each tool's output schema replaced by the name of
 * the schema/ file it equals key for key.
 */
function recorded(t: Transcript): Message[] {
  const lines = t.stdout.split("\n").filter((line) => line !== "");
  for (const line of lines) assertEquals(JSON.stringify(JSON.parse(line)), line, "compact JSON");
  const messages = [...t.messages].sort((a, b) => Number(a.id) - Number(b.id));
  return messages.map((message) => {
    const tools = (message.result as { tools?: Message[] } | undefined)?.tools;
    if (!tools) return message;
    const listed = tools.map((tool) => {
      const file = TOOLS.find((candidate) => candidate.name === tool.name)?.outputSchema;
      assert(file, `${tool.name} is a registered tool`);
      assertEquals(
        JSON.stringify(tool.outputSchema),
        JSON.stringify(publishedSchema(file)),
        `${tool.name}'s output schema is schema/${file}, key order included`,
      );
      return { ...tool, outputSchema: `schema/${file}` };
    });
    return { ...message, result: { ...(message.result as Message), tools: listed } };
  });
}

Deno.test("content modes: with no mode flag the transcript is the seed's, byte for byte", async () => {
  const t = await session([]);
  checkGolden("tests/mcp/transcripts/default.session", ".session", recorded(t));
});

Deno.test("content modes: naming the defaults explicitly changes nothing", async () => {
  const [seed, explicit] = await Promise.all([
    session([]),
    session(["--tool-names=dotted"]),
  ]);
  assertEquals(JSON.stringify(recorded(explicit)), JSON.stringify(recorded(seed)));
});

Deno.test("content modes: --text-content=refusals gives a refusal one text block and an answer none", async () => {
  const [seed, refusals] = await Promise.all([session([]), session(["--text-content=refusals"])]);
  const before = byId(seed);
  let answers = 0, refused = 0;
  for (const message of refusals.messages) {
    const expected = before.get(message.id)!;
    const result = message.result as Result | undefined;
    if (result?.structuredContent === undefined) {
      assertEquals(message, expected, `id ${message.id}: not a tool result, unchanged`);
      continue;
    }
    const seedResult = expected.result as Result;
    if (result.isError) {
      refused++;
      const refusal = result.structuredContent as { reason: string; message: string };
      assertEquals(result.content, [{
        type: "text",
        text: `${refusal.reason}: ${refusal.message}`,
      }]);
      assertEquals({ ...result, content: [] }, seedResult, `id ${message.id}: only content moved`);
    } else {
      answers++;
      assertEquals(result.content, []);
      assertEquals(message, expected, `id ${message.id}: an answer is unchanged`);
    }
  }
  assert(answers >= 3 && refused >= 5, `${answers} answers, ${refused} refusals seen`);
});

Deno.test("content modes: --text-content (=all) gives every result one text block of its JSON", async () => {
  const [seed, all, spelled] = await Promise.all([
    session([]),
    session(["--text-content"]),
    session(["--text-content=all"]),
  ]);
  assertEquals(JSON.stringify(recorded(spelled)), JSON.stringify(recorded(all)));
  const before = byId(seed);
  let results = 0;
  for (const message of all.messages) {
    const result = message.result as Result | undefined;
    if (result?.structuredContent === undefined) {
      assertEquals(message, before.get(message.id));
      continue;
    }
    results++;
    assertEquals(result.content, [{
      type: "text",
      text: JSON.stringify(result.structuredContent),
    }]);
    assertEquals({ ...result, content: [] }, before.get(message.id)!.result);
  }
  assertEquals(results, 8);
});

const DOTTED = TOOLS.map((tool) => tool.name);
const underscore = (name: string) => DOTTED.includes(name) ? name.replaceAll(".", "_") : name;

/** JSON text with every underscore tool name mapped back to its dotted name. */
function dottedAgain(value: unknown): string {
  let text = JSON.stringify(value);
  for (const name of DOTTED) text = text.replaceAll(underscore(name), name);
  return text;
}

Deno.test("tool names: --tool-names=underscore publishes valid names, cites only them, and answers as the dotted mode does", async () => {
  const [seed, renamed] = await Promise.all([
    session([]),
    session(["--tool-names=underscore"], underscore),
  ]);
  const listed = (byId(renamed).get(1)!.result as { tools: Message[] }).tools;
  assertEquals(listed.map((tool) => tool.name), DOTTED.map(underscore));
  for (const tool of listed) {
    assert(/^[a-zA-Z0-9_-]{1,64}$/.test(String(tool.name)), String(tool.name));
  }
  const published = JSON.stringify([byId(renamed).get(0), byId(renamed).get(1)]);
  for (const name of DOTTED) {
    assert(!published.includes(name), `the initialize result or tools/list cites ${name}`);
  }
  const before = byId(seed);
  for (const message of renamed.messages) {
    assertEquals(dottedAgain(message), JSON.stringify(before.get(message.id)), `id ${message.id}`);
  }
});

Deno.test("tool names: each mode calls only its own names; the other spelling is -32602", async () => {
  const cross = (id: number, name: string): Message => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: {} },
  });
  const [dotted, renamed] = await Promise.all([
    transcript([...legacyOpening(), cross(1, "nazm_diagnostics"), cross(2, "nazm.diagnostics")], {
      args: ROOT,
    }),
    transcript([
      ...legacyOpening(),
      cross(1, "nazm.diagnostics"),
      cross(2, "nazm_diagnostics"),
      modern(3, "tools/call", { name: "nazm.command_summary", arguments: {} }),
    ], { args: [...ROOT, "--tool-names=underscore"] }),
  ]);
  for (const t of [dotted, renamed]) {
    const refused = byId(t).get(1)!.error as { code: number };
    assertEquals(refused.code, -32602);
    assert((byId(t).get(2)!.result as Result).structuredContent, "the published name answers");
  }
});

Deno.test("tool names: under underscore names, a map's retrieve link names a tool that can be called as it stands", async () => {
  const t = await transcript([
    ...legacyOpening(),
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "nazm_repository_map", arguments: {} },
    },
  ], { args: [...ROOT, "--tool-names=underscore"] });
  const map = (byId(t).get(1)!.result as Result).structuredContent as {
    entities: { retrieve: { tool: string; arguments: Message; state: string | null } | null }[];
  };
  const links = map.entities.flatMap((entity) => entity.retrieve ? [entity.retrieve] : []);
  const tools = new Set(links.map((link) => link.tool));
  assertEquals([...tools].sort(), ["nazm_docs_index", "nazm_docs_section", "nazm_task_context"]);
  const link = links.find((candidate) => candidate.state === null)!;
  const followed = await transcript([
    ...legacyOpening(),
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: link.tool, arguments: link.arguments },
    },
  ], { args: [...ROOT, "--tool-names=underscore"] });
  const result = byId(followed).get(1)!.result as Result;
  assert(result.structuredContent && !result.isError, JSON.stringify(result).slice(0, 500));
});

Deno.test("tool names: a refusal's message cites published names but quotes the caller's input as given", async () => {
  const t = await transcript([
    ...legacyOpening(),
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "nazm_task_context",
        arguments: { seeds: ["nazm.docs_index"], state: NO_STATE },
      },
    },
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "nazm_docs_section", arguments: { id: "readme", state: NO_STATE } },
    },
  ], { args: [...ROOT, "--tool-names=underscore", "--text-content=refusals"] });
  const first = byId(t).get(1)!.result as Result;
  const second = byId(t).get(2)!.result as Result;
  assert(
    String(first.structuredContent!.message).includes('"nazm.docs_index"'),
    first.content[0].text,
  );
  assertEquals(second.structuredContent!.reason, "stale_state");
  assert(second.content[0].text.includes("ask nazm_docs_index"), second.content[0].text);
  assert(!second.content[0].text.includes("nazm.docs_index"), second.content[0].text);
});
