/**
 * Type bombs: programs of a few hundred bytes whose types double with every
 * `let` (`let x2 = P { a: x1, b: x1 }`), through records, generic functions,
 * generic enums, function types and lists, with a mismatch that makes the
 * checker render the type, two such types unified, a free variable at the
 * bottom and a match over one. Each is answered by the real server — the
 * diagnostics index, the mismatch in full, the check summary and the snapshot
 * — within 2 s a call, at 26, 40 and 64 lets, in a process whose heap is
 * capped at 512 MiB and whose peak resident memory stays under 512 MiB. A
 * chain 3,000 lets deep is answered too (no step recurses as deep as a type).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { modern, openSession, peakRss, REPO, SERVER_FLAGS, within } from "../support/server.ts";
import { typeBombs } from "../support/type_bombs.ts";

const LIMIT_MS = 2_000;
const LIMIT_BYTES = 512 * 1024 * 1024;

Deno.test("security: type bombs are answered in under 2 s and 512 MiB, at 26, 40 and 64 lets", async () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-type-bomb-" }));
  const root = join(dir, "main.nz");
  Deno.writeTextFileSync(root, "fn main() -> Unit {}\n");
  const s = openSession({
    args: ["--root", root],
    // A heap over the bound is a crash, not a slow pass.
    denoArgs: [
      "run",
      "--v8-flags=--max-old-space-size=512",
      ...SERVER_FLAGS,
      join(REPO, "main.ts"),
      "--root",
      root,
    ],
  });
  let id = 0;
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const started = performance.now();
    await s.send(modern(++id, "tools/call", { name, arguments: args }));
    const answer = await within(20_000, name, s.answer(id));
    return { answer, ms: performance.now() - started };
  };
  const tried: string[] = [];
  const slow: string[] = [];
  let slowest = 0;
  try {
    await call("nazm.diagnostics"); // the worker is up
    for (const n of [26, 40, 64, 3000]) {
      for (const [name, program] of Object.entries(typeBombs(n))) {
        Deno.writeTextFileSync(root, program);
        const label = `${name} at ${n}`;
        tried.push(label);
        const index = await call("nazm.diagnostics");
        const content = (index.answer.result as { structuredContent: Record<string, unknown> })
          ?.structuredContent;
        assert(
          String(content?.schema).startsWith("nazm.diagnostic-index/"),
          `${label}: ${JSON.stringify(index.answer).slice(0, 300)}`,
        );
        const mismatch = (content.diagnostics as { id: string; code: string }[])
          .find((d) => d.code === "N0301");
        assert(mismatch !== undefined, `${label}: the mismatch is reported`);
        const detail = await call("nazm.diagnostic_detail", {
          id: mismatch.id,
          state: (content.state as { source: string }).source,
        });
        const message = (detail.answer.result as { structuredContent: { message: string } })
          .structuredContent.message;
        assert(message.length < 1_000, `${label}: a bounded message (${message.length} chars)`);
        assert(message.includes("…"), `${label}: the type is elided: ${message}`);
        const summary = await call("nazm.command_summary");
        const snapshot = await call("nazm.semantic_snapshot");
        for (
          const [what, r] of [["index", index], ["detail", detail], ["summary", summary], [
            "snapshot",
            snapshot,
          ]] as const
        ) {
          assert(
            (r.answer.result as { content: { text: string }[] }).content.every((c) =>
              !c.text?.startsWith("internal_error")
            ),
            `${label} ${what}`,
          );
          if (n <= 64) {
            slowest = Math.max(slowest, r.ms);
            if (r.ms >= LIMIT_MS) slow.push(`${label} ${what}: ${r.ms.toFixed(0)} ms`);
          }
        }
      }
    }
    const peak = peakRss(s.pid);
    console.log(
      `type bombs: ${tried.length} programs tried, ${
        tried.length - slow.length
      } within 2 s (slowest call ${slowest.toFixed(0)} ms); peak RSS ${
        peak === null ? "unknown" : `${(peak / 2 ** 20).toFixed(0)} MiB`
      }`,
    );
    assertEquals(slow, []);
    if (peak !== null) assert(peak < LIMIT_BYTES, `peak RSS ${peak}`);
    assertEquals((await within(10_000, "exit", s.close())).code, 0);
  } finally {
    s.kill();
    Deno.removeSync(dir, { recursive: true });
  }
});
