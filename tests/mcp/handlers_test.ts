/**
 * A tool is two halves under one name (src/mcp/handlers.ts): every tool the
 * main thread publishes has a handler in the worker, and no handler is left
 * without its tool.
 */
import { assertEquals } from "../support/assert.ts";
import { HANDLERS } from "../../src/mcp/handlers.ts";
import { TOOLS } from "../../src/mcp/registry.ts";

Deno.test("handlers: one handler for each published tool, under the same name", () => {
  assertEquals(Object.keys(HANDLERS).sort(), TOOLS.map((tool) => tool.name).sort());
});
