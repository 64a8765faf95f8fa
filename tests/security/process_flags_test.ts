/**
 * The server process holds no permission beyond reading and its one log
 * variable: `deno task mcp`, the tests' spawn flags and every compiled
 * target use exactly the same flags, and nothing grants write, net, run,
 * ffi, sys or other environment variables.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { REPO, SERVER_FLAGS } from "../support/server.ts";
import { compileArgs, includes, RUNTIME_FLAGS, TARGETS } from "../../scripts/compile.ts";
import { join } from "node:path";

const tasks = JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json"))).tasks;

Deno.test("deno task mcp, the tests and deno compile share exactly the server's flags", () => {
  assertEquals(
    tasks.mcp,
    `deno run --lock=server.lock --frozen ${SERVER_FLAGS.join(" ")} main.ts`,
  );
  assertEquals([...RUNTIME_FLAGS], [...SERVER_FLAGS]);
  for (const flag of SERVER_FLAGS) {
    assert(!/--allow-(write|net|run|ffi|sys|all|import)|^-A$/.test(flag), flag);
  }
});

Deno.test("deno compile builds all five targets with the flags and the embedded repository", () => {
  assertEquals([...TARGETS].sort(), [
    "aarch64-apple-darwin",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
    "x86_64-unknown-linux-gnu",
  ]);
  for (const target of TARGETS) {
    const args = compileArgs(target);
    assertEquals(args[0], "compile");
    assertEquals(args.slice(1, 1 + RUNTIME_FLAGS.length), [...RUNTIME_FLAGS]);
    assertEquals(
      args.slice(1 + RUNTIME_FLAGS.length, 3 + RUNTIME_FLAGS.length),
      ["--lock=server.lock", "--frozen"],
      "a binary holds the server's packages alone",
    );
    const included = args.flatMap((arg, i) => args[i - 1] === "--include" ? [arg] : []);
    for (
      const needed of [
        "src/mcp/sandbox.ts",
        "src/mcp/worker.ts",
        "src/mcp/validators",
        "src/docs/mod.ts",
        "src/repo/mod.ts",
        "docs",
        "schema",
        "nazm-repo.json",
      ]
    ) {
      assert(included.includes(needed), `${target} embeds ${needed}`);
    }
    assertEquals(args[args.indexOf("--target") + 1], target);
    assertEquals(args.at(-1), "main.ts");
    assert(
      !args.some((arg) => /--allow-(write|net|run|ffi|sys|all)|^-A$/.test(arg)),
      target,
    );
  }
  for (const path of includes()) {
    assert(Deno.statSync(join(REPO, path)), `${path} exists`);
  }
});
