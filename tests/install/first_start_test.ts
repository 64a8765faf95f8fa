/**
 * The first start from a checkout is light and works offline after
 * `deno task setup`:
 *
 * - server.lock (the server's and the command line's packages) and dev.lock
 *   (everything, with the tests' and benchmarks') are exactly what
 *   `deno task lock:update` writes, and agree on every package they share;
 * - deno.json's import map names only the server's packages (`deno task`
 *   installs every package it names); the tests' and benchmarks' are scoped
 *   to tests/ and bench/;
 * - `deno task setup` into an empty Deno cache fetches only server.lock's
 *   packages, and after it the server and the command line start with
 *   `--cached-only` (no network at all) and answer.
 *
 * The download size and time are measured by `deno task bench:first-start`.
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  childEnv,
  EXAMPLE_ROOT,
  legacyOpening,
  REPO,
  SERVER_FLAGS,
  transcript,
} from "../support/server.ts";
import { join } from "node:path";

const config = JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json")));
const ENTRIES = {
  "server.lock": ["main.ts", "src/mcp/worker.ts", "src/cli/main.ts"],
  "dev.lock": ["main.ts", "src/", "scripts/", "bench/", "tests/"],
} as const;

type Lock = { specifiers: Record<string, string>; npm: Record<string, unknown> };

function readLock(path: string): Lock {
  return JSON.parse(Deno.readTextFileSync(path));
}

/**
 * Runs deno in the repository: with `network`, in this process's whole
 * environment (a user's shell: proxies, certificates); otherwise with only
 * what a client such as Gemini CLI passes.
 */
async function deno(args: string[], env: Record<string, string> = {}, network = false) {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: REPO,
    env: network
      ? { DENO_NO_UPDATE_CHECK: "1", ...env }
      : childEnv({ DENO_NO_UPDATE_CHECK: "1", ...env }),
    clearEnv: !network,
  }).output();
  const text = new TextDecoder();
  return {
    code: output.code,
    stdout: text.decode(output.stdout),
    stderr: text.decode(output.stderr),
  };
}

/**
 * A lock's packages by name, each with its dependencies' names: what a
 * fresh resolution must give. The versions are the lock's to pin: a fresh
 * one takes the newest a range allows, which moves whenever a package
 * deep in the graph is published again (cross-spawn 7.1.2 did, after the
 * locks were written), and says nothing about the lock being stale.
 */
function lockShape(lock: Lock): Record<string, string[]> {
  const name = (key: string) => key.replace(/@[^@/]+$/, "");
  const shape: Record<string, string[]> = {};
  for (const [key, entry] of Object.entries(lock.npm)) {
    const dependencies = (entry as { dependencies?: string[] }).dependencies ?? [];
    shape[name(key)] = dependencies.map(name).sort();
  }
  return shape;
}

