/**
 * Only regular files are read, and none past its limit: a FIFO, a character
 * device, a socket or a folder where a module or a document should be is
 * refused by its kind (N0605, `not_regular`) without being read or waited
 * on; a 3 GiB sparse file and a file one byte over 8 MiB are refused as too
 * large (N0602, `too_large`) without being read past the limit; a root
 * replaced by a FIFO while the server runs is refused, and a call queued
 * behind it is answered at once. Every call is answered within seconds, by
 * the real server over stdio (a FIFO would otherwise block each call until
 * the 120 s timeout, and a device grow memory without bound).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { modern, openSession, REPO, within } from "../support/server.ts";

const GiB = 1024 ** 3;
const MAX_FILE_BYTES = 8 * 1024 * 1024;

function run(command: string, args: string[]): boolean {
  return new Deno.Command(command, { args, stderr: "null" }).outputSync().success;
}

/** Makes each special file that this machine allows; returns the names made. */
async function specialFiles(dir: string, extension: string): Promise<Record<string, string>> {
  const made: Record<string, string> = {};
  if (run("mkfifo", [join(dir, `pipe${extension}`)])) made.pipe = "named pipe (FIFO)";
  // A character device (the one /dev/zero is): needs root, so it may be absent.
  if (run("mknod", [join(dir, `zero${extension}`), "c", "1", "5"])) {
    made.zero = "character device";
  }
  // A socket file: made by a process that exits while listening (a closed
  // listener would remove it), since the tests hold no net permission.
  const socket = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      'Deno.listen({ transport: "unix", path: Deno.args[0] }); Deno.exit(0)',
      "--",
      join(dir, `socket${extension}`),
    ],
  }).outputSync();
  if (socket.success) made.socket = "socket";
  Deno.mkdirSync(join(dir, `folder${extension}`));
  made.folder = "directory";
  // 3 GiB of nothing: a sparse file, instant to make, slow and huge to read.
  const sparse = await Deno.open(join(dir, `sparse${extension}`), { write: true, create: true });
  await sparse.truncate(3 * GiB);
  sparse.close();
  made.sparse = "too large";
  Deno.writeFileSync(join(dir, `big${extension}`), new Uint8Array(MAX_FILE_BYTES + 1).fill(0x20));
  made.big = "too large";
  return made;
}

Deno.test("security: FIFOs, devices, sockets, folders and huge files are refused by kind, at once", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-special-" }));
  const root = join(base, "root");
  const docs = join(base, "repo");
  Deno.mkdirSync(root);
  Deno.mkdirSync(join(docs, "docs"), { recursive: true });
  const session = { current: null as ReturnType<typeof openSession> | null };
  try {
    const modules = await specialFiles(root, ".nz");
    const names = Object.keys(modules);
    Deno.writeTextFileSync(
      join(root, "main.nz"),
      names.map((n) => `import ${n}\n`).join("") + "\nfn main() -> Unit {}\n",
    );
    // Documents: the manifest names docs/specification.md, docs/grammar.md, …
    Deno.copyFileSync(join(REPO, "nazm-repo.json"), join(docs, "nazm-repo.json"));
    const manifest = JSON.parse(Deno.readTextFileSync(join(docs, "nazm-repo.json")));
    const documents: { id: string; path: string }[] = manifest.documents;
    const documentKinds = await specialFiles(join(docs, "docs"), ".md");
    const documentNames = Object.keys(documentKinds);
    for (const [i, name] of documentNames.entries()) {
      Deno.renameSync(join(docs, "docs", `${name}.md`), join(docs, documents[i].path));
    }

    const s = openSession({ args: ["--root", join(root, "main.nz"), "--docs", docs] });
    session.current = s;
    const started = performance.now();
    await s.send(modern(1, "tools/call", { name: "nazm.diagnostics", arguments: {} }));
    await s.send(modern(2, "tools/call", { name: "nazm.docs_index", arguments: {} }));
    const index = await within(20_000, "nazm.diagnostics", s.answer(1));
    const docsAnswer = await within(20_000, "nazm.docs_index", s.answer(2));
    const seconds = (performance.now() - started) / 1000;

    const diagnostics = (index.result as { structuredContent: { diagnostics: [] } })
      .structuredContent.diagnostics as { code: string; file: string }[];
    const byFile = Object.fromEntries(diagnostics.map((d) => [d.file, d.code]));
    const right = names.filter((n) =>
      byFile[`${n}.nz`] === (modules[n] === "too large" ? "N0602" : "N0605")
    );
    const available = Object.fromEntries(
      (docsAnswer.result as { structuredContent: { documents: [] } }).structuredContent
        .documents.map((d: { id: string; availability: string }) => [d.id, d.availability]),
    );
    const rightDocs = documentNames.filter((n, i) =>
      available[documents[i].id] ===
        (documentKinds[n] === "too large" ? "too_large" : "not_regular")
    );
    console.log(
      `special files: modules ${names.length} tried, ${right.length} right; documents ${documentNames.length} tried, ${rightDocs.length} right; ${
        seconds.toFixed(2)
      } s`,
    );
    assertEquals(right, names, JSON.stringify(byFile));
    assertEquals(rightDocs, documentNames, JSON.stringify(available));

    // The root replaced by a FIFO while the server runs: refused, and a call
    // queued behind it answered.
    Deno.removeSync(join(root, "main.nz"));
    assert(run("mkfifo", [join(root, "main.nz")]), "mkfifo");
    await s.send(modern(3, "tools/call", { name: "nazm.diagnostics", arguments: {} }));
    await s.send(modern(4, "tools/call", { name: "nazm.docs_index", arguments: {} }));
    const refused = await within(10_000, "diagnostics of a FIFO root", s.answer(3));
    const behind = await within(10_000, "docs_index behind it", s.answer(4));
    const content = (refused.result as { structuredContent: { reason: string } })
      .structuredContent;
    assertEquals(content.reason, "root_unreadable");
    assert((behind.result as { isError?: boolean }).isError !== true);
    const end = await within(10_000, "exit", s.close());
    assertEquals(end.code, 0);
  } finally {
    session.current?.kill();
    Deno.removeSync(base, { recursive: true });
  }
});
