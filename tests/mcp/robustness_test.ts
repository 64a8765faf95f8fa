/**
 * What the server does with a tool that refuses, misbehaves, hangs or kills
 * its worker, and with a slow call in flight when stdin closes. These use the
 * test-only fixture server (fixtures/server.ts): nazm-mcp's own startServer,
 * transport, gate, bridge and worker permissions, with test tools that the
 * production registry never offers.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import {
  answerTo,
  FIXTURE_ENTRY,
  legacyOpening,
  modern,
  openSession,
  transcript,
} from "../support/server.ts";

const call = (id: number, name: string, args: Record<string, unknown> = {}) =>
  modern(id, "tools/call", { name, arguments: args });

Deno.test("a slow call in flight when stdin closes is answered before exit 0", async () => {
  const t = await transcript([
    modern(0, "server/discover"),
    call(1, "test.echo", { text: "slow", ms: 800 }),
    call(2, "test.echo", { text: "fast" }),
  ], { entry: FIXTURE_ENTRY });
  assertEquals(t.code, 0, t.stderr);
  assertEquals(
    (answerTo(t, 1).result as Record<string, unknown>).structuredContent,
    {
      text: "slow",
    },
  );
  assertEquals(
    (answerTo(t, 2).result as Record<string, unknown>).structuredContent,
    {
      text: "fast",
    },
  );
  assert(t.elapsedMs >= 800, "the server waited for the slow call");
});

Deno.test("a worker that cannot load fails the calls waiting for it, once, and serving goes on", async () => {
  // Before, the calls waiting for it were handed to a fresh worker, which
  // failed the same way, for ever: the call never came back.
  const t = await transcript([
    modern(0, "server/discover"),
    call(1, "test.echo", { text: "first" }),
    call(2, "test.echo", { text: "second" }),
    modern(3, "tools/list"),
  ], { entry: FIXTURE_ENTRY, args: ["--broken-worker", "--call-timeout-ms", "60000"] });
  assertEquals(t.code, 0, t.stderr);
  for (const id of [1, 2]) {
    const result = answerTo(t, id).result as Record<string, unknown>;
    assertEquals(result.isError, true, `id ${id}`);
    assertStringIncludes(JSON.stringify(result), "cannot load (a test)");
  }
  assert(answerTo(t, 3).result !== undefined, "tools/list is answered");
  assert(t.elapsedMs < 30_000, `answered in ${t.elapsedMs} ms`);
});

Deno.test("a refusal is isError with its structured refusal", async () => {
  const t = await transcript([
    modern(0, "server/discover"),
    call(1, "test.refuse"),
  ], {
    entry: FIXTURE_ENTRY,
  });
  const result = answerTo(t, 1).result as Record<string, unknown>;
  assertEquals(result.isError, true);
  assertEquals(result.content, []);
  assertEquals(result.structuredContent, {
    status: "refused",
    reason: "not_found",
    message: "Nothing here",
  });
});

Deno.test("bugs in a tool are internal_error results; the server goes on", async () => {
  const t = await transcript([
    ...legacyOpening("2025-11-25", 0),
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "test.throw", arguments: {} },
    },
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "test.bad_refusal", arguments: {} },
    },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "test.bad_answer", arguments: {} },
    },
    {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "test.echo", arguments: { text: "after" } },
    },
  ], { entry: FIXTURE_ENTRY });
  assertEquals(t.code, 0, t.stderr);
  for (const id of [1, 2, 3]) {
    const result = answerTo(t, id).result as Record<string, unknown>;
    assertEquals(result.isError, true, `id ${id}`);
    assertEquals(result.structuredContent, undefined, `id ${id}`);
    const text = (result.content as { text: string }[])[0].text;
    assertStringIncludes(text, "internal_error");
  }
  assertStringIncludes(JSON.stringify(answerTo(t, 1)), "deliberate failure");
  assertEquals(
    (answerTo(t, 4).result as Record<string, unknown>).structuredContent,
    {
      text: "after",
    },
  );
  assertStringIncludes(
    t.stderr,
    "deliberate failure",
    "the bug is logged to stderr",
  );
});

Deno.test("a hung worker is replaced after the call timeout; a call queued behind it is not lost", async () => {
  // 10 s rather than the fixture's 3: the queued call's own time includes
  // starting the fresh worker, which on a loaded machine took longer than 3 s.
  const session = openSession({ entry: FIXTURE_ENTRY, args: ["--call-timeout-ms", "10000"] });
  await session.send(modern(0, "server/discover"));
  await session.send(call(1, "test.hang"));
  await session.send(call(2, "test.echo", { text: "queued behind the hang" }));
  const hung = (await session.answer(1)).result as Record<string, unknown>;
  assertEquals(hung.isError, true);
  assertStringIncludes(JSON.stringify(hung), "did not finish");
  // The queued call had not begun: a fresh worker answers it.
  const queued = (await session.answer(2)).result as Record<string, unknown>;
  assertEquals(queued.structuredContent, { text: "queued behind the hang" });
  await session.send(call(3, "test.echo", { text: "fresh worker" }));
  const fresh = (await session.answer(3)).result as Record<string, unknown>;
  assertEquals(fresh.structuredContent, { text: "fresh worker" });
  const end = await session.close();
  assertEquals(end.code, 0, end.stderr);
  assertStringIncludes(end.stderr, "restarted");
});

Deno.test("a worker killed by an uncaught error is replaced; the next call is served", async () => {
  const session = openSession({ entry: FIXTURE_ENTRY });
  await session.send(modern(0, "server/discover"));
  await session.send(call(1, "test.crash"));
  const crashed = (await session.answer(1)).result as Record<string, unknown>;
  assertEquals(crashed.isError, true);
  assertStringIncludes(JSON.stringify(crashed), "uncaught in the worker");
  await session.send(call(2, "test.echo", { text: "fresh worker" }));
  const fresh = (await session.answer(2)).result as Record<string, unknown>;
  assertEquals(fresh.structuredContent, { text: "fresh worker" });
  const end = await session.close();
  assertEquals(end.code, 0, end.stderr);
});
