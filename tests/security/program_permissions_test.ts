/**
 * A program run by `nazm run` or `nazm test` has no permission at all,
 * whatever its code does. Nazm has no way to ask for one, so the test
 * injects a hook into the generated module — the runtime's `print` replaced
 * by a probe, in this test only, never a language feature — and runs it
 * through the same worker host `nazm run` uses. From inside, the probe
 * tries to read a file it could otherwise read, list a folder, write,
 * create and remove files, listen, connect, fetch, resolve a name, read
 * and set the environment, spawn a process,
 * read system information, load a native library and import a local and a
 * remote module. Each must fail with `NotCapable` — an import with the
 * TypeError Deno's module loader raises for a permission it lacks.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { loadCompilation } from "../../src/semantics/mod.ts";
import {
  generateModule,
  ProgramWorker,
  programWorkerOptions,
  type RunLimits,
} from "../../src/backend/mod.ts";

const PRINT = /export function \$print\(text\) \{\n {2}write\(text \+ "\\n"\);\n\}/;

/** The probe: started by the first `print`, each attempt's outcome by name, printed as JSON. */
function probeSource(targets: Record<string, string>): string {
  return `export function $print(text) {
  const g = globalThis;
  const t = ${JSON.stringify(targets)};
  if (g.$probes === undefined) {
    const results = (g.$probes = {});
    const attempt = (name, f) => {
      try {
        const r = f();
        if (r instanceof Promise) {
          results[name] = "pending";
          r.then(() => (results[name] = "ALLOWED"), (e) => (results[name] = outcome(e)));
        } else results[name] = "ALLOWED";
      } catch (e) {
        results[name] = outcome(e);
      }
    };
    // The module loader says TypeError; what matters is that a permission refused it.
    const outcome = (e) =>
      e.name === "NotCapable" || /^Requires (read|import) access/.test(e.message)
        ? "NotCapable"
        : e.name + ": " + e.message;
    attempt("read a file", () => Deno.readTextFileSync(t.secret));
    attempt("read /etc/passwd", () => Deno.readTextFileSync("/etc/passwd"));
    attempt("stat a file", () => Deno.statSync(t.secret));
    attempt("list a folder", () => Array.from(Deno.readDirSync(t.dir)));
    attempt("write a file", () => Deno.writeTextFileSync(t.newFile, "x"));
    attempt("create a folder", () => Deno.mkdirSync(t.newDir));
    attempt("remove a file", () => Deno.removeSync(t.secret));
    attempt("listen", () => Deno.listen({ hostname: "127.0.0.1", port: 0 }));
    attempt("connect", () => Deno.connect({ hostname: "127.0.0.1", port: Number(t.port) }));
    attempt("fetch", () => fetch("http://127.0.0.1:" + t.port + "/"));
    attempt("resolve a name", () => Deno.resolveDns("localhost", "A"));
    attempt("read the environment", () => Deno.env.get("HOME"));
    attempt("list the environment", () => Deno.env.toObject());
    attempt("set the environment", () => Deno.env.set("NAZM_PROBE", "1"));
    attempt("spawn a process", () => new Deno.Command("true").outputSync());
    attempt("read the host name", () => Deno.hostname());
    attempt("read the OS release", () => Deno.osRelease());
    attempt("load a native library", () => Deno.dlopen(t.library, {}));
    attempt("import a local module", () => import(t.module));
    attempt("import a remote module", () => import(t.remote));
  }
  write(JSON.stringify(g.$probes) + "\\n");
}`;
}

const LIMITS: RunLimits = { timeoutMs: 10_000, outputLimit: 1 << 20 };

Deno.test("a program run by nazm run can read, write, connect, spawn and see nothing", async () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "nazm-probe-" }));
  const secret = join(dir, "secret.txt");
  const module = join(dir, "local.js");
  Deno.writeTextFileSync(secret, "secret\n");
  Deno.writeTextFileSync(module, "export const x = 1;\n");
  Deno.writeTextFileSync(join(dir, "main.nz"), 'fn main() {\n  print("probe");\n}\n');
  try {
    // The files are there: this process, which has the permissions, reads them.
    assertEquals(Deno.readTextFileSync(secret), "secret\n");
    const library = ["/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/libc.so.6", "/lib/libc.so.6"]
      .find((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      }) ?? "/lib/x86_64-linux-gnu/libc.so.6";

    const compilation = loadCompilation(join(dir, "main.nz"), { resolve: true });
    const text = generateModule(compilation, { entry: "worker" });
    assert(PRINT.test(text), "the runtime's print is where the probe expects it");
    const probed = text.replace(
      PRINT,
      probeSource({
        secret,
        dir,
        newFile: join(dir, "new.txt"),
        newDir: join(dir, "new"),
        // Refused before any packet: nothing needs to listen there.
        port: "8080",
        library,
        module: `file://${module}`,
        // Not a literal in the probe, or a test run would prefetch it while building the graph.
        remote: "https://deno.land/x/nazm_probe.js",
      }),
    );
    const worker = await ProgramWorker.start(probed);
    try {
      let first = "";
      await worker.run(null, LIMITS, (s) => (first += s));
      assert(first.includes("read a file"), first);
      // The asynchronous attempts settle while the worker is idle; a second run reports them.
      let results: Record<string, string> = {};
      for (let i = 0; i < 50; i++) {
        await new Promise((r) => setTimeout(r, 100));
        let out = "";
        await worker.run(null, LIMITS, (s) => (out += s));
        results = JSON.parse(out);
        if (!Object.values(results).includes("pending")) break;
      }
      const allowed = Object.entries(results).filter(([, outcome]) => outcome !== "NotCapable");
      assertEquals(allowed, [], "every attempt fails with NotCapable");
      assertEquals(Object.keys(results).length, 20);
    } finally {
      worker.close();
    }
    // Nothing happened on disk.
    assertEquals(Deno.readTextFileSync(secret), "secret\n");
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "local.js",
      "main.nz",
      "secret.txt",
    ]);
    assertEquals(Deno.env.get("NAZM_PROBE"), undefined);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("program workers are started with no permission at all", () => {
  const options = programWorkerOptions() as WorkerOptions & { deno?: { permissions?: unknown } };
  assertEquals(options.deno?.permissions, "none");
  assertEquals(options.type, "module");
});
