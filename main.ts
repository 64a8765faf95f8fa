/**
 * nazm-mcp: a read-only Model Context Protocol stdio server giving AI agents
 * compiler-backed facts about one Nazm program (see src/mcp/README.md).
 *
 *   deno run --allow-read --allow-env=NAZM_LOG --unstable-worker-options main.ts --root FILE
 *
 * @module
 */
import { VERSION } from "./src/base/launch.ts";
import {
  createLogger,
  generatedValidators,
  logLevelFromEnv,
  parseArgs,
  resolvePaths,
  startConfinedAnalysis,
  USAGE,
} from "./src/mcp/launch.ts";

/**
 * The repository this server was built from: its docs/, schema/ and
 * manifest. For a compiled binary, the same folder inside the binary
 * (embedded with `deno compile --include`).
 */
export const BUILT_REPOSITORY: string = import.meta.dirname!;

function fail(message: string): never {
  Deno.stderr.writeSync(new TextEncoder().encode(`nazm-mcp: ${message}\n`));
  Deno.exit(2);
}

async function main(argv: readonly string[]): Promise<void> {
  const command = parseArgs(argv);
  switch (command.kind) {
    case "help":
      Deno.stdout.writeSync(new TextEncoder().encode(USAGE));
      return;
    case "version":
      Deno.stdout.writeSync(new TextEncoder().encode(`nazm-mcp ${VERSION}\n`));
      return;
    case "error":
      fail(`${command.message} (see nazm-mcp --help)`);
  }
  let paths;
  try {
    paths = resolvePaths(command, BUILT_REPOSITORY);
  } catch (error) {
    fail((error as Error).message);
  }
  const { level, note } = logLevelFromEnv();
  const log = createLogger(level);
  if (note) log.warn(note);
  log.info(
    `root ${paths.root}; source root ${paths.sourceRoot}; docs ${paths.docsRoot}`,
  );
  // The analysis starts before the rest of the server loads (launch.ts).
  // It shares this process's permissions, so it is told the roots only
  // once they allow no read at all: every read is the sandbox's, under its
  // own narrow permission (src/mcp/sandbox.ts).
  const analysis = startConfinedAnalysis(paths, log);
  const bridge = analysis.bridge;
  // The validators load meanwhile too: the analysis waits until they have.
  const validators = generatedValidators(command.toolNames);
  const { startServer, TOOLS } = await import("./src/mcp/mod.ts");
  const server = startServer({
    name: "nazm-mcp",
    version: VERSION,
    tools: TOOLS,
    schemaDir: `${BUILT_REPOSITORY}/schema`,
    paths,
    bridge,
    publication: { content: command.content, names: command.toolNames },
    validators,
    log,
    input: Deno.stdin.readable,
    output: Deno.stdout,
    onExit: () => Deno.exit(0),
  });
  await analysis.confine(server.loaded);
}

if (import.meta.main) await main(Deno.args);
