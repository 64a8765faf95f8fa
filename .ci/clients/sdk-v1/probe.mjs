// The MCP TypeScript SDK's v1 client against nazm-mcp over stdio: lists the
// tools, calls each of the eleven (the client validates every structured
// answer against the tool's output schema itself and throws when one does
// not match), then asks for a refusal.
// Prints one JSON object: { version, server, tools, calls, refusal }.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { callEveryTool, serverCommand } from "../calls.mjs";

const version = JSON.parse(
  readFileSync(
    new URL("./node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url),
    "utf8",
  ),
).version;
const server = serverCommand();
const client = new Client({ name: "nazm-ci-sdk-v1", version: "0" });
await client.connect(new StdioClientTransport({ ...server, stderr: "inherit" }));
const { tools } = await client.listTools();
const calls = [];
await callEveryTool(async (name, args) => {
  const result = await client.callTool({ name: published(name), arguments: args });
  calls.push({ name: published(name), ...result });
  return result.structuredContent;
});
const refusal = await client.callTool({
  name: published("nazm.semantic_context"),
  arguments: { file: "main.nz", position: { line: 1, column: 1 } },
});
await client.close();
console.log(JSON.stringify({
  version,
  server: client.getServerVersion(),
  tools: tools.map((tool) => ({ name: tool.name, description: tool.description })),
  calls,
  refusal,
}));

function published(name) {
  return server.args.includes("--tool-names=underscore") ? name.replaceAll(".", "_") : name;
}
