/**
 * Stand-ins for the model APIs that agent clients call, so that a test can
 * see exactly what a client hands its model: the tool list it offers and the
 * tool result it sends back. Each stand-in answers the first turn with one
 * call of the tool whose name ends with `tool` (the client's own published
 * name, whatever prefix it adds), and every later turn with a short text.
 * Nothing here is a model: it only records.
 *
 * @module
 */

/** What a client sent to its "model". */
export interface Seen {
  /** The tool names offered in the first request. */
  tools: string[];
  /** The tool results sent back, as the API carries them. */
  results: unknown[];
}

/** A running stand-in. */
export interface FakeModel {
  readonly url: string;
  readonly seen: Seen;
  close(): Promise<void>;
}

function serve(handle: (request: Request, body: unknown) => Response): FakeModel {
  const seen: Seen = { tools: [], results: [] };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const body = request.method === "POST" ? await request.json().catch(() => null) : null;
    return handle(request, body);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    close: () => server.shutdown(),
  };
}

function sse(events: readonly (readonly [string | undefined, unknown])[]): Response {
  const text = events.map(([event, data]) =>
    `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`
  ).join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

/** The Anthropic Messages API (Claude Code: ANTHROPIC_BASE_URL), streaming. */
export function fakeAnthropic(tool: string, args: Record<string, unknown>): FakeModel {
  type Part = { type?: string; name?: string; id?: string; tool_use_id?: string };
  // Each request is judged by its own conversation, never by state kept
  // here: a client sends side requests (titles, checks) between turns.
  const model: FakeModel = serve((request, body) => {
    const path = new URL(request.url).pathname;
    const messages = (body as { messages?: { role: string; content: unknown }[] } | null)?.messages;
    if (!path.startsWith("/v1/messages") || path.includes("count_tokens") || !messages) {
      return Response.json({ input_tokens: 1 });
    }
    const tools = ((body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
    const parts = (message: { content: unknown } | undefined): Part[] =>
      Array.isArray(message?.content) ? message.content as Part[] : [];
    const asked = messages.flatMap((message) =>
      message.role === "assistant" ? parts(message).filter((part) => part.type === "tool_use") : []
    );
    const wanted = tools.find((name) => name.endsWith(tool));
    const askedForWanted = new Set(
      asked.filter((part) => part.name === wanted).map((part) => part.id),
    );
    // Claude Code merges turns and may append a system message: look at every user message.
    const answers = messages.flatMap((message) =>
      message.role === "user"
        ? parts(message).filter((part) =>
          part.type === "tool_result" && askedForWanted.has(part.tool_use_id)
        )
        : []
    );
    // Until the servers connect, Claude Code offers a tool that waits for them; use it, a few times.
    const waited = asked.filter((part) => part.name === "WaitForMcpServers").length;
    let call: { name: string; input: unknown } | undefined;
    if (answers.length > 0) {
      const recorded = new Set(model.seen.results.map((part) => (part as Part).tool_use_id));
      model.seen.results.push(...answers.filter((part) => !recorded.has(part.tool_use_id)));
    } else if (wanted !== undefined && askedForWanted.size === 0) {
      model.seen.tools.splice(0, model.seen.tools.length, ...tools);
      call = { name: wanted, input: args };
    } else if (wanted === undefined && tools.includes("WaitForMcpServers") && waited < 5) {
      model.seen.tools.splice(0, model.seen.tools.length, ...tools);
      call = { name: "WaitForMcpServers", input: { servers: ["nazm"] } };
    }
    const block = call === undefined
      ? [
        ["content_block_start", {
          type: "content_block_start",
          index: 0,
          content_block: { type: "text", text: "" },
        }],
        ["content_block_delta", {
          type: "content_block_delta",
          index: 0,
          delta: { type: "text_delta", text: "done" },
        }],
      ] as const
      : [
        ["content_block_start", {
          type: "content_block_start",
          index: 0,
          content_block: {
            type: "tool_use",
            id: `toolu_${asked.length + 1}`,
            name: call.name,
            input: {},
          },
        }],
        ["content_block_delta", {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) },
        }],
      ] as const;
    return sse([
      ["message_start", {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "stand-in",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      }],
      ...block,
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ["message_delta", {
        type: "message_delta",
        delta: { stop_reason: call === undefined ? "end_turn" : "tool_use", stop_sequence: null },
        usage: { output_tokens: 1 },
      }],
      ["message_stop", { type: "message_stop" }],
    ]);
  });
  return model;
}

/** The Gemini API (Gemini CLI: GOOGLE_GEMINI_BASE_URL), streaming. */
export function fakeGemini(tool: string, args: Record<string, unknown>): FakeModel {
  const model: FakeModel = serve((request, body) => {
    const path = new URL(request.url).pathname;
    const request_ = body as {
      contents?: { parts?: { functionResponse?: unknown }[] }[];
      tools?: { functionDeclarations?: { name: string }[] }[];
    } | null;
    if (!path.includes(":") || !request_?.contents) return Response.json({ totalTokens: 1 });
    const tools = (request_.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((f) =>
      f.name
    );
    const results = (request_.contents.at(-1)?.parts ?? []).flatMap((part) =>
      part.functionResponse ? [part.functionResponse] : []
    );
    // Gemini CLI keeps a dotted name's dots; a prefix names the server.
    const wanted = tools.find((name) => name.replaceAll(".", "_").endsWith(tool));
    const structured = (body as { generationConfig?: { responseMimeType?: string } })
      .generationConfig?.responseMimeType === "application/json";
    let parts: unknown[];
    if (structured) {
      // A routing or classifying side request: an empty object, and the client goes on.
      parts = [{ text: "{}" }];
    } else if (results.length > 0 || wanted === undefined) {
      model.seen.results.push(...results);
      parts = [{ text: "done" }];
    } else {
      if (model.seen.tools.length === 0) model.seen.tools.push(...tools);
      parts = [{ functionCall: { name: wanted, args } }];
    }
    const chunk = {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    };
    return path.includes("streamGenerateContent")
      ? sse([[undefined, chunk]])
      : Response.json(chunk);
  });
  return model;
}
