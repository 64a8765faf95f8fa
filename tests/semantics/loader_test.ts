/**
 * Loading: the root and its imports only, each file read exactly once,
 * nothing else touched; module paths; identical answers with and without
 * the parse cache; limits as diagnostics.
 */
import fc from "fast-check";
import { assert, assertEquals } from "../support/assert.ts";
import { type ParseCache, serializeDiagnostics } from "../../src/semantics/mod.ts";
import { compile, loadCompilation, openSources, withBuffers } from "../../src/semantics/mod.ts";
import { loadCase, memoryHost, ROOT_DIR, splitCase } from "./_support.ts";

const enc = new TextEncoder();

const CYCLE = `// @file: main.nz
import a.b
import c

fn main() -> Unit {
  print(to_string(b.f(3) + c.g(1)))
}
// @file: a/b.nz
import c.{g}

pub fn f(n: Int) -> Int { if n == 0 { 0 } else { g(n - 1) } }
// @file: c.nz
import a.b.{f}

pub fn g(n: Int) -> Int { if n == 0 { 1 } else { f(n - 1) } }
// @file: unrelated.nz
fn never_read() -> Int { 1 }
`;

Deno.test("loader: imports transitively, cycles allowed, each file read once, nothing else", () => {
  const files = splitCase(enc.encode(CYCLE));
  const host = memoryHost(files);
  const c = loadCompilation(`${ROOT_DIR}/main.nz`, { sourceRoot: ROOT_DIR, host });
  assertEquals(c.diagnostics, []);
  assertEquals(c.files.map((f) => [f.path, f.module]), [["a/b.nz", "a.b"], ["c.nz", "c"], [
    "main.nz",
    "main",
  ]]);
  assertEquals(
    [...host.reads.entries()].sort(),
    [[`${ROOT_DIR}/a/b.nz`, 1], [`${ROOT_DIR}/c.nz`, 1], [`${ROOT_DIR}/main.nz`, 1]],
  );
  assertEquals(c.root, "main.nz");
  assertEquals(c.sourceRoot, ROOT_DIR);
  assert(c.files.every((f) => /^[0-9a-f]{64}$/.test(f.digest)));
});

Deno.test("loader: the source root may sit above the root file", () => {
  const files = splitCase(enc.encode(CYCLE));
  const host = memoryHost({ ...files, files: new Map([...files.files].map(([k, v]) => [k, v])) });
  const c = loadCompilation(`${ROOT_DIR}/a/b.nz`, { sourceRoot: ROOT_DIR, host });
  assertEquals(c.root, "a/b.nz");
  assertEquals(c.files.map((f) => f.module), ["a.b", "c"]);
  // The root module a.b has no main.
  assertEquals(c.diagnostics.map((d) => d.code), ["N0501"]);
});

Deno.test("loader: answers are identical with and without the parse cache", () => {
  const files = splitCase(enc.encode(CYCLE));
  const cache: ParseCache = new Map();
  const plain = loadCase(files);
  const first = loadCompilation(`${ROOT_DIR}/main.nz`, {
    sourceRoot: ROOT_DIR,
    host: memoryHost(files),
    cache,
  });
  const second = loadCompilation(`${ROOT_DIR}/main.nz`, {
    sourceRoot: ROOT_DIR,
    host: memoryHost(files),
    cache,
  });
  assertEquals(cache.size, 3);
  for (const c of [first, second]) {
    assertEquals(
      JSON.stringify(serializeDiagnostics(c)),
      JSON.stringify(serializeDiagnostics(plain)),
    );
    assertEquals(JSON.stringify(c.model), JSON.stringify(plain.model));
  }
});

Deno.test("loader: the same bytes under two paths keep their own file names", () => {
  const text = `// @file: main.nz
import x
import y

fn main() -> Unit { print(to_string(x.f() + y.f())) }
// @file: x.nz
pub fn f() -> Int { 1 + }
// @file: y.nz
pub fn f() -> Int { 1 + }
`;
  const files = splitCase(enc.encode(text));
  const cache: ParseCache = new Map();
  const c = loadCompilation(`${ROOT_DIR}/main.nz`, {
    sourceRoot: ROOT_DIR,
    host: memoryHost(files),
    cache,
  });
  const syntax = c.diagnostics.filter((d) => d.code.startsWith("N01"));
  assertEquals(syntax.map((d) => d.file), ["x.nz", "y.nz"]);
  assert(c.needsSyntaxRecovery);
});

Deno.test("loader: an unreadable root is a root error, not a crash", () => {
  const c = loadCompilation(`${ROOT_DIR}/missing.nz`, {
    sourceRoot: ROOT_DIR,
    host: memoryHost(splitCase(enc.encode("fn main() -> Unit {}"))),
  });
  assert(c.rootError !== null);
  assertEquals(c.files, []);
});

