/**
 * The sandbox checks the root's syntax while the first analysis starts
 * (src/mcp/sandbox.ts), and the bridge hands the analysis, with the init
 * message, the files that parse clean with their digests: every file the root reaches
 * through its imports and reads through the confined read, except a file
 * with a syntax error (100,000 nested parentheses among them), a file over
 * 1 MiB, a link out of the root, a FIFO (never waited on) and bytes that are
 * not UTF-8. The bridge's request for the verdicts has the check finish
 * first, within a limit. A server whose first analysis does not prepare
 * checks nothing.
 *
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { AnalysisBridge, createLogger } from "../../src/mcp/mod.ts";
import { blake3 } from "../../src/base/mod.ts";

const VERDICTS_WORKER = new URL("./fixtures/verdicts_worker.ts", import.meta.url);

function program() {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-sandbox-check-" }));
  const root = join(base, "root");
  Deno.mkdirSync(join(root, "geo"), { recursive: true });
  Deno.mkdirSync(join(base, "outside"));
  const files: Record<string, string> = {
    "main.nz": [
      "import geo.shapes",
      "import broken",
      "import big",
      "import linked",
      "import pipe",
      "import garbage",
      "import deep",
      "import missing",
      "",
      "fn main() -> Unit {}",
      "",
    ].join("\n"),
    "geo/shapes.nz": "import util\n\npub fn area(r: Int) -> Int {\n  r * r\n}\n",
    "util.nz": "pub fn id(x: Int) -> Int { x }\n",
    "broken.nz": "pub fn f() -> Int { let = 1 }\n",
    "big.nz": `pub fn g() -> Int { 1 }\n${"// padding\n".repeat(110_000)}`,
    "unreached.nz": "fn h() {}\n",
    "deep.nz": `fn d() -> Int { ${"(".repeat(100_000)}1${")".repeat(100_000)} }\n`,
  };
  for (const [path, text] of Object.entries(files)) Deno.writeTextFileSync(join(root, path), text);
  // Not UTF-8, and a FIFO no one writes to: a read that waited on it would hang the check.
  Deno.writeFileSync(join(root, "garbage.nz"), new Uint8Array([0x66, 0x6e, 0xff, 0xfe, 0x00]));
  const fifo = new Deno.Command("mkfifo", { args: [join(root, "pipe.nz")] }).outputSync();
  if (!fifo.success) throw new Error("mkfifo failed");
  Deno.writeTextFileSync(join(base, "outside", "linked.nz"), "pub fn secret() {}\n");
  Deno.symlinkSync(join(base, "outside", "linked.nz"), join(root, "linked.nz"));
  return { base, root, files };
}

/** Starts the analysis as the server does and returns the verdicts it received. */
async function verdictsOf(
  root: string,
  check: boolean,
  gateMs = 3000,
  checkFinishMs?: number,
): Promise<[string, string, number[]][]> {
  const paths = { root: join(root, "main.nz"), sourceRoot: root, docsRoot: root };
  // The check of these few small files ends long before the gate opens,
  // unless the gate opens at once.
  const gate = new Promise<void>((done) => setTimeout(done, gateMs));
  const bridge = new AnalysisBridge(paths, createLogger("error"), {
    module: VERDICTS_WORKER,
    heapMb: 64,
    gate,
    checkFinishMs,
  });
  // The server's first analysis prepares, and only then does the sandbox check.
  if (check) bridge.warm();
  try {
    const reply = await bridge.call("test.verdicts", {});
    if (reply.kind !== "answer") throw new Error(JSON.stringify(reply));
    return JSON.parse((reply.value as { text: string }).text);
  } finally {
    bridge.terminate();
  }
}

Deno.test("sandbox: the analysis gets the clean files the root reaches, with their digests", async () => {
  const { base, root, files } = program();
  try {
    const digest = (path: string) => blake3(new TextEncoder().encode(files[path]));
    const verdicts = (await verdictsOf(root, true)).sort();
    assertEquals(
      verdicts.map(([path, hash]) => [path, hash]),
      ["geo/shapes.nz", "main.nz", "util.nz"].map((path) => [path, digest(path)]),
    );
    // With the spans of the bodies, braces included.
    const shapes = files["geo/shapes.nz"];
    assertEquals(verdicts[0][2], [shapes.indexOf("{"), shapes.lastIndexOf("}") + 1]);
    assertEquals(await verdictsOf(root, false), []);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

/** A program whose check takes about a second or more: 30 files of some 350 KB. */
function bigProgram() {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-sandbox-finish-" }));
  const names = Array.from({ length: 30 }, (_, i) => `part${i}`);
  Deno.writeTextFileSync(
    join(root, "main.nz"),
    names.map((name) => `import ${name}`).join("\n") + "\n\nfn main() -> Unit {}\n",
  );
  const body = Array.from(
    { length: 6_000 },
    (_, j) =>
      `pub fn f${j}(x: Int) -> Int {\n  let y = x * ${j} + 1;\n  if y > 10 { y } else { x }\n}\n`,
  ).join("\n");
  for (const name of names) Deno.writeTextFileSync(join(root, `${name}.nz`), body);
  return { root, files: ["main.nz", ...names.map((name) => `${name}.nz`)].sort() };
}

Deno.test("sandbox: the bridge's request finishes the check first, within its limit", async () => {
  // The first analysis would parse a file without a verdict in full, on a
  // cold parser; the sandbox's is warm. Opened at once, the gate asks for
  // the verdicts while the check has far to go: with no time to finish, the
  // verdicts miss files; with time, they name every file.
  const { root, files } = bigProgram();
  try {
    const cut = (await verdictsOf(root, true, 0, 0)).map(([path]) => path);
    assert(cut.length < files.length, `the check was done before the request: ${cut.length} files`);
    const finished = (await verdictsOf(root, true, 0, 60_000)).map(([path]) => path).sort();
    assertEquals(finished, files);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("sandbox: a gate open at once still gets every verdict (a request may come before the check has loaded)", async () => {
  const { base, root } = program();
  try {
    assertEquals(
      (await verdictsOf(root, true, 0)).map(([path]) => path).sort(),
      ["geo/shapes.nz", "main.nz", "util.nz"],
    );
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
