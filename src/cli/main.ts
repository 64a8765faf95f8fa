/**
 * `nazm <subcommand> ...`: a small dispatcher. Each subcommand is one entry
 * of {@link SUBCOMMANDS}: its name, a one-line summary for the usage text,
 * and a function from its arguments to an exit status. Adding a subcommand
 * is adding an entry.
 *
 * `nazm help NAME` and `nazm NAME --help` print an entry's usage and help
 * to stdout (exit 0); `nazm --version` prints the version.
 *
 * Exit status: 0 success, 1 the command found errors, 2 usage error;
 * `nazm run` also exits with the program's own status or a runtime
 * error's (src/cli/run.ts).
 *
 * Permissions: the task grants read, write, worker options and the one
 * environment variable `nazm lsp`'s protocol library reads. Write is
 * revoked at startup for every subcommand but `build`, which writes its
 * one output file, and the environment for every one but `lsp`; programs
 * run in workers with no permission at all.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { VERSION } from "../base/mod.ts";
import { check, CHECK_USAGE } from "./check.ts";
import {
  context,
  CONTEXT_USAGE,
  delta,
  DELTA_USAGE,
  diagnostics,
  DIAGNOSTICS_USAGE,
  patch,
  PATCH_USAGE,
  snapshot,
  SNAPSHOT_USAGE,
} from "./facts.ts";
import { FMT_USAGE, fmtCommand, PARSE_USAGE, parseCommand } from "./syntax.ts";
import { docs, DOCS_USAGE } from "./docs.ts";
import { repo, REPO_USAGE } from "./repo.ts";
import {
  BUILD_USAGE,
  buildCommand,
  DEFAULT_MAX_OUTPUT,
  DEFAULT_TIMEOUT_SECONDS,
  RUN_USAGE,
  runCommand,
  TEST_USAGE,
  testCommand,
} from "./run.ts";
import { type CommandIo, type Subcommand, usageError } from "./io.ts";

const LSP_USAGE = "lsp [--stdio]";

/**
 * The repository this program was built from: its docs/, manifest and
 * examples, two levels above this module (in a compiled binary, the
 * embedded copy). What `--docs` defaults to.
 */
export const BUILT_REPOSITORY: string = fileURLToPath(new URL("../../", import.meta.url));

/** A usage block from a synopsis whose forms are separated by ` | ` outside brackets. */
function usageOf(synopsis: string): string {
  const forms: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < synopsis.length; i++) {
    if (synopsis[i] === "[") depth++;
    else if (synopsis[i] === "]") depth--;
    else if (depth === 0 && synopsis.startsWith(" | ", i)) {
      forms.push(synopsis.slice(from, i));
      from = i + 3;
    }
  }
  forms.push(synopsis.slice(from));
  if (forms.length === 1) return `usage: nazm ${synopsis}`;
  return `usage:\n${forms.map((f) => `  nazm ${f}`).join("\n")}`;
}

const SOURCE_ROOT =
  "--source-root DIR   the folder module paths start from (default: ROOT's folder)";
const JSON_FACT =
  "\nPrints the JSON the matching nazm-mcp tool returns, on one line. Exit status: 0 with an answer,\n" +
  "1 with a refusal (its JSON printed all the same), 2 on a usage error.";

