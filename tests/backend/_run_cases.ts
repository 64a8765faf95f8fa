/**
 * The conformance suite's cases (tests/run/): one program a case — a file
 * `NAME.nz`, or a folder `NAME/` whose root is `main.nz` — plus the bundled
 * examples, each with its expectation `tests/run/NAME.out` beside it: the
 * exit status, stdout and stderr of `nazm run`, every line prefixed `| `.
 * A case's first line may give `nazm run` flags: `// args: --timeout 0.2`.
 *
 * @module
 */
import { main } from "../../src/cli/main.ts";

export const RUN_DIR = "tests/run";

export interface RunCase {
  readonly name: string;
  /** The root file to run. */
  readonly root: string;
  /** Where its expectation is. */
  readonly expected: string;
  /** Extra `nazm run` flags. */
  readonly args: readonly string[];
}

/** The bundled examples are cases too. */
const EXAMPLES: readonly RunCase[] = [
  {
    name: "example_shapes",
    root: "examples/shapes/main.nz",
    expected: `${RUN_DIR}/example_shapes.out`,
    args: [],
  },
  {
    name: "example_ledger",
    root: "examples/ledger/main.nz",
    expected: `${RUN_DIR}/example_ledger.out`,
    args: [],
  },
];

function argsOf(root: string): string[] {
  const first = Deno.readTextFileSync(root).split("\n", 1)[0];
  const m = /^\/\/ args: (.*)$/.exec(first);
  return m === null ? [] : m[1].trim().split(/\s+/);
}

/** Every case, sorted by name. */
export function runCases(): RunCase[] {
  const cases: RunCase[] = [...EXAMPLES];
  for (const entry of Deno.readDirSync(RUN_DIR)) {
    let root: string;
    let name: string;
    if (entry.isFile && entry.name.endsWith(".nz")) {
      name = entry.name.slice(0, -3);
      root = `${RUN_DIR}/${entry.name}`;
    } else if (entry.isDirectory) {
      name = entry.name;
      root = `${RUN_DIR}/${entry.name}/main.nz`;
    } else continue;
    cases.push({ name, root, expected: `${RUN_DIR}/${name}.out`, args: argsOf(root) });
  }
  return cases.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** What `nazm run` did. */
export interface RunResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `nazm run` in-process, through the command line's own entry. */
export async function nazmRun(root: string, args: readonly string[]): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  const status = await main(["run", root, ...args], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { status, stdout, stderr };
}

function block(text: string): string {
  if (text === "") return " (none)\n";
  const lines = text.split("\n");
  const ended = lines[lines.length - 1] === "";
  if (ended) lines.pop();
  return "\n" + lines.map((l) => (l === "" ? "|" : `| ${l}`)).join("\n") + "\n" +
    (ended ? "" : "\\ no newline at end\n");
}

/** The expectation file's text for a result. */
export function renderResult(r: RunResult): string {
  return `status: ${r.status}\nstdout:${block(r.stdout)}stderr:${block(r.stderr)}`;
}
