/**
 * Reads through the sandbox's read service (src/mcp/reads.ts) are the
 * confined reads of src/base/files.ts, made on the other thread: the same
 * bytes and the same refusals for every kind of file the confinement meets,
 * the same memory of known files (answered unchanged in one exchange a
 * session, read again once changed), and the same real paths.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import {
  confinedReader,
  type ConfinedReadError,
  type KnownFiles,
  newKnownFiles,
  newReadSession,
  readConfined,
  type ReadService,
  readThrough,
  realPathOrResolved,
} from "../../src/base/files.ts";
import { readChannel, readsThrough } from "../../src/mcp/reads.ts";

const LIMIT = 4096;

function fixture() {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-reads-" }));
  const root = join(base, "root");
  Deno.mkdirSync(join(root, "sub", "deeper"), { recursive: true });
  Deno.mkdirSync(join(base, "outside"));
  Deno.mkdirSync(join(root, "folder.nz"));
  const files: Record<string, string> = {
    "main.nz": "fn main() -> Unit {}\n",
    "sub/b.nz": "pub fn b() -> Int { 1 }\n",
    "sub/deeper/c.nz": "pub fn c() -> Int { 2 } // ünïcode ✓\n",
    "big.nz": "x".repeat(LIMIT + 1),
    "empty.nz": "",
  };
  for (const [path, text] of Object.entries(files)) Deno.writeTextFileSync(join(root, path), text);
  Deno.writeTextFileSync(join(base, "outside", "secret.nz"), "secret\n");
  Deno.symlinkSync(join(base, "outside", "secret.nz"), join(root, "out.nz"));
  Deno.symlinkSync(join(root, "sub", "b.nz"), join(root, "in.nz"));
  Deno.symlinkSync(join(root, "nowhere.nz"), join(root, "dangling.nz"));
  const fifo = new Deno.Command("mkfifo", { args: [join(root, "pipe.nz")] }).outputSync();
  assert(fifo.success, "mkfifo");
  const paths = [
    ...Object.keys(files),
    "out.nz",
    "in.nz",
    "dangling.nz",
    "pipe.nz",
    "folder.nz",
    "missing.nz",
    "sub/../main.nz",
    "../outside/secret.nz",
  ].map((path) => join(root, path));
  return { base, root, paths };
}

/** A read service on a worker of its own, with every call counted by operation. */
function startService() {
  const worker = new Worker(new URL("./fixtures/read_server.ts", import.meta.url), {
    type: "module",
  });
  const { client, server } = readChannel();
  worker.postMessage(server, [server.port as unknown as Transferable]);
  const inner = readsThrough(client);
  const calls = { realPath: 0, read: 0, readMany: 0 };
  const service: ReadService = {
    realPath: (path) => (calls.realPath++, inner.realPath(path)),
    read: (...args) => (calls.read++, inner.read(...args)),
    readMany: (...args) => (calls.readMany++, inner.readMany(...args)),
  };
  return {
    service,
    calls,
    stop() {
      client.port.close();
      worker.terminate();
    },
  };
}

/** What a read gave, comparable: its text, or its refusal. */
function outcome(read: Uint8Array | ConfinedReadError): unknown {
  return read instanceof Uint8Array ? { text: new TextDecoder().decode(read) } : read;
}

/** Every path read in one session, with `known`, through `service` (null: on this thread). */
function readAll(
  service: ReadService | null,
  root: string,
  paths: readonly string[],
  known: KnownFiles | null,
): unknown[] {
  readThrough(service);
  try {
    const session = newReadSession();
    return paths.map((path) => outcome(readConfined(root, path, LIMIT, session, known)));
  } finally {
    readThrough(null);
  }
}

Deno.test("reads: through the service, every file reads or is refused as it is on this thread", () => {
  const f = fixture();
  const { service, stop } = startService();
  try {
    const here = readAll(null, f.root, f.paths, null);
    assertEquals(readAll(service, f.root, f.paths, null), here);
    // Every kind of refusal is among them, and so are bytes.
    const kinds = new Set(here.map((o) => (o as { error?: string }).error ?? "bytes"));
    assertEquals(
      [...kinds].sort(),
      ["bytes", "link_outside", "not_found", "not_regular", "too_large"],
    );
    for (const path of [...f.paths, join(f.base, "nowhere", "deep.nz")]) {
      readThrough(null);
      const real = realPathOrResolved(path);
      readThrough(service);
      try {
        assertEquals(realPathOrResolved(path), real, path);
      } finally {
        readThrough(null);
      }
    }
    // The documentation's reader: a file, and a folder that is not there.
    const gone = join(f.base, "gone");
    const reads = (service: ReadService | null) => {
      readThrough(service);
      try {
        return [
          outcome(confinedReader(f.root)(join(f.root, "sub", "b.nz"), LIMIT)),
          outcome(confinedReader(gone)(join(gone, "x.nz"), LIMIT)),
        ];
      } finally {
        readThrough(null);
      }
    };
    const docsHere = reads(null);
    assertEquals((docsHere[1] as { error: string }).error, "unreadable");
    assertEquals(reads(service), docsHere);
  } finally {
    stop();
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("reads: known files come back unchanged in one exchange a session, and are read again once changed", async () => {
  const f = fixture();
  const { service, calls, stop } = startService();
  try {
    // A file is remembered only once its change time is a second old.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const sources = ["main.nz", "sub/b.nz", "sub/deeper/c.nz"].map((p) => join(f.root, p));
    const remote = newKnownFiles();
    const local = newKnownFiles();
    const first = readAll(service, f.root, sources, remote);
    assertEquals(first, readAll(null, f.root, sources, local));
    assertEquals([...remote.keys()].sort(), [...local.keys()].sort());
    assertEquals(remote.size, 3);
    const before = { ...calls };
    assertEquals(readAll(service, f.root, sources, remote), first);
    // One exchange for the whole session, no read.
    assertEquals(calls.readMany - before.readMany, 1);
    assertEquals(calls.read - before.read, 0);
    Deno.writeTextFileSync(join(f.root, "sub", "b.nz"), "pub fn b() -> Int { 3 }\n");
    const changed = readAll(service, f.root, sources, remote);
    assertEquals(changed, readAll(null, f.root, sources, local));
    assertEquals((changed[1] as { text: string }).text, "pub fn b() -> Int { 3 }\n");
  } finally {
    stop();
    Deno.removeSync(f.base, { recursive: true });
  }
});
