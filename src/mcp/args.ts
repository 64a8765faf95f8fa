/**
 * nazm-mcp's command line: flags, and the paths they name made absolute and
 * real. Every problem is one clear line for stderr and exit status 2, found
 * before any protocol traffic.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { isWithin } from "../base/launch.ts";
import type { ContentMode, ToolNaming } from "./publishing.ts";
import type { ServerPaths } from "./types.ts";

/** The usage text printed by --help. */
export const USAGE =
  `nazm-mcp — read-only MCP stdio server: compiler-backed facts about one Nazm program

Usage:
  nazm-mcp --root FILE [--source-root DIR] [--docs DIR]
           [--text-content[=all|refusals]] [--tool-names=dotted|underscore]
  nazm-mcp --help | --version

Options:
  --root FILE          the root module (.nz) of the one compilation every answer is about
  --source-root DIR    the folder imports resolve under (default: the root's folder)
  --docs DIR           the Nazm repository whose documentation the docs tools read
                       (default: the repository this server was built from)
  --text-content       also carry each result's JSON as one text block (=all)
  --text-content=refusals
                       give a refusal one text block "reason: message"; answers
                       stay structured only
                       (default: each result once, in structuredContent, content [])
  --tool-names=underscore
                       publish nazm_semantic_context and so on, for clients whose
                       tool names must match ^[a-zA-Z0-9_-]+$ (default: dotted,
                       nazm.semantic_context)
  --help               print this text and exit
  --version            print the version and exit

An MCP client starts it as a stdio server, for example:
  { "command": "nazm-mcp", "args": ["--root", "/absolute/path/to/main.nz"] }

Environment:
  NAZM_LOG             log level on stderr: error, warn (default), info or debug
`;

/** What the command line asks for. */
export type Command =
  | { kind: "help" }
  | { kind: "version" }
  | {
    kind: "serve";
    root: string;
    sourceRoot?: string;
    docs?: string;
    content: ContentMode;
    toolNames: ToolNaming;
  }
  | { kind: "error"; message: string };

const VALUE_FLAGS = ["--root", "--source-root", "--docs", "--tool-names"] as const;

const CONTENT_MODES: Readonly<Record<string, ContentMode>> = { all: "all", refusals: "refusals" };
const TOOL_NAMINGS: Readonly<Record<string, ToolNaming>> = {
  dotted: "dotted",
  underscore: "underscore",
};

/** Parses argv; touches no file. */
export function parseArgs(argv: readonly string[]): Command {
  const values: Record<string, string> = {};
  let content: ContentMode | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") return { kind: "help" };
    if (arg === "--version" || arg === "-V") return { kind: "version" };
    // Its value is optional, so it is only ever attached: `--text-content refusals`
    // would be a stray argument, never a silently different mode.
    if (arg === "--text-content" || arg.startsWith("--text-content=")) {
      if (content !== undefined) {
        return { kind: "error", message: "--text-content is given twice" };
      }
      const value = arg === "--text-content" ? "all" : arg.slice("--text-content=".length);
      if (!Object.hasOwn(CONTENT_MODES, value)) {
        return {
          kind: "error",
          message: `--text-content takes all or refusals, not ${JSON.stringify(value)}`,
        };
      }
      content = CONTENT_MODES[value];
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 && arg.startsWith("--") ? arg.slice(0, eq) : arg;
    if ((VALUE_FLAGS as readonly string[]).includes(name)) {
      let value: string | undefined;
      if (eq > 0 && arg.startsWith("--")) value = arg.slice(eq + 1);
      else {
        value = argv[i + 1];
        i++;
      }
      if (value === undefined || value === "") {
        return { kind: "error", message: `${name} needs a value` };
      }
      if (name in values) {
        return { kind: "error", message: `${name} is given twice` };
      }
      values[name] = value;
      continue;
    }
    if (arg.startsWith("-")) {
      return { kind: "error", message: `unknown flag ${arg}` };
    }
    return { kind: "error", message: `unexpected argument ${arg}` };
  }
  const naming = values["--tool-names"] ?? "dotted";
  if (!Object.hasOwn(TOOL_NAMINGS, naming)) {
    return {
      kind: "error",
      message: `--tool-names takes dotted or underscore, not ${JSON.stringify(naming)}`,
    };
  }
  if (values["--root"] === undefined) {
    return { kind: "error", message: "--root FILE is required" };
  }
  return {
    kind: "serve",
    root: values["--root"],
    sourceRoot: values["--source-root"],
    docs: values["--docs"],
    content: content ?? "structured",
    toolNames: TOOL_NAMINGS[naming],
  };
}

/**
 * Makes the paths absolute and real and checks them: the root exists, is a
 * file and ends in .nz; the source root is a folder holding the root; the
 * docs repository is a folder. Throws an Error with a one-line message.
 */
export function resolvePaths(
  command: { root: string; sourceRoot?: string; docs?: string },
  defaultDocs: string,
  cwd: string = Deno.cwd(),
): ServerPaths {
  const rootGiven = resolve(cwd, command.root);
  if (!rootGiven.endsWith(".nz")) {
    throw new Error(`--root ${command.root} is not a .nz file`);
  }
  const root = realFile(rootGiven, `--root ${command.root}`);
  if (!root.endsWith(".nz")) {
    throw new Error(
      `--root ${command.root} resolves to ${root}, which is not a .nz file`,
    );
  }
  const sourceRoot = command.sourceRoot === undefined ? dirname(root) : realDir(
    resolve(cwd, command.sourceRoot),
    `--source-root ${command.sourceRoot}`,
  );
  if (!isWithin(sourceRoot, root)) {
    throw new Error(
      `--source-root ${sourceRoot} does not contain the root ${root}`,
    );
  }
  const docsRoot = command.docs === undefined
    ? realDirOrSelf(defaultDocs)
    : realDir(resolve(cwd, command.docs), `--docs ${command.docs}`);
  return { root, sourceRoot, docsRoot };
}

function realFile(path: string, what: string): string {
  return realEntry(path, what, "file");
}

function realDir(path: string, what: string): string {
  return realEntry(path, what, "directory");
}

/** The real path of `path`, which must exist and be a `kind`; otherwise an error naming `what`. */
function realEntry(path: string, what: string, kind: "file" | "directory"): string {
  let info: Deno.FileInfo;
  let real: string;
  try {
    real = Deno.realPathSync(path);
    info = Deno.statSync(real);
  } catch (error) {
    throw new Error(
      `${what} does not exist or cannot be read (${reason(error)})`,
    );
  }
  if (kind === "file" ? !info.isFile : !info.isDirectory) {
    throw new Error(`${what} is not a ${kind}`);
  }
  return real;
}

// A compiled binary's embedded repository lives in a virtual file system
// where realPath may not apply; its path is already absolute and final.
function realDirOrSelf(path: string): string {
  try {
    return realDir(path, `the built-in docs repository ${path}`);
  } catch (error) {
    if (isAbsolute(path)) {
      try {
        if (Deno.statSync(path).isDirectory) return path;
      } catch {
        // fall through to the original error
      }
    }
    throw error;
  }
}

function reason(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "not found";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  return error instanceof Error ? error.name : String(error);
}
