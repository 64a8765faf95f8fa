/**
 * Everything nazm-mcp's analysis must not be able to do, tried from where
 * it runs: each outcome is the error's name ("NotCapable") or "ok". Shared
 * by the probes of worker_permissions_test.ts.
 */

export interface Targets {
  inside: string;
  docs: string;
  outside: string;
  symlinkOut: string;
  writeInside: string;
  ownCode: string;
  restOfRepository: string;
  analysisPackage: string;
  otherPackage: string;
}

type Attempt = () => unknown;

// Held in a variable so that no tool (lint, compile) treats it as a dependency.
const REMOTE_MODULE = ["https:", "", "example.com", "mod.ts"].join("/");

async function attempt(fn: Attempt): Promise<string> {
  try {
    await fn();
    return "ok";
  } catch (error) {
    if (!(error instanceof Error)) return String(error);
    // fetch and import() wrap the permission error in a TypeError
    if (
      error.name === "TypeError" &&
      /NotCapable|Requires \w+ access/.test(error.message)
    ) {
      return "NotCapable";
    }
    return error.name === "NotCapable" ? error.name : `${error.name}: ${error.message}`;
  }
}

/** Tries each thing; the outcome of each by its description: "ok", or the error's name. */
export async function tryAll(t: Targets): Promise<Record<string, string>> {
  const attempts: Record<string, Attempt> = {
    "read a file of the source root": () => Deno.readTextFileSync(t.inside),
    "read a file of the docs repository": () => Deno.readTextFileSync(t.docs),
    "read /etc/passwd": () => Deno.readTextFileSync("/etc/passwd"),
    "read a file outside both roots": () => Deno.readTextFileSync(t.outside),
    "stat /etc": () => Deno.statSync("/etc"),
    "list /": () => [...Deno.readDirSync("/")],
    "read through a symlink out of the root": () => Deno.readTextFileSync(t.symlinkOut),
    "read the server's own code": () => Deno.readTextFileSync(t.ownCode),
    "read the rest of the server's repository": () => Deno.readTextFileSync(t.restOfRepository),
    "read an npm package the analysis imports": () => Deno.readTextFileSync(t.analysisPackage),
    "read another npm package": () => Deno.readTextFileSync(t.otherPackage),
    "write inside the source root": () => Deno.writeTextFileSync(t.writeInside, "x"),
    "create a folder inside the source root": () => Deno.mkdirSync(t.writeInside + ".d"),
    "remove a file of the source root": () => Deno.removeSync(t.inside),
    "write /tmp": () => Deno.writeTextFileSync("/tmp/nazm-probe-should-not-exist", "x"),
    "connect with fetch": () => fetch("http://127.0.0.1:65000/"),
    "connect with Deno.connect": () => Deno.connect({ hostname: "127.0.0.1", port: 65000 }),
    "listen": () => Deno.listen({ port: 0 }),
    "spawn a process": () => new Deno.Command("true").outputSync(),
    "read the environment": () => Deno.env.get("HOME"),
    "read the whole environment": () => Deno.env.toObject(),
    "read system information": () => Deno.hostname(),
    "load a native library": () => Deno.dlopen("libc.so.6", {}),
    "import a remote module": () => import(REMOTE_MODULE),
  };
  const results: Record<string, string> = {};
  for (const [name, fn] of Object.entries(attempts)) {
    results[name] = await attempt(fn);
  }
  return results;
}