Deno.test("loader: a root outside the source root is refused unread", () => {
  const files = splitCase(enc.encode("fn main() -> Unit {}"));
  const host = memoryHost(files);
  const c = loadCompilation(`/elsewhere/main.nz`, { sourceRoot: ROOT_DIR, host });
  assert(c.rootError !== null && c.rootError.includes("not under the source root"));
  assertEquals(host.reads.size, 0);
});

Deno.test("compile: an editor's buffers over the disk are the same input as the disk", () => {
  const files = splitCase(enc.encode(CYCLE));
  // On "disk", c.nz breaks g; the buffer holds the fixed text and a new import.
  const broken = new Map(files.files);
  broken.set("c.nz", enc.encode("import a.b.{f}\n\npub fn g(n: Int) -> Int { f(true) }\n"));
  const edited = enc.encode(
    "import a.b.{f}\nimport d\n\npub fn g(n: Int) -> Int { if n == 0 { d.one() } else { f(n - 1) } }\n",
  );
  const disk = memoryHost({ ...files, files: broken });
  const sources = openSources(`${ROOT_DIR}/main.nz`, { sourceRoot: ROOT_DIR, host: disk });
  const buffers = new Map([["c.nz", edited], ["d.nz", enc.encode("pub fn one() -> Int { 1 }\n")]]);
  const overlaid = compile(withBuffers(sources, buffers));

  const written = new Map(files.files);
  for (const [path, bytes] of buffers) written.set(path, bytes);
  const reference = loadCompilation(`${ROOT_DIR}/main.nz`, {
    sourceRoot: ROOT_DIR,
    host: memoryHost({ ...files, files: written }),
  });
  assertEquals(overlaid.diagnostics, []);
  assertEquals(overlaid.diagnostics, reference.diagnostics);
  assertEquals(
    overlaid.files.map((f) => [f.path, f.digest]),
    reference.files.map((f) => [f.path, f.digest]),
  );
  assertEquals(overlaid.model.definitions, reference.model.definitions);
  // A buffer shadows the disk: the broken c.nz on disk was never read.
  assertEquals(disk.reads.get(`${ROOT_DIR}/c.nz`), undefined);
  assertEquals(disk.reads.get(`${ROOT_DIR}/main.nz`), 1);
});

Deno.test("compile: a buffer passes the same decoding as a file", () => {
  const files = splitCase(enc.encode("fn main() -> Unit {}\n"));
  const sources = openSources(`${ROOT_DIR}/main.nz`, {
    sourceRoot: ROOT_DIR,
    host: memoryHost(files),
  });
  const c = compile(withBuffers(sources, new Map([["main.nz", new Uint8Array([0x66, 0xff])]])));
  assertEquals(c.diagnostics.map((d) => [d.code, d.span]), [["N0601", { start: 1, end: 2 }]]);
});

Deno.test("loader: a file is UTF-8 exactly when a fatal TextDecoder accepts it, and N0601 is at the first bad byte", () => {
  const fatal = new TextDecoder("utf-8", { fatal: true });
  const readAs = (bytes: Uint8Array) =>
    openSources(`${ROOT_DIR}/main.nz`, {
      sourceRoot: ROOT_DIR,
      host: memoryHost({
        files: new Map([["main.nz", bytes]]),
        root: "main.nz",
        refused: new Map(),
      }),
    }).read("main.nz") as unknown as { kind: string; offset?: number };
  // Sequences a validator is most likely to get wrong, among random bytes.
  const tricky = [
    [0xc0, 0x80], // overlong NUL
    [0xe0, 0x80, 0x80], // overlong
    [0xf0, 0x80, 0x80, 0x80], // overlong
    [0xed, 0xa0, 0x80], // a surrogate, U+D800
    [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
    [0xf8, 0x88, 0x80, 0x80, 0x80], // a five-byte form
    [0xef, 0xbb, 0xbf], // a byte order mark: valid
    [0xe2, 0x82], // truncated
    [0xf0, 0x9f, 0x98, 0x80], // U+1F600: valid
    [0x80], // a lone continuation byte
  ];
  const piece = fc.oneof(
    fc.constantFrom(...tricky),
    fc.uint8Array({ maxLength: 6 }).map((b) => [...b]),
    fc.string({ unit: "binary", maxLength: 4 }).map((s) => [...enc.encode(s)]),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const bytes = new Uint8Array(pieces.flat());
      let valid = true;
      try {
        fatal.decode(bytes);
      } catch {
        valid = false;
      }
      const read = readAs(bytes);
      assertEquals(read.kind === "text", valid);
      if (!valid) {
        assertEquals(read.kind, "not_utf8");
        // The bytes before the offset decode; the offset is where they stop being UTF-8.
        fatal.decode(bytes.subarray(0, read.offset));
      }
    }),
    { numRuns: 3000 },
  );
});