Deno.test("locks: server.lock and dev.lock are what `deno task lock:update` writes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "nazm-locks-" });
  try {
    for (const [lock, entries] of Object.entries(ENTRIES)) {
      // The committed lock holds every package the graph needs…
      const frozen = await deno(["cache", `--lock=${lock}`, "--frozen", ...entries], {}, true);
      assertEquals(frozen.code, 0, `${lock} is out of date: ${frozen.stderr}`);
      // …and no other, and the same direct ones, pinned alike.
      const fresh = join(dir, lock);
      const run = await deno(["cache", `--lock=${fresh}`, ...entries], {}, true);
      assertEquals(run.code, 0, run.stderr);
      const committed = readLock(join(REPO, lock));
      assertEquals(
        lockShape(readLock(fresh)),
        lockShape(committed),
        `${lock} is out of date: run deno task lock:update`,
      );
      assertEquals(readLock(fresh).specifiers, committed.specifiers);
    }
    assertEquals(
      config.tasks["lock:update"],
      "rm -f server.lock dev.lock && " +
        Object.entries(ENTRIES).map(([lock, entries]) =>
          `deno cache --lock=${lock} ${entries.join(" ")}`
        ).join(" && "),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("locks: the server's lock is the development lock's subset, package for package", () => {
  const server = readLock(join(REPO, "server.lock"));
  const dev = readLock(join(REPO, "dev.lock"));
  for (const [name, entry] of Object.entries(server.npm)) {
    assertEquals(dev.npm[name], entry, name);
  }
  for (const [specifier, version] of Object.entries(server.specifiers)) {
    assertEquals(dev.specifiers[specifier], version, specifier);
  }
  const testOnly = ["typescript", "fast-check", "ajv", "@modelcontextprotocol/client"];
  for (const name of Object.keys(server.npm)) {
    assert(!testOnly.some((only) => name.startsWith(`${only}@`)), `server.lock holds ${name}`);
  }
});

Deno.test("locks: deno.json maps only the server's packages at the top; the rest only for tests/, bench/ and scripts/", () => {
  assertEquals(Object.keys(config.imports).sort(), [
    "@modelcontextprotocol/core",
    "@modelcontextprotocol/server",
    "hash-wasm",
    "vscode-languageserver",
    "vscode-languageserver-textdocument",
    "zod",
  ]);
  assertEquals(Object.keys(config.scopes).sort(), ["./bench/", "./scripts/", "./tests/"]);
  const all = new Map(Object.entries(config.imports as Record<string, string>));
  for (const scope of Object.values(config.scopes as Record<string, Record<string, string>>)) {
    for (const [name, specifier] of Object.entries(scope)) {
      assert(all.get(name) === undefined || all.get(name) === specifier, `${name} pinned twice`);
      all.set(name, specifier);
    }
  }
  for (const specifier of all.values()) {
    assert(/^npm:[^@]*@?[^@]+@\d+\.\d+\.\d+$/.test(specifier), specifier);
  }
  assertEquals(config.lock, false, "bare deno commands write no lock file");
  for (const [task, command] of Object.entries(config.tasks as Record<string, string>)) {
    if (/^deno (run|test|check|cache) /.test(command)) {
      assert(/ --lock=(server|dev)\.lock --frozen /.test(command), `task ${task} names its lock`);
    }
  }
});

Deno.test("setup: an empty cache gets only the server's packages, and then the server starts with no network", async () => {
  const denoDir = await Deno.makeTempDir({ prefix: "nazm-setup-" });
  try {
    const setup = await deno(["task", "setup"], { DENO_DIR: denoDir }, true);
    assertEquals(setup.code, 0, setup.stderr);
    const cached = [...Deno.readDirSync(join(denoDir, "npm", "registry.npmjs.org"))]
      .flatMap((entry) =>
        entry.name.startsWith("@")
          ? [...Deno.readDirSync(join(denoDir, "npm", "registry.npmjs.org", entry.name))]
            .map((scoped) => `${entry.name}/${scoped.name}`)
          : [entry.name]
      ).sort();
    const locked = Object.keys(readLock(join(REPO, "server.lock")).npm)
      .map((name) => name.slice(0, name.lastIndexOf("@"))).sort();
    assertEquals(cached, locked);

    const env = { DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1" };
    const offline = ["--cached-only", `--lock=${join(REPO, "server.lock")}`, "--frozen"];
    const t = await transcript([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "nazm.semantic_context",
          arguments: { file: "main.nz", position: { line: 5, column: 4 } },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
    ], {
      env,
      denoArgs: ["run", ...offline, ...SERVER_FLAGS, join(REPO, "main.ts"), "--root", EXAMPLE_ROOT],
    });
    assertEquals(t.code, 0, t.stderr);
    const result = t.messages[0].result as { structuredContent: { target: { name: string } } };
    assertEquals(result.structuredContent.target.name, "describe");

    const check = await deno(
      ["run", ...offline, "--allow-read", "src/cli/main.ts", "check", "examples/shapes/main.nz"],
      env,
    );
    assertEquals(check.code, 0, check.stderr);
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
});

Deno.test("README: the checkout configuration is the tests' command and starts the server", async () => {
  const readme = Deno.readTextFileSync(join(REPO, "README.md"));
  const from = readme.indexOf("From a checkout, run it through Deno");
  const block = /```json\n([\s\S]*?)\n```/.exec(readme.slice(from))![1];
  const documented = JSON.parse(
    block.replaceAll("/absolute/path/to/nazm", REPO).replaceAll(
      "/absolute/path/to/main.nz",
      EXAMPLE_ROOT,
    ),
  ).mcpServers.nazm as { command: string; args: string[]; env: Record<string, string> };
  assertEquals(documented.command, "deno");
  assertEquals(documented.env, { DENO_NO_UPDATE_CHECK: "1" });
  const tasks = config.tasks as Record<string, string>;
  const flags = tasks.mcp.replace(/^deno run /, "").replace(/ main\.ts$/, "").split(" ");
  assertEquals(
    documented.args.slice(0, 1 + flags.length),
    ["run", ...flags.map((flag) => flag.replace("server.lock", join(REPO, "server.lock")))],
  );
  const t = await transcript([
    ...legacyOpening(),
    { jsonrpc: "2.0", id: 1, method: "tools/list" },
  ], { env: documented.env, denoArgs: documented.args });
  assertEquals(t.code, 0, t.stderr);
  assertEquals(
    (t.messages.find((m) => m.id === 1)!.result as { tools: unknown[] }).tools.length,
    11,
  );
  // Every configuration the README shows that runs Deno turns its update check off.
  const runsDeno = [...readme.matchAll(/"command": "deno"|command = "deno"|claude mcp add /g)];
  assert(runsDeno.length >= 4, "the README shows the checkout form for several clients");
  for (const match of runsDeno) {
    const rest = readme.slice(match.index);
    const end = Math.min(...["```", "\n\n", "`\n"].map((stop) => {
      const at = rest.indexOf(stop, match[0].length);
      return at === -1 ? rest.length : at;
    }));
    assert(/DENO_NO_UPDATE_CHECK( = |": |=)"?1/.test(rest.slice(0, end)), rest.slice(0, end));
  }
});
