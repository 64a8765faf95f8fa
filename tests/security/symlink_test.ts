/**
 * A symbolic link inside the source root that leads out of it is never
 * followed: Deno's read permission checks the path as given, so the
 * loader checks real paths itself (src/base/files.ts), and a `file`
 * argument naming the link is refused unopened.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { semanticContext } from "../../src/facts/mod.ts";
import { loadCompilation } from "../../src/semantics/mod.ts";

function fixture() {
  const outside = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-outside-" }));
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-root-" }));
  Deno.writeTextFileSync(join(outside, "secret.nz"), "pub fn secret() -> Int {\n  42\n}\n");
  Deno.writeTextFileSync(
    join(root, "main.nz"),
    "import leak\n\nfn main() -> Int {\n  leak.secret()\n}\n",
  );
  Deno.symlinkSync(join(outside, "secret.nz"), join(root, "leak.nz"));
  Deno.symlinkSync(join(outside, "secret.nz"), join(root, "alias.nz"));
  return {
    root,
    outside,
    dispose() {
      Deno.removeSync(root, { recursive: true });
      Deno.removeSync(outside, { recursive: true });
    },
  };
}

Deno.test("security: an import through a link out of the source root is not read", () => {
  const f = fixture();
  try {
    const compilation = loadCompilation(join(f.root, "main.nz"));
    assertEquals(compilation.files.map((file) => file.path), ["main.nz"]);
    const unreadable = compilation.diagnostics.find((d) => d.code === "N0606");
    assert(unreadable !== undefined, "a diagnostic names the unreadable module");
    assertEquals(unreadable.file, "leak.nz");
    assert(!JSON.stringify(compilation.diagnostics).includes("42"));
  } finally {
    f.dispose();
  }
});

Deno.test("security: a file argument naming a link out of the root is refused unopened", () => {
  const f = fixture();
  try {
    const config = { root: join(f.root, "main.nz"), sourceRoot: f.root };
    for (
      const file of ["alias.nz", join(f.root, "alias.nz"), "leak.nz", join(f.outside, "secret.nz")]
    ) {
      const outcome = semanticContext(config, { file, position: { line: 1, column: 8 } });
      assertEquals(
        outcome.kind === "refusal" && outcome.value.reason,
        "file_not_in_compilation",
        file,
      );
    }
  } finally {
    f.dispose();
  }
});

Deno.test("security: a root reached through a link is named by its real path", () => {
  const f = fixture();
  try {
    const link = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-link-" }));
    Deno.removeSync(link);
    Deno.symlinkSync(f.root, link);
    try {
      const compilation = loadCompilation(join(link, "main.nz"));
      assertEquals(compilation.sourceRoot, f.root);
      assertEquals(compilation.root, "main.nz");
    } finally {
      Deno.removeSync(link);
    }
  } finally {
    f.dispose();
  }
});
