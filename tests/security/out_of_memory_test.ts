/**
 * An analysis that runs out of memory does not take the server with it: it
 * runs in a node:worker_threads worker with a capped heap inside the
 * permission sandbox (src/mcp/sandbox.ts), so it alone stops; its call is an
 * `internal_error` naming the limit, a call queued behind it is answered by
 * a fresh worker, and the process goes on and exits 0 (before: "Fatal
 * JavaScript out of memory", exit 133, every call lost). Driven with the
 * fixture server's `test.hog` and a 64 MiB heap, so that it takes a second.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { FIXTURE_ENTRY, modern, openSession, peakRss, within } from "../support/server.ts";

const call = (id: number, name: string, args: Record<string, unknown> = {}) =>
  modern(id, "tools/call", { name, arguments: args });

Deno.test("security: an analysis out of memory is an internal_error; the server serves on", async () => {
  const s = openSession({
    entry: FIXTURE_ENTRY,
    args: ["--heap-mb", "64", "--call-timeout-ms", "60000"],
  });
  try {
    await s.send(modern(0, "server/discover"));
    await s.send(call(1, "test.hog"));
    await s.send(call(2, "test.echo", { text: "queued behind it" }));
    const hog = await within(30_000, "test.hog", s.answer(1));
    const queued = await within(30_000, "test.echo", s.answer(2));
    const result = hog.result as { isError: boolean; content: { text: string }[] };
    assertEquals(result.isError, true);
    assertStringIncludes(result.content[0].text, "ran out of memory (its limit is 64 MiB)");
    assertEquals((queued.result as { structuredContent: unknown }).structuredContent, {
      text: "queued behind it",
    });
    await s.send(call(3, "test.echo", { text: "after" }));
    const after = await within(30_000, "test.echo after", s.answer(3));
    assertEquals((after.result as { structuredContent: unknown }).structuredContent, {
      text: "after",
    });
    const peak = peakRss(s.pid);
    console.log(
      `out of memory: contained; peak RSS ${
        peak === null ? "unknown" : `${(peak / 2 ** 20).toFixed(0)} MiB`
      }`,
    );
    if (peak !== null) assert(peak < 1024 * 2 ** 20, `peak ${peak}`);
    const end = await within(10_000, "exit", s.close());
    assertEquals(end.code, 0, end.stderr);
  } finally {
    s.kill();
  }
});
