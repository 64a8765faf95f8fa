/**
 * A symbolic link inside a root tells nothing about what lies outside it:
 * every link that does not lead to a file inside the root is answered the
 * same way, whether its target exists, is missing, is a folder, a FIFO, a
 * device or a loop, and whether the link is the file itself or a folder on
 * its way. For the source root: the same diagnostics, byte for byte (N0606);
 * for the docs repository: the same availability (`link_outside`). A FIFO
 * target is never waited on.
 */
import { answerOf } from "../support/outcome.ts";
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { docsIndex } from "../../src/docs/mod.ts";
import { loadCompilation } from "../../src/semantics/mod.ts";
import { fileLookup, serializeDiagnostic } from "../../src/semantics/mod.ts";
import { REPO } from "../support/server.ts";

/** Outside targets, each as a pair: one that exists and its missing twin. */
function outsideTargets(outside: string): Record<string, string> {
  Deno.writeTextFileSync(join(outside, "file.nz"), "pub fn one() -> Int { 1 }\n");
  Deno.mkdirSync(join(outside, "folder"));
  Deno.writeTextFileSync(join(outside, "folder", "util.nz"), "pub fn one() -> Int { 1 }\n");
  const fifo = new Deno.Command("mkfifo", { args: [join(outside, "pipe.nz")] }).outputSync();
  assert(fifo.success, "mkfifo");
  return {
    "an existing file": join(outside, "file.nz"),
    "a missing file": join(outside, "missing.nz"),
    "a file in an existing folder": join(outside, "folder", "util.nz"),
    "a file in a missing folder": join(outside, "nowhere", "util.nz"),
    "an existing folder": join(outside, "folder"),
    "a missing folder": join(outside, "gone"),
    "a FIFO": join(outside, "pipe.nz"),
    "a device": "/dev/zero",
    "/etc/passwd": "/etc/passwd",
    "a relative way out": "../../../../../../../../etc/hostname",
  };
}

const MAIN = "import util\n\nfn main() -> Unit {\n  print(to_string(util.one()))\n}\n";
const MAIN_DEEP = "import sub.util\n\nfn main() -> Unit {\n  print(to_string(util.one()))\n}\n";

/** The diagnostics of the compilation of `main` with `util.nz` (or `sub`) replaced by a link. */
function diagnosticsWith(
  base: string,
  name: string,
  target: string,
  linkAt: "util.nz" | "sub",
): string {
  const root = join(base, `root-${name.replaceAll(/\W/g, "_")}-${linkAt}`);
  Deno.mkdirSync(root);
  Deno.writeTextFileSync(join(root, "main.nz"), linkAt === "sub" ? MAIN_DEEP : MAIN);
  Deno.symlinkSync(target, join(root, linkAt));
  const started = performance.now();
  const compilation = loadCompilation(join(root, "main.nz"));
  assert(performance.now() - started < 5_000, `${name}: answered at once`);
  const lookup = fileLookup(compilation);
  return JSON.stringify(compilation.diagnostics.map((d) => serializeDiagnostic(d, lookup)));
}

Deno.test("security: an import that is a link out of the source root is answered alike, whatever is there", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-links-" }));
  const outside = join(base, "outside");
  Deno.mkdirSync(outside);
  try {
    const targets = outsideTargets(outside);
    for (const linkAt of ["util.nz", "sub"] as const) {
      const answers = new Map<string, string[]>();
      for (const [name, target] of Object.entries(targets)) {
        const answer = diagnosticsWith(base, name, target, linkAt);
        answers.set(answer, [...(answers.get(answer) ?? []), name]);
      }
      // A loop, too.
      const loop = join(base, `loop-${linkAt}`);
      Deno.symlinkSync(loop, loop);
      const answer = diagnosticsWith(base, "a loop", loop, linkAt);
      answers.set(answer, [...(answers.get(answer) ?? []), "a loop"]);
      assertEquals(answers.size, 1, `one answer for every link at ${linkAt}: ${[...answers]}`);
      const [only] = answers.keys();
      const codes = JSON.parse(only).map((d: { code: string }) => d.code);
      assert(codes.includes("N0606"), `${linkAt}: ${only}`);
      assert(!codes.includes("N0202"), `${linkAt}: never "unknown module": ${only}`);
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("security: a document that is a link out of the docs repository is answered alike, whatever is there", () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-links-docs-" }));
  const outside = join(base, "outside");
  Deno.mkdirSync(outside);
  try {
    const targets = outsideTargets(outside);
    const seen = new Map<string, string[]>();
    for (const [name, target] of Object.entries(targets)) {
      const docs = join(base, `docs-${name.replaceAll(/\W/g, "_")}`);
      Deno.mkdirSync(join(docs, "docs"), { recursive: true });
      Deno.copyFileSync(join(REPO, "nazm-repo.json"), join(docs, "nazm-repo.json"));
      Deno.symlinkSync(target, join(docs, "docs", "specification.md"));
      const answer = answerOf(docsIndex(docs, { document: "specification" }));
      const { availability, digest, sections } = answer.documents[0];
      const key = JSON.stringify({ availability, digest, sections, state: answer.state });
      // The state differs with the manifest only; it is the same manifest everywhere.
      seen.set(key, [...(seen.get(key) ?? []), name]);
    }
    assertEquals(seen.size, 1, `one answer for every link: ${[...seen]}`);
    assert([...seen.keys()][0].includes('"availability":"link_outside"'));
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
