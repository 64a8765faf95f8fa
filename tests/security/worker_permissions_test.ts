/**
 * The read-only contract enforced by Deno, not only by our code.
 *
 * - The first analysis, a node worker of nazm-mcp's main thread, runs once
 *   main.ts has revoked the process's read permission: it can read nothing
 *   at all, nor write, connect, listen, spawn, read the environment or
 *   system information, load native code or import remote modules. Every
 *   read is the sandbox's (src/mcp/reads.ts), whose own permission refuses
 *   what lies outside the roots even with no path check in the way.
 * - An analysis started after a failure, a node worker of the sandbox Web
 *   Worker (started with `analysisWorkerOptions`, shared with
 *   src/mcp/bridge.ts), shares the sandbox's permission: it can read the
 *   source root, the docs repository and the analysis' own code (this
 *   repository's src/ and the npm packages it imports: a worker started by a
 *   worker loads its modules under that permission), and nothing else.
 */
import { assertEquals } from "../support/assert.ts";
import { analysisWorkerOptions, SANDBOX_MODULE } from "../../src/mcp/mod.ts";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOCK_FLAGS, SERVER_FLAGS } from "../support/server.ts";
import type { Targets } from "./probe_attempts.ts";

function fixture() {
  const base = Deno.realPathSync(
    Deno.makeTempDirSync({ prefix: "nazm-security-" }),
  );
  const root = join(base, "root");
  const docs = join(base, "docs");
  const outside = join(base, "outside");
  for (const dir of [root, docs, outside]) Deno.mkdirSync(dir);
  Deno.writeTextFileSync(join(root, "main.nz"), "fn main() -> Unit {}\n");
  Deno.writeTextFileSync(join(docs, "README.md"), "# Docs\n");
  Deno.writeTextFileSync(join(outside, "secret.txt"), "secret\n");
  Deno.symlinkSync(join(outside, "secret.txt"), join(root, "link.nz"));
  return { base, root, docs, outside };
}

/** The probe's outcomes where an analysis the sandbox starts runs. */
async function probe(
  roots: { sourceRoot: string; docsRoot: string },
  targets: Targets,
) {
  const sandbox = new Worker(
    SANDBOX_MODULE,
    analysisWorkerOptions(roots, {
      module: new URL("./probe_worker.ts", import.meta.url).href,
      heapMb: 64,
      check: null,
    }),
  );
  try {
    return await new Promise<Record<string, string>>((resolve, reject) => {
      sandbox.onerror = (event) => {
        event.preventDefault();
        reject(new Error(event.message));
      };
      sandbox.onmessage = (event) => {
        const data = event.data;
        if (data.kind === "failed") reject(new Error(data.message));
        else if (data.kind !== "relayed") return;
        else if (data.message === "ready") {
          sandbox.postMessage({ kind: "relay", generation: 1, message: targets });
        } else resolve(data.message);
      };
      sandbox.postMessage({ kind: "spawn", generation: 1 });
    });
  } finally {
    sandbox.terminate();
  }
}

/** The probe's outcomes where the first analysis runs, started and confined as main.ts does. */
async function probeFirst(
  roots: { sourceRoot: string; docsRoot: string },
  targets: Targets,
): Promise<Record<string, string>> {
  const entry = fileURLToPath(new URL("./direct_probe_main.ts", import.meta.url));
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...LOCK_FLAGS,
      ...SERVER_FLAGS,
      entry,
      roots.sourceRoot,
      roots.docsRoot,
      JSON.stringify(targets),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout);
  assertEquals(code, 0, new TextDecoder().decode(stderr));
  const reply = JSON.parse(text);
  assertEquals(reply.kind, "answer", text);
  return reply.value;
}

