/**
 * A cancelled call does not keep the server alive: the SDK never answers a
 * request the client cancelled, so the end of input waits for it no more —
 * the server exits 0 at once, abandoning the cancelled work, in both
 * protocol eras. (Before: still running after 100 s.) A call that was not
 * cancelled is still answered before the exit.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import {
  envelope,
  FIXTURE_ENTRY,
  legacyOpening,
  modern,
  openSession,
  within,
} from "../support/server.ts";

const cancel = (requestId: number, modernEra: boolean) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: {
    requestId,
    reason: "the user pressed escape",
    ...(modernEra ? { _meta: envelope() } : {}),
  },
});

const legacyCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`security: a cancelled call, then end of input: exit 0 at once (${era})`, async () => {
    // A call of 10 s, far within the timeout: before the fix the server
    // waited for it, then for an answer the SDK never gives.
    const s = openSession({ entry: FIXTURE_ENTRY, args: ["--call-timeout-ms", "60000"] });
    try {
      const call = (id: number, args: Record<string, unknown>) =>
        era === "modern"
          ? modern(id, "tools/call", { name: "test.echo", arguments: args })
          : legacyCall(id, "test.echo", args);
      if (era === "legacy") { for (const m of legacyOpening()) await s.send(m); }
      else await s.send(modern(0, "server/discover"));
      await s.send(call(1, { text: "cancelled", ms: 10_000 }));
      await s.send(call(2, { text: "kept" }));
      await s.send(cancel(1, era === "modern"));
      const closed = performance.now();
      const end = await within(15_000, "exit after the cancelled call", s.close());
      const seconds = (performance.now() - closed) / 1000;
      console.log(`cancel then EOF (${era}): exit ${end.code} after ${seconds.toFixed(2)} s`);
      assertEquals(end.code, 0, end.stderr);
      assert(seconds < 8, `exited ${seconds} s after the end of input, before the call's 10 s`);
      assertEquals(end.messages.filter((m) => m.id === 1), [], "a cancelled call is not answered");
      const kept = end.messages.find((m) => m.id === 2);
      assertEquals((kept?.result as { structuredContent?: unknown })?.structuredContent, {
        text: "kept",
      });
    } finally {
      s.kill();
    }
  });
}

Deno.test("security: the real server abandons a cancelled long call at the end of input", async () => {
  // 50,000 functions: a snapshot that takes seconds.
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-cancel-" }));
  const modules = 50;
  for (let m = 0; m < modules; m++) {
    const body = Array.from(
      { length: 1000 },
      (_, f) => `pub fn f${f}(x: Int) -> Int {\n  x + ${f}\n}\n`,
    ).join("\n");
    Deno.writeTextFileSync(join(dir, `m${m}.nz`), body);
  }
  Deno.writeTextFileSync(
    join(dir, "main.nz"),
    Array.from({ length: modules }, (_, m) => `import m${m}\n`).join("") +
      `\nfn main() -> Unit {\n  print(to_string(m0.f0(1)))\n}\n`,
  );
  // The bound is the same call, uncancelled, in a second server started at
  // the same moment on the same machine: a fixed number of seconds fails on
  // a loaded machine and proves nothing on a fast one. A server that awaited
  // the cancelled call could not exit before its twin answers.
  const call = modern(1, "tools/call", { name: "nazm.semantic_snapshot", arguments: {} });
  const twin = openSession({ args: ["--root", join(dir, "main.nz")] });
  const s = openSession({ args: ["--root", join(dir, "main.nz")] });
  try {
    const sent = performance.now();
    await Promise.all([twin.send(call), s.send(call)]);
    await s.send(cancel(1, true));
    const end = await within(60_000, "exit after the cancelled snapshot", s.close());
    const seconds = (performance.now() - sent) / 1000;
    const twinAnswered = await Promise.race([
      twin.answer(1).then(() => true),
      Promise.resolve(false),
    ]);
    console.log(
      `cancelled 50,000-function snapshot then EOF: exit ${end.code} after ${
        seconds.toFixed(2)
      } s; the uncancelled twin had ${twinAnswered ? "" : "not "}answered`,
    );
    assertEquals(end.code, 0, end.stderr);
    assertEquals(end.messages.filter((m) => m.id === 1), [], "a cancelled call is not answered");
    assert(!twinAnswered, "the server exited only after the call it had been told to drop");
  } finally {
    s.kill();
    twin.kill();
    Deno.removeSync(dir, { recursive: true });
  }
});
