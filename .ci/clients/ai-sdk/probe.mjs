// The AI SDK's MCP client (@ai-sdk/mcp) against nazm-mcp over stdio, the way
// an AI SDK application wires it: `client.tools()` gives the tools the model
// is offered; each is executed as the SDK executes a model's tool call, and
// its result is turned into what the model receives by the tool's own
// `toModelOutput` (the library's mcpToModelOutput). Prints one JSON object:
// { version, names, calls: [{ name, result, modelOutput }], refusal }.
import { readFileSync } from "node:fs";
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { callEveryTool, serverCommand } from "../calls.mjs";

const version = JSON.parse(
  readFileSync(new URL("./node_modules/@ai-sdk/mcp/package.json", import.meta.url), "utf8"),
).version;
const server = serverCommand();
const client = await createMCPClient({
  transport: new Experimental_StdioMCPTransport({ ...server, stderr: "inherit" }),
});
const tools = await client.tools();
const names = Object.keys(tools);
// The canonical (dotted) name as this server publishes it.
const published = (name) =>
  names.find((candidate) => candidate === name || candidate === name.replaceAll(".", "_"));
let callId = 0;
async function run(name, args) {
  const tool = tools[published(name)];
  const options = { toolCallId: `call-${++callId}`, messages: [] };
  const result = await tool.execute(args, options);
  const modelOutput = await tool.toModelOutput({
    toolCallId: options.toolCallId,
    input: args,
    output: result,
  });
  return { name: published(name), result, modelOutput };
}
const calls = [];
await callEveryTool(async (name, args) => {
  const call = await run(name, args);
  calls.push(call);
  return call.result.structuredContent;
});
const refusal = await run("nazm.semantic_context", {
  file: "main.nz",
  position: { line: 1, column: 1 },
});
await client.close();
console.log(JSON.stringify({ version, names, calls, refusal }));