export const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  parse: {
    summary: "the syntax tree and syntax diagnostics of one file, as JSON",
    usage: usageOf(PARSE_USAGE),
    help:
      "Parses FILE alone (imports are not followed). Exit status: 0 without syntax diagnostics,\n" +
      "1 with some, 2 on a usage error or an unreadable file.",
    run: parseCommand,
  },
  fmt: {
    summary: "print a file in the canonical layout (refused on a syntax error)",
    usage: usageOf(FMT_USAGE),
    help: "Writes the canonical layout of FILE to stdout; the file itself is never changed.\n" +
      "A file with a syntax error is refused with its place. Exit status: 0 formatted, 1 refused,\n" +
      "2 on a usage error or an unreadable file.",
    run: fmtCommand,
  },
  check: {
    summary: "report the diagnostics of a program",
    usage: usageOf(CHECK_USAGE),
    help:
      "Loads ROOT and every module it imports, and reports each diagnostic as rustc lays it out.\n\n" +
      `  ${SOURCE_ROOT}\n` +
      "  --json              one nazm.diagnostic/2 object per diagnostic, in a JSON array\n" +
      "  --summary-json      the nazm.command-summary/1 object nazm.command_summary answers\n\n" +
      "Exit status: 0 without errors (warnings allowed), 1 with errors, 2 on a usage error or an\n" +
      "unreadable root.",
    run: check,
  },
  context: {
    summary: "the semantic context packet of a place (nazm.context/4)",
    usage: usageOf(CONTEXT_USAGE),
    help:
      "The definition at or around LINE:COLUMN of FILE (1-based, columns in characters), its\n" +
      "references and relations; --root names the compilation root when FILE is not it.\n" +
      `${JSON_FACT}`,
    run: context,
  },
  snapshot: {
    summary: "the semantic snapshot of a program (nazm.snapshot/4)",
    usage: usageOf(SNAPSHOT_USAGE),
    help: `Every definition with its shape and digest, and the state.\n${JSON_FACT}`,
    run: snapshot,
  },
  delta: {
    summary: "what changed since a snapshot (nazm.delta/2)",
    usage: usageOf(DELTA_USAGE),
    help: "Compares the program at ROOT with a snapshot saved by `nazm snapshot`.\n" + JSON_FACT,
    run: delta,
  },
  patch: {
    summary: "a planned rename or fix, never applied (nazm.patch/2)",
    usage: usageOf(PATCH_USAGE),
    help:
      "Plans the edit and checks it; nothing on disk changes. A fix is named by a diagnostic's ID\n" +
      "and the INDEX of one of its fixes, at the STATE `nazm diagnostics` answered.\n" + JSON_FACT,
    run: patch,
  },
  diagnostics: {
    summary: "the diagnostic index of a program, or one diagnostic in full",
    usage: usageOf(DIAGNOSTICS_USAGE),
    help:
      "With ROOT, the index (nazm.diagnostic-index/2); with an ID from it, its STATE and ROOT,\n" +
      "that diagnostic in full with its fixes (nazm.diagnostic/2).\n" + JSON_FACT,
    run: diagnostics,
  },
  docs: {
    summary: "Nazm's documentation by section (start with `section language-card`)",
    usage: DOCS_USAGE,
    help:
      "`index` lists every document and section id with the corpus STATE (the whole index is\n" +
      "large; --document ID lists one document); `section` prints one section's exact text.\n" +
      "Start with the language card, the whole language in one section, in two calls:\n" +
      '  nazm docs index --document language-card       (small: its "state" is STATE)\n' +
      "  nazm docs section language-card --state STATE\n" +
      "--docs names the folder holding nazm-repo.json (default: this build's).\n" + JSON_FACT,
    run: docs,
  },
  repo: {
    summary: "the repository map, or the context of a task around some of its entities",
    usage: REPO_USAGE,
    help:
      "`map` lists every entity with its relations and the repository STATE; `context` gives the\n" +
      "smallest context for a task around one to eight SEEDs (ids from the map).\n" + JSON_FACT,
    run: repo,
  },
  run: {
    summary: "check a program, then run its main with no permission",
    usage: usageOf(RUN_USAGE),
    help:
      "The program runs in a worker that can reach nothing outside itself; it prints to stdout,\n" +
      "a runtime error goes to stderr.\n\n" +
      `  ${SOURCE_ROOT}\n` +
      `  --timeout SECONDS   stop the program after this long (default: ${DEFAULT_TIMEOUT_SECONDS})\n` +
      `  --max-output BYTES  stop the program past this much output (default: ${DEFAULT_MAX_OUTPUT})\n\n` +
      "Exit status: what main returns (0 to 100; 0 for a Unit main), 1 when the program has errors\n" +
      "(nothing ran), 2 on a usage error, 101 to 111 for a runtime error (specification §13.9).",
    run: runCommand,
  },
  test: {
    summary: "run the test functions of a program, each alone",
    usage: usageOf(TEST_USAGE),
    help: "Runs every `test fn` of ROOT and the modules it imports, each in a fresh worker.\n\n" +
      `  ${SOURCE_ROOT}\n` +
      "  --filter TEXT       only the tests whose name contains TEXT\n" +
      `  --timeout SECONDS   the limit of each test (default: ${DEFAULT_TIMEOUT_SECONDS})\n` +
      `  --max-output BYTES  the output limit of each test (default: ${DEFAULT_MAX_OUTPUT})\n` +
      "  --summary-json      one nazm.test-summary/1 object instead of the text report\n\n" +
      "Exit status: 0 when every test passed, 1 when one failed or the program has errors, 2 on a\n" +
      "usage error.",
    run: testCommand,
  },
  build: {
    summary: "one JavaScript file that runs the program under `deno run` or `node`",
    usage: usageOf(BUILD_USAGE),
    help: "Checks FILE and writes the program to OUT (the only file nazm ever writes).\n\n" +
      `  ${SOURCE_ROOT}\n` +
      "  -o, --output OUT    the file to write\n" +
      "  --summary-json      one nazm.build-summary/1 object on stdout\n\n" +
      "Exit status: 0 written, 1 when the program has errors (nothing written), 2 on a usage error\n" +
      "or an unwritable OUT.",
    run: buildCommand,
  },
  help: {
    summary: "what a subcommand takes and does",
    usage: "usage: nazm help [SUBCOMMAND]",
    help: "Prints a subcommand's usage, options and exit statuses to stdout, as\n" +
      "`nazm SUBCOMMAND --help` does; without SUBCOMMAND, the list of subcommands.\n" +
      "`nazm --version` (or `-V`) prints the version.\n\n" +
      "Exit status: 0 with the help, 2 for an unknown subcommand (its message on stderr).",
    run: (io) => helpCommand(io.args, io),
  },
  lsp: {
    summary: "the language server for editors, over stdio (README: editors)",
    usage: usageOf(LSP_USAGE),
    help:
      "Serves the Language Server Protocol on stdin and stdout for an editor: diagnostics as you\n" +
      "type, fixes, hover, definition, references, rename, formatting, completion and more, on the\n" +
      "compilation of the editor's buffers over the disk. It writes no file: edits go back to the\n" +
      "editor. Run by Deno with --allow-read --allow-env=XDG_RUNTIME_DIR only.\n\n" +
      "  --stdio   accepted, and the default (editors pass it)\n\n" +
      "Exit status: 0 after shutdown and exit, 1 on exit without shutdown, 2 on a usage error.",
    // Loaded only here: the protocol library is no other subcommand's cost.
    run: async (io) => {
      const unexpected = io.args.find((a) => a !== "--stdio");
      if (unexpected !== undefined) {
        return usageError(io, "lsp", `unexpected argument \`${unexpected}\``, LSP_USAGE);
      }
      return (await import("../lsp/mod.ts")).serveLanguageServer();
    },
  },
};

