/**
 * `nazm parse FILE` and `nazm fmt FILE`: the syntax layer on the command
 * line. Neither needs the file's imports: a file is parsed alone.
 *
 * @module
 */
import { LineIndex } from "../base/mod.ts";
import { format, parse, type ParseResult } from "../syntax/mod.ts";
import { parseArgs } from "./args.ts";
import { type CommandIo, usageError } from "./io.ts";

function readSource(io: CommandIo, command: string, path: string): Uint8Array | null {
  try {
    return Deno.readFileSync(path);
  } catch (error) {
    io.stderr(
      `nazm ${command}: cannot read ${path}: ${error instanceof Error ? error.message : error}\n`,
    );
    return null;
  }
}

/** The tree as JSON: every node's kind and span, its fields, no parent links. */
function treeJson(result: ParseResult): unknown {
  return JSON.parse(
    JSON.stringify(
      result.tree,
      (_key, value) => (typeof value === "bigint" ? value.toString() : value),
    ),
  );
}

export const PARSE_USAGE = "parse FILE";

/** `nazm parse FILE`: the syntax tree and syntax diagnostics as JSON; exit 1 when there are diagnostics. */
export function parseCommand(io: CommandIo): number {
  const parsed = parseArgs(io.args, { positionals: ["FILE"] });
  if (typeof parsed === "string") return usageError(io, "parse", parsed, PARSE_USAGE);
  const path = parsed.positionals.get("FILE")!;
  const bytes = readSource(io, "parse", path);
  if (bytes === null) return 2;
  const result = parse(bytes, path);
  const lines = new LineIndex(bytes);
  const diagnostics = result.diagnostics.map((d) => ({
    code: d.code,
    severity: d.severity,
    message: d.message,
    place: d.span === null ? null : lines.place(path, d.span),
    help: d.help,
  }));
  io.stdout(JSON.stringify({ file: path, tree: treeJson(result), diagnostics }, null, 2) + "\n");
  return diagnostics.length > 0 ? 1 : 0;
}

export const FMT_USAGE = "fmt FILE";

/** `nazm fmt FILE`: the canonical layout on stdout; a file with a syntax error is refused with its place. */
export function fmtCommand(io: CommandIo): number {
  const parsed = parseArgs(io.args, { positionals: ["FILE"] });
  if (typeof parsed === "string") return usageError(io, "fmt", parsed, FMT_USAGE);
  const path = parsed.positionals.get("FILE")!;
  const bytes = readSource(io, "fmt", path);
  if (bytes === null) return 2;
  const result = format(bytes, path);
  if (!result.ok) {
    const d = result.diagnostic;
    const at = d.span === null ? "" : (() => {
      const p = new LineIndex(bytes).position(d.span.start);
      return `:${p.line}:${p.column}`;
    })();
    io.stderr(
      `${path}${at}: error[${d.code}]: ${d.message}\nnazm fmt: not formatted: the file has a syntax error\n`,
    );
    return 1;
  }
  io.stdout(result.text);
  return 0;
}