function targetsOf(f: ReturnType<typeof fixture>): Targets {
  return {
    inside: join(f.root, "main.nz"),
    docs: join(f.docs, "README.md"),
    outside: join(f.outside, "secret.txt"),
    symlinkOut: join(f.root, "link.nz"),
    writeInside: join(f.root, "new.nz"),
    ownCode: fileURLToPath(new URL("../../src/mcp/mod.ts", import.meta.url)),
    restOfRepository: fileURLToPath(new URL("../../deno.json", import.meta.url)),
    analysisPackage: join(dirname(fileURLToPath(import.meta.resolve("zod"))), "package.json"),
    otherPackage: join(dirname(fileURLToPath(import.meta.resolve("ajv"))), "..", "package.json"),
  };
}

/** What no analysis can do, wherever it runs. */
const CANNOT_ACT = {
  "write inside the source root": "NotCapable",
  "create a folder inside the source root": "NotCapable",
  "remove a file of the source root": "NotCapable",
  "write /tmp": "NotCapable",
  "connect with fetch": "NotCapable",
  "connect with Deno.connect": "NotCapable",
  "listen": "NotCapable",
  "spawn a process": "NotCapable",
  "read the environment": "NotCapable",
  "read the whole environment": "NotCapable",
  "read system information": "NotCapable",
  "load a native library": "NotCapable",
  "import a remote module": "NotCapable",
};

Deno.test("the first analysis reads nothing itself; the sandbox reads for it, inside the roots alone, and it cannot act", async () => {
  const f = fixture();
  try {
    const results = await probeFirst({ sourceRoot: f.root, docsRoot: f.docs }, targetsOf(f));
    assertEquals(results, {
      "read a file of the source root": "NotCapable",
      "read a file of the docs repository": "NotCapable",
      "read /etc/passwd": "NotCapable",
      "read a file outside both roots": "NotCapable",
      "stat /etc": "NotCapable",
      "list /": "NotCapable",
      "read through a symlink out of the root": "NotCapable",
      "read the server's own code": "NotCapable",
      "read the rest of the server's repository": "NotCapable",
      "read an npm package the analysis imports": "NotCapable",
      "read another npm package": "NotCapable",
      ...CANNOT_ACT,
      "the service reads a file of the source root": "ok",
      // The sandbox's permission, not our path checks, refuses these: the
      // read was asked under the root `/`, which every path lies inside, and
      // the sandbox cannot even resolve the path (the same answer whether
      // the file exists or not).
      "the service reads /etc/passwd, no path check in the way": "not_found",
      "the service reads a file outside both roots, likewise": "not_found",
    });
    assertEquals([...Deno.readDirSync(f.root)].map((e) => e.name).sort(), ["link.nz", "main.nz"]);
  } finally {
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("an analysis the sandbox starts reads its two roots and its own code, nothing else, and cannot act", async () => {
  const f = fixture();
  try {
    const results = await probe({ sourceRoot: f.root, docsRoot: f.docs }, targetsOf(f));
    assertEquals(results, {
      "read a file of the source root": "ok",
      "read a file of the docs repository": "ok",
      "read /etc/passwd": "NotCapable",
      "read a file outside both roots": "NotCapable",
      "stat /etc": "NotCapable",
      "list /": "NotCapable",
      // FIXME: Deno checks read permission on the path as given, before
      // symlinks are resolved, so a symlink planted inside the root is
      // followed. The defence is ours: a `file` argument is matched against
      // the compilation's own file list and never opened otherwise, and the
      // loader must reject a module whose real path leaves the source root
      // (tests/security/file_arguments_test.ts, with nazm.semantic_context).
      "read through a symlink out of the root": "ok",
      "read the server's own code": "ok",
      "read the rest of the server's repository": "NotCapable",
      "read an npm package the analysis imports": "ok",
      "read another npm package": "NotCapable",
      ...CANNOT_ACT,
    });
    // nothing was written anywhere
    assertEquals([...Deno.readDirSync(f.root)].map((e) => e.name).sort(), [
      "link.nz",
      "main.nz",
    ]);
  } finally {
    Deno.removeSync(f.base, { recursive: true });
  }
});
