/**
 * The engine keeps its last analysis and nothing older: measured before the
 * fix, a closure in the engine kept every earlier state alive (48 MiB per
 * edit of the 100,000-line program in nazm-mcp's worker and in nazm lsp).
 * Reachability is asked of V8 itself, with WeakRefs after a forced
 * collection, in a process of its own (the gc flag is not the test runner's).
 */
import { assertEquals } from "../support/assert.ts";

Deno.test("engine: after ten edits the first state and its model are garbage", async () => {
  const probe = new URL("./fixtures/engine_leak_probe.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--lock=dev.lock",
      "--frozen",
      "--allow-read",
      "--allow-write",
      "--v8-flags=--expose-gc",
      probe,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, stderr);
  assertEquals(JSON.parse(new TextDecoder().decode(out.stdout)), { state: false, model: false });
});
