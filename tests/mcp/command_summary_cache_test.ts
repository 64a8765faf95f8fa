/**
 * nazm.command_summary runs the check without any cache (seed: "it runs
 * without the check cache, so nothing is written"): its `run`, given a
 * worker context whose cache throws at any touch, still answers, byte for
 * byte what `nazm check --summary-json` computes — while a tool that does use
 * the cache fails on the same context, so the trap is real.
 */
import { join } from "node:path";
import { assertEquals, assertThrows } from "../support/assert.ts";
import { REPO } from "../support/server.ts";
import { compileRoot, type FactCache, summaryOf } from "../../src/facts/mod.ts";
import type { ToolContext } from "../../src/mcp/types.ts";
import { HANDLERS } from "../../src/mcp/handlers.ts";

/** A cache whose every read or write throws. */
function trappedCache(): FactCache {
  const trap = (): never => {
    throw new Error("the cache was touched");
  };
  const handler: ProxyHandler<object> = { get: trap, set: trap, has: trap, ownKeys: trap };
  return {
    files: new Proxy(new Map(), handler) as FactCache["files"],
    memo: new Proxy(new WeakMap(), handler) as FactCache["memo"],
    parses: new Proxy(new Map(), handler) as FactCache["parses"],
    engine: new Proxy({ state: null, report: null }, handler) as FactCache["engine"],
    clean: new Proxy(new Map(), handler) as FactCache["clean"],
    skims: new Proxy(new Map(), handler) as FactCache["skims"],
  };
}

Deno.test("command_summary: runs without the cache, and says what nazm check says", async () => {
  const dir = join(REPO, "examples", "ledger");
  const context: ToolContext = {
    paths: { root: join(dir, "main.nz"), sourceRoot: dir, docsRoot: REPO },
    facts: { cache: trappedCache() },
  };
  const summary = await HANDLERS["nazm.command_summary"]({}, context);
  assertEquals(summary.kind, "answer");
  assertEquals(
    JSON.stringify(summary.value),
    JSON.stringify(summaryOf(compileRoot({ root: context.paths.root, sourceRoot: dir }))),
  );
  // The trap springs for a tool that reuses parses between calls.
  assertThrows(() => HANDLERS["nazm.diagnostics"]({}, context));
});
