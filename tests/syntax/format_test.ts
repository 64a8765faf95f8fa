/**
 * The formatter: idempotent and comment-keeping on every example program
 * and on the LANGUAGE.md example files (which it leaves unchanged), layout
 * goldens, and refusal of a file with a syntax error.
 */
import { format, parse, TokenKind } from "../../src/syntax/mod.ts";
import { goldenTest } from "../support/golden.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function formatted(bytes: Uint8Array, file: string): string {
  const r = format(bytes, file);
  if (!r.ok) throw new Error(`${file}: refused: ${r.diagnostic.message}`);
  return r.text;
}

/** Every comment's text (trailing spaces aside), in order. */
function comments(text: string): string[] {
  const { tokens } = parse(encoder.encode(text));
  const out: string[] = [];
  for (let i = 0; i < tokens.count; i++) {
    const k = tokens.kind(i);
    if (k === TokenKind.LineComment || k === TokenKind.DocComment) {
      out.push(tokens.text(i).trimEnd());
    }
    if (k === TokenKind.BlockComment) out.push(tokens.text(i));
  }
  return out;
}

/** Formatting is idempotent and keeps every comment, in order. */
function checkFormat(bytes: Uint8Array, file: string): string {
  const once = formatted(bytes, file);
  const twice = formatted(encoder.encode(once), file);
  assert(once === twice, `${file}: formatting is not idempotent`);
  const before = comments(decoder.decode(bytes));
  const after = comments(once);
  assert(
    JSON.stringify(before) === JSON.stringify(after),
    `${file}: comments changed:\n${before.join("\n")}\n---\n${after.join("\n")}`,
  );
  return once;
}

function nzFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...nzFiles(path));
    else if (entry.name.endsWith(".nz")) out.push(path);
  }
  return out.sort();
}

Deno.test("every example parses without a diagnostic", () => {
  const files = nzFiles("examples");
  assert(files.length > 0, "no example found");
  for (const file of files) {
    const { diagnostics } = parse(Deno.readFileSync(file), file);
    assert(
      diagnostics.length === 0,
      `${file}: ${diagnostics.map((d) => `${d.code} ${d.message} at ${d.span?.start}`).join("; ")}`,
    );
  }
});

Deno.test("formatting every example is idempotent and keeps its comments", () => {
  for (const file of nzFiles("examples")) checkFormat(Deno.readFileSync(file), file);
});

Deno.test("the LANGUAGE.md example files and every example program format to themselves", () => {
  const files = [...nzFiles("tests/syntax/fixtures"), ...nzFiles("examples")];
  for (const file of files) {
    const bytes = Deno.readFileSync(file);
    const text = checkFormat(bytes, file);
    assert(text === decoder.decode(bytes), `${file} is not in canonical layout:\n${text}`);
  }
});

goldenTest(
  "format goldens",
  "tests/golden/syntax/format",
  ".nz",
  (path, text) => checkFormat(encoder.encode(text), path),
  { expectation: ".formatted.txt" },
);

Deno.test("format refuses a file with a syntax error, with the place of the first one", () => {
  const text = "fn ok() -> Int { 1 }\n\nfn broken() -> Int {\n  let x = ;\n  let y = ;\n}\n";
  const r = format(encoder.encode(text), "broken.nz");
  assert(!r.ok, "a broken file was formatted");
  assert(r.diagnostic.code === "N0101", `code ${r.diagnostic.code}`);
  assert(r.diagnostic.file === "broken.nz", "no file on the diagnostic");
  const at = text.indexOf(";", text.indexOf("let x"));
  assert(r.diagnostic.span?.start === at, `span ${JSON.stringify(r.diagnostic.span)} not at ${at}`);
});

Deno.test("format of an empty file, and of comments alone", () => {
  assert(formatted(new Uint8Array(), "") === "", "empty file");
  assert(
    formatted(encoder.encode("// a\n\n\n// b   \n"), "") === "// a\n\n// b\n",
    "comments alone",
  );
});

Deno.test("fmt: a statement's `;` counts toward the line width", () => {
  // 100 columns without the `;`, 101 with it: the list must break.
  const source = "fn main() -> Unit {\n" +
    "  let events = [ShiftEvent124.Cleared(item), ShiftEvent124.Flagged, ShiftEvent124.Moved(Some(seed))];\n" +
    "  events\n}\n";
  const text = formatted(encoder.encode(source), "width.nz");
  for (const line of text.split("\n")) {
    assert(line.length <= 100, `${line.length} columns: ${line}`);
  }
  assert(text.includes("  let events = [\n    ShiftEvent124.Cleared(item),\n"), text);
});

Deno.test("fmt: an operator that ends a broken line counts toward the line width (grammar §5.8)", () => {
  // For every padding, the operand before the break fills the line to within a few columns
  // of 100: the operator after it (`==`, `<=`, `&&`, `+`) or the statement's `;` must not
  // push the line past 100.
  const long: string[] = [];
  for (let pad = 60; pad <= 100; pad++) {
    const name = "v".repeat(pad - 40);
    for (const op of ["==", "<=", "&&", "+"]) {
      long.push(
        `  let _a = first_value(x) + ${name}(x, x) ${op} second_value_that_is_long(x, x, x);`,
      );
      long.push(
        `  first_value(x) * ${name}(x, x) + third(x) ${op} second_value_that_is_long(x, x, x)`,
      );
      long.push(
        `  let _b = ${name}(x) == other(x) && third_value_of_them(x) < fourth_value_of_them(x, x);`,
      );
    }
  }
  for (const statement of long) {
    const source = `fn t(x: Int) -> Bool {\n${statement}\n}\n`;
    const text = formatted(encoder.encode(source), "width.nz");
    for (const line of text.split("\n")) {
      assert(line.length <= 100, `${line.length} columns: ${line}\nfrom: ${statement}`);
    }
    assert(formatted(encoder.encode(text), "width.nz") === text, `not idempotent: ${text}`);
  }
});
