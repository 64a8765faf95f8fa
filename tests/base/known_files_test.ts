/**
 * The confined read's memory of files (src/base/files.ts, `KnownFiles`): an
 * unchanged file is answered from memory, and nothing else is — a rewrite of
 * the same size, a file replaced by another or by a link out of the root, a
 * FIFO, a file changed within the second it was read.
 *
 * Files here are made "settled" (last changed more than a second ago, which
 * a whole-second `ctime` needs before it proves anything) by waiting; that
 * is why some tests take two seconds.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import {
  type KnownFiles,
  newKnownFiles,
  newReadSession,
  readConfined,
  retainKnownFiles,
} from "../../src/base/mod.ts";

const decoder = new TextDecoder();

function tempRoot(): string {
  return Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-known-" }));
}

/** Waits until everything changed before now has a `ctime` a whole second and more in the past. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 2_100));
}

function read(root: string, path: string, known: KnownFiles, limit = 1024) {
  return readConfined(root, path, limit, newReadSession(), known);
}

function text(bytes: Uint8Array | { error: string }): string {
  if (!(bytes instanceof Uint8Array)) return `refused: ${bytes.error}`;
  return decoder.decode(bytes);
}

Deno.test("known files: an unchanged settled file is answered from memory, the same bytes", async () => {
  const root = tempRoot();
  try {
    const path = join(root, "a.nz");
    Deno.writeTextFileSync(path, "fn a() -> Int { 1 }\n");
    await settle();
    const known = newKnownFiles();
    const first = read(root, path, known);
    assertEquals(text(first), "fn a() -> Int { 1 }\n");
    assertEquals(known.size, 1);
    const second = read(root, path, known);
    // The very array: nothing was read, hashed or indexed again.
    assert(second === first, "the second read came from memory");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("known files: a file changed within the second it was read is read again", () => {
  const root = tempRoot();
  try {
    const path = join(root, "a.nz");
    Deno.writeTextFileSync(path, "fn a() -> Int { 1 }\n");
    const known = newKnownFiles();
    const first = read(root, path, known);
    // Its ctime is not yet certainly past: a write in the same second could keep it.
    assertEquals(known.size, 0);
    Deno.writeTextFileSync(path, "fn a() -> Int { 2 }\n");
    const second = read(root, path, known);
    assert(second !== first);
    assertEquals(text(second), "fn a() -> Int { 2 }\n");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("known files: whatever replaces a known file is read as itself, or refused", async () => {
  const root = tempRoot();
  const outside = tempRoot();
  try {
    const path = join(root, "a.nz");
    Deno.writeTextFileSync(join(outside, "secret.nz"), "SECRET\n");
    Deno.writeTextFileSync(path, "fn a() -> Int { 1 }\n");
    await settle();
    const known = newKnownFiles();
    assertEquals(text(read(root, path, known)), "fn a() -> Int { 1 }\n");
    assertEquals(known.size, 1);

    // Rewritten in place, same size: a new ctime.
    Deno.writeTextFileSync(path, "fn a() -> Int { 2 }\n");
    assertEquals(text(read(root, path, known)), "fn a() -> Int { 2 }\n");

    // Replaced by another file (a new inode), its times copied from the old.
    const stat = Deno.statSync(path);
    Deno.writeTextFileSync(`${path}.new`, "fn a() -> Int { 3 }\n");
    Deno.utimeSync(`${path}.new`, stat.atime!, stat.mtime!);
    Deno.renameSync(`${path}.new`, path);
    assertEquals(text(read(root, path, known)), "fn a() -> Int { 3 }\n");

    // Replaced by a link out of the root.
    Deno.removeSync(path);
    Deno.symlinkSync(join(outside, "secret.nz"), path);
    assertEquals(text(read(root, path, known)), "refused: link_outside");

    // Replaced by a FIFO: refused by kind, never opened.
    Deno.removeSync(path);
    new Deno.Command("mkfifo", { args: [path] }).outputSync();
    assertEquals(text(read(root, path, known)), "refused: not_regular");

    // Gone.
    Deno.removeSync(path);
    assertEquals(text(read(root, path, known)), "refused: not_found");
  } finally {
    Deno.removeSync(root, { recursive: true });
    Deno.removeSync(outside, { recursive: true });
  }
});

Deno.test("known files: a known file over a smaller limit is refused, not answered", async () => {
  const root = tempRoot();
  try {
    const path = join(root, "a.nz");
    Deno.writeTextFileSync(path, "x".repeat(100));
    await settle();
    const known = newKnownFiles();
    assertEquals(text(read(root, path, known)).length, 100);
    assertEquals(text(read(root, path, known, 10)), "refused: too_large");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("known files: retain forgets every file but those still read", () => {
  const known = newKnownFiles();
  const file = { dev: 0n, ino: 0n, size: 0n, mtimeNs: 0n, ctimeNs: 0n, bytes: new Uint8Array() };
  known.set("/r/a.nz", file);
  known.set("/r/b.nz", file);
  retainKnownFiles(known, new Set(["/r/b.nz", "/r/c.nz"]));
  assertEquals([...known.keys()], ["/r/b.nz"]);
});
