/**
 * The symlink swap race: while a separate process swaps a file inside a root
 * between a regular file and a symbolic link to a file outside it, as fast as
 * it can, the real server answers thousands of pipelined calls that read that
 * file. No answer may carry a byte of the outside file: what is read must be
 * the file that was checked (src/base/files.ts). Each answer is either the
 * inside file's or a refusal naming the link; the test also checks that both
 * happened, so that the race was real.
 *
 * 5,000 `nazm.semantic_context` calls for the source root and 2,000
 * `nazm.docs_index` calls for the docs repository, through one spawned server
 * each (about 0.5 ms a call when the machine is idle).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { modern, REPO, transcript } from "../support/server.ts";
import { newKnownFiles, newReadSession, readConfined } from "../../src/base/mod.ts";

const OUTSIDE_MARK = "OUTSIDE-SECRET-5b1e";

interface Race {
  /** Every answer's structuredContent (or error), one per call. */
  readonly answers: readonly Record<string, unknown>[];
  readonly stdout: string;
  readonly swaps: number;
}

async function race(
  swapped: string,
  insideBytes: string,
  outsideFile: string,
  serverArgs: string[],
  calls: Record<string, unknown>[],
): Promise<Race> {
  const insideCopy = `${swapped}.inside`;
  Deno.writeTextFileSync(insideCopy, insideBytes);
  const swapper = startSwapper(["file", swapped, insideCopy, outsideFile]);
  try {
    // Let the swapper start swapping before the calls begin.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const t = await transcript(calls, { args: serverArgs });
    assertEquals(t.code, 0, t.stderr);
    return {
      answers: t.messages.map((m) => (m.result ?? m.error) as Record<string, unknown>),
      stdout: t.stdout,
      swaps: await stopSwapper(swapper),
    };
  } catch (error) {
    await stopSwapper(swapper);
    throw error;
  }
}

/** Starts tests/security/swapper.ts with `args`, swapping until its stdin closes. */
/**
 * A temporary folder holding `root/sub/swap.nz` (the inside file, `inside`)
 * and `outside/swap.nz`, for the folder-swap races; the caller links
 * `root/link` to `outside` when its files are ready.
 */
function folderSwapFixture(prefix: string, inside: string) {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  Deno.mkdirSync(join(root, "sub"), { recursive: true });
  Deno.mkdirSync(outside);
  const file = join(root, "sub", "swap.nz");
  Deno.writeTextFileSync(file, inside);
  return { base, root, outside, file, outsideFile: join(outside, "swap.nz") };
}

