/**
 * `nazm <subcommand> ...`: a small dispatcher. Each subcommand is one entry
 * of {@link SUBCOMMANDS}: its name, a one-line summary for the usage text,
 * and a function from its arguments to an exit status. Adding a subcommand
 * is adding an entry.
 *
 * Exit status: 0 success, 1 the command found errors, 2 usage error;
 * `nazm run` also exits with the program's own status or a runtime
 * error's (src/cli/run.ts).
 *
 * Permissions: the task grants read, write and worker options. Write is
 * revoked at startup for every subcommand but `build`, which writes its
 * one output file; programs run in workers with no permission at all.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { check } from "./check.ts";
import { context, delta, diagnostics, patch, snapshot } from "./facts.ts";
import { fmtCommand, parseCommand } from "./syntax.ts";
import { docs } from "./docs.ts";
import { repo } from "./repo.ts";
import type { CommandIo, Subcommand } from "./io.ts";
import { buildCommand, runCommand, testCommand } from "./run.ts";

/**
 * The repository this program was built from: its docs/, manifest and
 * examples, two levels above this module (in a compiled binary, the
 * embedded copy). What `--docs` defaults to.
 */
export const BUILT_REPOSITORY: string = fileURLToPath(new URL("../../", import.meta.url));

export const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  parse: {
    summary: "parse FILE: the syntax tree and syntax diagnostics as JSON",
    run: parseCommand,
  },
  fmt: {
    summary: "fmt FILE: print the canonical layout (refused on a syntax error)",
    run: fmtCommand,
  },
  check: {
    summary: "check ROOT [--source-root DIR] [--json | --summary-json]: report diagnostics",
    run: check,
  },
  context: {
    summary: "context FILE LINE:COLUMN [--root ROOT]: the semantic context packet (nazm.context/4)",
    run: context,
  },
  snapshot: { summary: "snapshot ROOT: the semantic snapshot (nazm.snapshot/4)", run: snapshot },
  delta: {
    summary: "delta BASELINE.json --root ROOT: what changed since a snapshot (nazm.delta/2)",
    run: delta,
  },
  patch: {
    summary:
      "patch rename FILE LINE:COLUMN NEW_NAME | patch fix ID INDEX --state S: a planned edit (nazm.patch/2)",
    run: patch,
  },
  diagnostics: {
    summary: "diagnostics ROOT | diagnostics ID --state S --root ROOT: the index, or one in full",
    run: diagnostics,
  },
  docs: {
    summary: "docs index | section ID --state S: Nazm's documentation by section",
    run: docs,
  },
  repo: {
    summary: "repo map | context SEED... --state S: the repository map, a task's context",
    run: repo,
  },
  run: {
    summary:
      "run FILE [--timeout SECONDS] [--max-output BYTES]: check, then run main with no permission",
    run: runCommand,
  },
  test: {
    summary: "test ROOT [--filter TEXT] [--summary-json]: run the test functions, each alone",
    run: testCommand,
  },
  build: {
    summary: "build FILE -o OUT [--summary-json]: one JavaScript file for `deno run` or `node`",
    run: buildCommand,
  },
};

function usage(): string {
  const lines = Object.entries(SUBCOMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
  return `usage: nazm <subcommand> [arguments]\n\nsubcommands:\n${lines.join("\n")}\n`;
}

/**
 * Runs the command line; returns the exit status (a promise for the
 * subcommands that run programs).
 */
export function main(
  args: readonly string[],
  io: Pick<CommandIo, "stdout" | "stderr">,
): number | Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout)(usage());
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (command === undefined) {
    io.stderr(`nazm: unknown subcommand \`${name}\`\n\n${usage()}`);
    return 2;
  }
  return command.run({ ...io, args: rest, repository: BUILT_REPOSITORY });
}

if (import.meta.main) {
  const encoder = new TextEncoder();
  const write = (fd: { writeSync(p: Uint8Array): number }) => {
    // A closed pipe (`nazm check … | head`) ends the output, not the process with a trace.
    let open = true;
    return (text: string) => {
      const bytes = encoder.encode(text);
      let off = 0;
      while (open && off < bytes.length) {
        try {
          off += fd.writeSync(bytes.subarray(off));
        } catch (e) {
          if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
          open = false;
        }
      }
    };
  };
  // Only `nazm build` writes, and only its output file.
  if (Deno.args[0] !== "build") Deno.permissions.revokeSync({ name: "write" });
  Deno.exit(await main(Deno.args, { stdout: write(Deno.stdout), stderr: write(Deno.stderr) }));
}
