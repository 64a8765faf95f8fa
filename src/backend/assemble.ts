/**
 * One ES module from a lowered program: the runtime's text, the program,
 * the `$program` description (entry points, files, the map from generated
 * places back to Nazm places) and the line that starts it — as a process
 * (`nazm build`) or as the worker `nazm run` and `nazm test` talk to.
 *
 * @module
 */
import RUNTIME_TEXT from "./runtime.js" with { type: "text" };
import type { ProgramView } from "./checked.ts";
import { asciiJson, type CodeLines, type IntLiterals, jsName } from "./emit.ts";
import { lowerProgram } from "./lower_program.ts";

/**
 * How the module starts: as a process (`nazm build`), as the worker `nazm
 * run` and `nazm test` talk to, or not at all — `library` exports
 * `run(output)`, which runs `main` in the importing thread (benchmarks).
 */
export type Entry = "standalone" | "worker" | "library";

export interface AssembleOptions {
  readonly entry: Entry;
  /** Lower the tests too (for `nazm test`). */
  readonly tests: boolean;
  /** Only for bench/'s measurement of Int representations: see {@link IntLiterals}. */
  readonly intLiterals?: IntLiterals;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The runtime without its `// @ts-check` line: the generated module is not
 * checked JavaScript (and `deno test` would type-check a worker that says so).
 */
const RUNTIME = RUNTIME_TEXT.replace(/^\/\/ @ts-check\n/, "");

const HEADER = `${
  RUNTIME.endsWith("\n") ? RUNTIME : RUNTIME + "\n"
}\n// ---------------------------------------------------------------- the program\n\n`;
const HEADER_LINES = countLines(HEADER);

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A signed integer as a base-64 VLQ, as source maps write them (runtime.js decodes it). */
function vlq(value: number): string {
  let v = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = "";
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += BASE64[digit];
  } while (v > 0);
  return out;
}

/**
 * The map from generated places back to Nazm places: for each marker, in
 * the order of the code, six numbers — its generated line (delta) and
 * column (1-based, UTF-16 units as V8 counts), its Nazm file (delta), line
 * (delta) and column, and its function (delta) — as base-64 VLQs
 * (docs/architecture.md §9.3).
 */
function encodeMap(program: ProgramView, code: CodeLines, places: readonly number[]): string {
  const out: string[] = [];
  let line = 0;
  let file = 0;
  let nazmLine = 0;
  let fn = 0;
  const first = HEADER_LINES + 1;
  for (let i = 0; i < code.marks.length; i++) {
    const marks = code.marks[i];
    if (marks === undefined) continue;
    for (let m = 0; m < marks.length; m += 2) {
      const id = marks[m + 1];
      const f = places[id * 3];
      const position = program.files[f].lineIndex.position(places[id * 3 + 1]);
      const g = places[id * 3 + 2];
      out.push(
        vlq(first + i - line) + vlq(marks[m] + 1) + vlq(f - file) + vlq(position.line - nazmLine) +
          vlq(position.column) + vlq(g - fn),
      );
      line = first + i;
      file = f;
      nazmLine = position.line;
      fn = g;
    }
  }
  return out.join("");
}

/** The whole module's text. */
export function assembleModule(program: ProgramView, options: AssembleOptions): string {
  const lowered = lowerProgram(program, {
    tests: options.tests,
    intLiterals: options.intLiterals,
  });
  const map = encodeMap(program, lowered.code, lowered.markers.places);
  const end = HEADER_LINES + lowered.code.lines.length;
  const place = (file: number, offset: number) => {
    const p = program.files[file].lineIndex.position(offset);
    return [file, p.line, p.column];
  };
  const main = program.main;
  const tests = options.tests
    ? program.tests.map((t, i) =>
      `[${asciiJson(t.key)}, ${lowered.tests[i]}, ${place(t.file, t.node.name.start).join(", ")}]`
    )
    : [];
  const description = [
    "const $program = {",
    `  main: ${main === null ? "null" : jsName(main.key)},`,
    `  mainInt: ${program.mainReturnsInt},`,
    `  mainPlace: ${main === null ? "null" : asciiJson(place(main.file, main.node.name.start))},`,
    `  tests: [${tests.join(", ")}],`,
    `  files: ${asciiJson(program.files.map((f) => f.path))},`,
    `  names: ${asciiJson(lowered.names)},`,
    `  map: ${asciiJson(map)},`,
    `  end: ${end},`,
    "};",
  ].join("\n");
  const start = options.entry === "worker"
    ? "serveWorker($program);"
    : options.entry === "standalone"
    ? "runStandalone($program);"
    : "export const run = (output) => runWith($program, output);";
  return `${HEADER}${lowered.code.lines.join("\n")}\n\n${description}\n${start}\n`;
}