function startSwapper(args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      // The exchange mode calls renameat2 through libc.
      ...(args[0] === "exchange" ? ["--allow-ffi"] : []),
      join(REPO, "tests", "security", "swapper.ts"),
      ...args,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

async function stopSwapper(swapper: Deno.ChildProcess): Promise<number> {
  await swapper.stdin.close().catch(() => {});
  const out = await swapper.output();
  return Number(new TextDecoder().decode(out.stdout).trim());
}

function tally(answers: readonly Record<string, unknown>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const content = a.structuredContent as Record<string, unknown> | undefined;
    const kind = JSON.stringify(a).includes(OUTSIDE_MARK)
      ? "LEAKED"
      : content === undefined
      ? `error ${JSON.stringify(a).slice(0, 120)}`
      : a.isError
      ? `refused ${content.reason}`
      : "answered";
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

Deno.test("security: 5,000 semantic_context calls against a file swapped with an outside link leak nothing", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-swap-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  Deno.mkdirSync(root);
  Deno.mkdirSync(outside);
  try {
    Deno.writeTextFileSync(
      join(root, "main.nz"),
      "import swap\n\nfn main() -> Unit {\n  print(to_string(swap.value()))\n}\n",
    );
    const inside = "pub fn value() -> Int {\n  1\n}\n";
    Deno.writeTextFileSync(join(root, "swap.nz"), inside);
    const outsideFile = join(outside, "secret.nz");
    Deno.writeTextFileSync(outsideFile, `pub fn value() -> Int {\n  7 // ${OUTSIDE_MARK}\n}\n`);
    const calls = Array.from({ length: 5000 }, (_, i) =>
      modern(i + 1, "tools/call", {
        name: "nazm.semantic_context",
        arguments: { file: "swap.nz", position: { line: 1, column: 8 } },
      }));
    const r = await race(join(root, "swap.nz"), inside, outsideFile, [
      "--root",
      join(root, "main.nz"),
    ], calls);
    const counts = tally(r.answers);
    console.log(`source swap race: ${r.swaps} swaps, ${JSON.stringify(counts)}`);
    assertEquals(r.answers.length, 5000);
    assert(!r.stdout.includes(OUTSIDE_MARK), `outside bytes leaked: ${JSON.stringify(counts)}`);
    const leaks = r.answers.filter((a) => JSON.stringify(a).includes("7 //")).length;
    assertEquals(leaks, 0);
    // Every answer is the inside file's, or a refusal because the link (or a
    // file that kept changing) was not read; both happened, so the race was real.
    assertEquals(
      Object.keys(counts).sort(),
      ["answered", "refused file_not_in_compilation"],
    );
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("security: 2,000 docs_index calls against a document swapped with an outside link leak nothing", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-swap-docs-" }));
  const docs = join(base, "repo");
  const outside = join(base, "outside");
  Deno.mkdirSync(join(docs, "docs"), { recursive: true });
  Deno.mkdirSync(outside);
  try {
    Deno.copyFileSync(join(REPO, "nazm-repo.json"), join(docs, "nazm-repo.json"));
    const inside = "# The Nazm language specification\n\n## Inside\n\nText.\n";
    const swapped = join(docs, "docs", "specification.md");
    Deno.writeTextFileSync(swapped, inside);
    const outsideFile = join(outside, "secret.md");
    Deno.writeTextFileSync(outsideFile, `# Secret\n\n## ${OUTSIDE_MARK}\n\nText.\n`);
    const calls = Array.from({ length: 2000 }, (_, i) =>
      modern(i + 1, "tools/call", {
        name: "nazm.docs_index",
        arguments: { document: "specification" },
      }));
    const r = await race(swapped, inside, outsideFile, [
      "--root",
      join(REPO, "examples", "shapes", "main.nz"),
      "--docs",
      docs,
    ], calls);
    const availability = new Map<string, number>();
    for (const a of r.answers) {
      const content = a.structuredContent as { documents?: { availability: string }[] };
      const key = JSON.stringify(a).includes(OUTSIDE_MARK)
        ? "LEAKED"
        : content?.documents?.[0]?.availability ?? JSON.stringify(a).slice(0, 120);
      availability.set(key, (availability.get(key) ?? 0) + 1);
    }
    console.log(`docs swap race: ${r.swaps} swaps, ${JSON.stringify([...availability])}`);
    assertEquals(r.answers.length, 2000);
    assert(
      !r.stdout.includes(OUTSIDE_MARK),
      `outside bytes leaked: ${JSON.stringify([...availability])}`,
    );
    // Every answer lists the inside document, or names the link it did not
    // follow, or (rarely) says the file kept changing while it was read.
    const seen = [...availability.keys()];
    assert(seen.every((key) => ["present", "link_outside", "unreadable"].includes(key)), `${seen}`);
    assert(seen.includes("present") && seen.includes("link_outside"), `the race was real: ${seen}`);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test({
  name:
    "security: reads under a folder swapped with an outside link, atomically and non-stop, leak nothing",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // A folder on the way, not the file, is what trades places with a link
    // here: `lstat` of the file's path then follows the link, so only the
    // folders' change times catch it (src/base/files.ts). Driven in-process
    // through the confined read itself, for three seconds, a new session
    // (one call's worth of reads) every 50 reads.
    const { base, root, outside, file, outsideFile } = folderSwapFixture(
      "nazm-swap-folder-",
      "pub fn value() -> Int {\n  1\n}\n",
    );
    Deno.writeTextFileSync(outsideFile, `// ${OUTSIDE_MARK}\n`);
    Deno.symlinkSync(outside, join(root, "link"));
    const swapper = startSwapper(["exchange", join(root, "sub"), join(root, "link")]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const counts: Record<string, number> = {};
      let session = newReadSession();
      const started = performance.now();
      for (let i = 0; performance.now() - started < 3_000; i++) {
        if (i % 50 === 0) session = newReadSession();
        const read = readConfined(root, file, 1024, session);
        const kind = !(read instanceof Uint8Array)
          ? read.error
          : new TextDecoder().decode(read).includes(OUTSIDE_MARK)
          ? "LEAKED"
          : "read";
        counts[kind] = (counts[kind] ?? 0) + 1;
      }
      const swaps = await stopSwapper(swapper);
      console.log(`folder swap race: ${swaps} swaps, ${JSON.stringify(counts)}`);
      assert(swaps > 1000, "the folder was swapped");
      assertEquals(counts.LEAKED ?? 0, 0);
      assert(
        Object.keys(counts).every((k) => ["read", "link_outside", "unreadable"].includes(k)),
        JSON.stringify(counts),
      );
    } finally {
      await stopSwapper(swapper).catch(() => {});
      Deno.removeSync(base, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "security: a remembered file under a folder swapped with an outside link is never answered from outside",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // As above, but through a long-lived reader's memory of files
    // (KnownFiles): the inside file is settled, so every read that finds it
    // unchanged answers from memory without the folders' proof. Outside lies
    // a file of the same size and the same times, so that only its identity
    // tells it apart.
    const inside = "pub fn value() -> Int {\n  1\n}\n";
    const { base, root, outside, file, outsideFile } = folderSwapFixture(
      "nazm-swap-known-",
      inside,
    );
    const marked = `// ${OUTSIDE_MARK}\n`;
    Deno.writeTextFileSync(outsideFile, marked + "x".repeat(inside.length - marked.length));
    const times = Deno.statSync(file);
    Deno.utimeSync(outsideFile, times.atime!, times.mtime!);
    Deno.symlinkSync(outside, join(root, "link"));
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const known = newKnownFiles();
    // Remembered while all is quiet: from now on the memory can answer.
    readConfined(root, file, 1024, newReadSession(), known);
    assertEquals(known.size, 1);
    const swapper = startSwapper(["exchange", join(root, "sub"), join(root, "link")]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const counts: Record<string, number> = {};
      const started = performance.now();
      // One session: after the first wait a churning folder is refused at
      // once, so the loop makes thousands of reads, each a new chance for
      // the memory to answer from outside.
      const session = newReadSession();
      for (let i = 0; performance.now() - started < 3_000; i++) {
        const read = readConfined(root, file, 1024, session, known);
        const remembered = [...known.values()].some((f) => f.bytes === read);
        const kind = !(read instanceof Uint8Array)
          ? read.error
          : new TextDecoder().decode(read).includes(OUTSIDE_MARK)
          ? "LEAKED"
          : remembered
          ? "remembered"
          : "read";
        counts[kind] = (counts[kind] ?? 0) + 1;
      }
      const swaps = await stopSwapper(swapper);
      console.log(`folder swap race, remembered file: ${swaps} swaps, ${JSON.stringify(counts)}`);
      assert(swaps > 1000, "the folder was swapped");
      assertEquals(counts.LEAKED ?? 0, 0);
      assert((counts.remembered ?? 0) > 0, `the memory was used: ${JSON.stringify(counts)}`);
      assert(
        Object.keys(counts).every((k) =>
          ["read", "remembered", "link_outside", "unreadable"].includes(k)
        ),
        JSON.stringify(counts),
      );
    } finally {
      await stopSwapper(swapper).catch(() => {});
      Deno.removeSync(base, { recursive: true });
    }
  },
});
