/**
 * The fact cache keeps the incremental engine across calls (as the
 * server's worker does): after a body edit on disk, the next fact checks
 * the edited module alone; a plan's verification is incremental over the
 * disk's analysis and leaves it as the engine's last one; and every answer
 * equals the answer computed without the cache.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import {
  compileRoot,
  contextOf,
  newFactCache,
  semanticContext,
  semanticPatch,
} from "../../src/facts/mod.ts";
import { checkRootSyntax } from "../../src/facts/clean.ts";

const LIB =
  `pub fn size(n: Int) -> Int {\n  n + 1\n}\n\npub fn other(n: Int) -> Int {\n  n * 2\n}\n`;
const USE = `import lib\n\npub fn twice(n: Int) -> Int {\n  lib.size(n) + lib.size(n)\n}\n`;
const MAIN =
  `import lib\nimport use\n\nfn main() -> Unit {\n  print(to_string(use.twice(lib.other(1))));\n}\n`;

function program(): { dir: string; config: { root: string; sourceRoot: string } } {
  const dir = Deno.makeTempDirSync();
  Deno.writeTextFileSync(join(dir, "main.nz"), MAIN);
  Deno.writeTextFileSync(join(dir, "lib.nz"), LIB);
  Deno.writeTextFileSync(join(dir, "use.nz"), USE);
  return { dir, config: { root: join(dir, "main.nz"), sourceRoot: dir } };
}

Deno.test("fact cache: the engine is kept across calls; a body edit checks one module", () => {
  const { dir, config } = program();
  try {
    const cache = newFactCache();
    const request = { file: "use.nz", position: { line: 3, column: 8 } };
    // Before any whole analysis, a packet comes from a focus, which leaves the engine alone.
    const focused = semanticContext(config, request, { cache });
    assertEquals(focused.kind, "answer", JSON.stringify(focused));
    assertEquals(cache.engine.state, null);
    assertEquals(
      JSON.stringify(focused),
      JSON.stringify(contextOf(compileRoot(config), request)),
    );
    // The whole analysis, as the server's worker makes it after its first call.
    compileRoot(config, { cache });
    assertEquals(cache.engine.report?.checked, ["lib", "main", "use"]);
    const first = semanticContext(config, request, { cache });
    assertEquals(cache.engine.report?.checked, []);
    assertEquals(JSON.stringify(first), JSON.stringify(focused));
    Deno.writeTextFileSync(join(dir, "lib.nz"), LIB.replace("n + 1", "n + 1 + 0"));
    const second = semanticContext(config, request, { cache });
    assertEquals(cache.engine.report?.checked, ["lib"]);
    assertEquals(JSON.stringify(second), JSON.stringify(semanticContext(config, request)));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("fact cache: a plan's verification is incremental and not kept", () => {
  const { dir, config } = program();
  try {
    const cache = newFactCache();
    compileRoot(config, { cache });
    const kept = cache.engine.state;
    const rename = {
      operation: "rename" as const,
      file: "lib.nz",
      position: { line: 1, column: 13 },
      new_name: "count",
    };
    const plan = semanticPatch(config, rename, { cache });
    assertEquals(plan.kind, "answer", JSON.stringify(plan));
    // Renaming a parameter: the edited module alone is checked again.
    assertEquals(cache.engine.report?.checked, ["lib"]);
    assertEquals(cache.engine.state, kept);
    assertEquals(JSON.stringify(plan), JSON.stringify(semanticPatch(config, rename)));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("fact cache: a syntax check's verdicts are used for the bytes they were made on, and only those", () => {
  const { dir, config } = program();
  try {
    const verdicts = [...checkRootSyntax(config)];
    assertEquals(verdicts.filter((v) => v !== null).length, 3);
    const cache = newFactCache(verdicts.filter((v) => v !== null));
    const request = { file: "use.nz", position: { line: 3, column: 8 } };
    // A focus on `use` reads the bodies of `use` and of `main`, which
    // imports it, parsed in full; `lib` is read from its skim, made when
    // the focus binds it, and no other skim is made.
    const first = semanticContext(config, request, { cache });
    assertEquals(JSON.stringify(first), JSON.stringify(semanticContext(config, request)));
    const paths = (parses: Map<string, unknown>) =>
      [...parses.keys()].map((k) => k.slice(64)).sort();
    assertEquals(paths(cache.skims), ["lib.nz"]);
    assertEquals(paths(cache.parses), ["main.nz", "use.nz"]);
    // lib.nz changes after the check, a syntax error in a body the skim
    // would jump over: its verdict no longer matches, it is parsed, and the
    // compilation refuses as it must.
    Deno.writeTextFileSync(join(dir, "lib.nz"), LIB.replace("n + 1", "n + let"));
    const after = semanticContext(config, request, { cache });
    assertEquals(after.kind, "refusal");
    assertEquals(JSON.stringify(after), JSON.stringify(semanticContext(config, request)));
    assertEquals(
      (after as { value: { reason: string } }).value.reason,
      "syntax_recovery",
    );
    // The whole analysis drops the skims and the verdicts.
    compileRoot(config, { cache });
    assertEquals([cache.skims.size, cache.clean.size], [0, 0]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