function usage(): string {
  const lines = Object.entries(SUBCOMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
  return "usage: nazm <subcommand> [arguments]\n" +
    "       nazm help <subcommand> | nazm <subcommand> --help\n" +
    "       nazm --version\n\n" +
    `subcommands:\n${lines.join("\n")}\n`;
}

/** `nazm help NAME`: the subcommand's usage, summary and details. */
function helpOf(name: string, command: Subcommand): string {
  return `${command.usage}\n\n${name}: ${command.summary}\n\n${command.help}\n`;
}

function subcommandNamed(name: string): Subcommand | undefined {
  return Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
}

/** `nazm help [NAME]`: help on stdout (exit 0); an unknown name is a usage error. */
function helpCommand(args: readonly string[], io: Omit<CommandIo, "args">): number {
  if (args.length === 0) {
    io.stdout(usage());
    return 0;
  }
  const command = args.length === 1 ? subcommandNamed(args[0]) : undefined;
  if (command === undefined) {
    const problem = args.length === 1
      ? `unknown subcommand \`${args[0]}\``
      : `unexpected argument \`${args[1]}\``;
    io.stderr(`nazm help: ${problem}\n\n${usage()}`);
    return 2;
  }
  io.stdout(helpOf(args[0], command));
  return 0;
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
  if (name === "--version" || name === "-V") {
    io.stdout(`nazm ${VERSION}\n`);
    return 0;
  }
  const command = subcommandNamed(name);
  if (command === undefined) {
    io.stderr(`nazm: unknown subcommand \`${name}\`\n\n${usage()}`);
    return 2;
  }
  // No subcommand takes `--help` or `-h` as a value, so either one anywhere asks for help.
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(helpOf(name, command));
    return 0;
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
  // Only `nazm lsp` reads an environment variable: its protocol library's one, at load.
  if (Deno.args[0] !== "lsp") Deno.permissions.revokeSync({ name: "env" });
  Deno.exit(await main(Deno.args, { stdout: write(Deno.stdout), stderr: write(Deno.stderr) }));
}
