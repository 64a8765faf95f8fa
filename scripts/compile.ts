/**
 * Builds the nazm-mcp binaries with `deno compile` (`deno task compile`):
 * one per target, into dist/, with exactly the permission flags of
 * `deno task mcp` and the repository's documentation, schemas and manifest
 * embedded, so a binary's default `--docs` is itself.
 *
 *   deno task compile                       # all five targets
 *   deno task compile --target x86_64-unknown-linux-gnu
 *   deno task compile --dry-run             # print the commands only
 *
 * What is embedded, and why:
 * - src/mcp/sandbox.ts, src/mcp/worker.ts: deno compile does not follow
 *   `new Worker(...)`; the sandbox, the analysis and their module graphs
 *   must be included explicitly.
 * - src/mcp/validators: the server loads its naming's validators with an
 *   `import()` of a literal specifier, which deno compile follows; the
 *   folder is named as well, so that no binary lacks the other naming's.
 * - src/docs/mod.ts, src/repo/mod.ts: the analysis loads them at the first
 *   call of a documentation or repository tool, by an `import()` of a
 *   literal specifier (src/mcp/handlers.ts); named too, for the same reason.
 * - docs, schema, nazm-repo.json: the built-in docs repository (the docs
 *   and repository tools read them through the same path as on disk:
 *   `import.meta.dirname` of main.ts, which inside a binary is its embedded
 *   file system) and the published schemas tools/list serves.
 * - each compilation root's folder named by nazm-repo.json (examples/...):
 *   nazm.repository_map and nazm.task_context read them.
 *
 * `deno compile` downloads the runtime for each target on first use (into
 * DENO_DIR); on a machine that cannot reach dl.deno.land it fails with a DNS
 * error, which this script reports per target. Tests check the flags
 * (tests/security/process_flags_test.ts) and run the same flags through
 * `deno run`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO: string = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Every target nazm-mcp ships for. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/** The runtime flags: exactly `deno task mcp`'s, nothing more. */
export const RUNTIME_FLAGS = [
  "--allow-read",
  "--allow-env=NAZM_LOG",
  "--unstable-worker-options",
] as const;

/**
 * The server's own lock file, frozen: a binary holds exactly the packages
 * the server imports (the tests' and benchmarks' are in dev.lock only).
 */
export const LOCK_FLAGS = ["--lock=server.lock", "--frozen"] as const;

/** What every binary embeds, relative to the repository. */
export function includes(): string[] {
  const manifest = JSON.parse(
    Deno.readTextFileSync(join(REPO, "nazm-repo.json")),
  );
  const roots = (manifest.compilation_roots ?? []) as { path: string }[];
  const folders = [...new Set(roots.map((root) => dirname(root.path)))].sort();
  return [
    "src/mcp/sandbox.ts",
    "src/mcp/worker.ts",
    "src/mcp/validators",
    "src/docs/mod.ts",
    "src/repo/mod.ts",
    "docs",
    "schema",
    "nazm-repo.json",
    ...folders,
  ];
}

/** The output file of a target. */
export function outputOf(target: string): string {
  return join(
    "dist",
    `nazm-mcp-${target}${target.includes("windows") ? ".exe" : ""}`,
  );
}

/** The `deno compile` arguments for one target. */
export function compileArgs(target: string): string[] {
  return [
    "compile",
    ...RUNTIME_FLAGS,
    ...LOCK_FLAGS,
    ...includes().flatMap((path) => ["--include", path]),
    "--target",
    target,
    "--output",
    outputOf(target),
    "main.ts",
  ];
}

async function main(args: readonly string[]): Promise<number> {
  const dryRun = args.includes("--dry-run");
  const at = args.indexOf("--target");
  const chosen = at >= 0 ? [args[at + 1]] : [...TARGETS];
  for (const target of chosen) {
    if (!(TARGETS as readonly string[]).includes(target)) {
      console.error(`unknown target ${target}; one of ${TARGETS.join(", ")}`);
      return 2;
    }
  }
  let failed = 0;
  for (const target of chosen) {
    const argv = compileArgs(target);
    console.error(`deno ${argv.join(" ")}`);
    if (dryRun) continue;
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: argv,
      cwd: REPO,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) {
      console.error(`compile: ${target} failed (exit ${code})`);
      failed++;
    }
  }
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
