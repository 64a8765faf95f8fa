/**
 * The annotated-source format of the goldens on the cases the golden files
 * do not all hold: spans over several lines, empty spans, the end of a file
 * with and without a final newline, tabs, wide and combining characters,
 * carriage returns and bytes that are not UTF-8, program-level diagnostics,
 * fixes that edit another file or a file the case does not show; and its
 * columns agree with the compiler's line index on any bytes.
 */
import fc from "fast-check";
import { assertEquals, assertThrows } from "../support/assert.ts";
import { annotate, SourceView } from "../support/annotated.ts";
import { renderDiagnostics } from "../support/render_diagnostics.ts";
import { docsSectionOf, LineIndex } from "../../src/base/mod.ts";
import type { DiagnosticJson } from "../../src/semantics/mod.ts";

const encoder = new TextEncoder();

function lines(text: string): string[] {
  return text.split("\n");
}

/** The place of bytes `start`–`end` of `text`, as an answer spells it. */
function placeAt(file: string, text: string, start: number, end = start) {
  const view = new SourceView(file, text);
  const position = (offset: number) => ({ offset, ...view.position(offset) });
  return { file, start: position(start), end: position(end) };
}

/** The place of `needle`'s first occurrence in `text`. */
function placeOf(file: string, text: string, needle: string) {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`no ${needle}`);
  const start = encoder.encode(text.slice(0, at)).length;
  return placeAt(file, text, start, start + encoder.encode(needle).length);
}

function diagnostic(
  fields: Partial<DiagnosticJson> & Pick<DiagnosticJson, "place">,
): DiagnosticJson {
  const code = fields.code ?? "N0301";
  return {
    schema: "nazm.diagnostic/2",
    code,
    docs_section: docsSectionOf(code)!,
    severity: "error",
    message: "something is wrong",
    labels: [],
    help: null,
    fixes: [],
    ...fields,
  };
}

Deno.test("a span over several lines is underlined to the end of its first line and says where it ends", () => {
  const text = "fn f() -> Int {\n  g(Point {\n    x: 1,\n  })\n}\n";
  const out = renderDiagnostics([
    diagnostic({ place: placeOf("main.nz", text, "Point {\n    x: 1,\n  }") }),
  ], [
    { path: "main.nz", bytes: encoder.encode(text) },
  ]);
  assertEquals(lines(out).slice(0, 4), [
    "==== main.nz (1 error) ====",
    "1 | fn f() -> Int {",
    "2 |   g(Point {",
    "  |     ^^^^^^^ (to 4:4) error N0301: something is wrong",
  ]);
});

Deno.test("an empty span is one mark saying so; at the end of a file, the empty last line is shown", () => {
  const text = "fn f() -> Int {\n  1\n";
  const view = new SourceView("a.nz", text);
  assertEquals(annotate(view, [{ start: 3, end: 3, underline: "^", text: "here" }]), [
    "1 | fn f() -> Int {",
    "  |    ^ (empty) here",
    "2 |   1",
  ]);
  assertEquals(
    annotate(view, [{ start: text.length, end: text.length, underline: "-", text: "end" }]),
    [
      "1 | fn f() -> Int {",
      "2 |   1",
      "3 |",
      "  | - (empty, end of file) end",
    ],
  );
});

Deno.test("a file without a final newline says so, and a mark at its end sits after its last character", () => {
  const text = "fn f() {";
  const view = new SourceView("a.nz", text);
  assertEquals(annotate(view, [{ start: 8, end: 8, underline: "^", text: "unclosed" }]), [
    "1 | fn f() {",
    "  |         ^ (empty, end of file) unclosed",
    "  \\ no newline at end of file",
  ]);
});

Deno.test("underlines stand under their text: tabs stay tabs, wide characters take two cells, combining marks none", () => {
  const text = '\tlet s = "日本🎉e\u0301"; x\n';
  const view = new SourceView("a.nz", text);
  const x = encoder.encode(text).length - 2;
  // Column 19 in characters, 21 cells on screen: two for each of 日, 本 and 🎉, none for U+0301.
  assertEquals(view.position(x), { line: 1, column: 19 });
  const wide = encoder.encode('\tlet s = "').length;
  assertEquals(
    annotate(view, [
      { start: x, end: x + 1, underline: "^", text: "x" },
      { start: wide, end: wide + encoder.encode("日本").length, underline: "-", text: "wide" },
    ]),
    [
      '1 | \tlet s = "日本🎉e\u0301"; x',
      `  | \t${" ".repeat(19)}^ x`,
      `  | \t${" ".repeat(9)}---- wide`,
    ],
  );
});

Deno.test("carriage returns and control characters are shown as symbols, and bytes that are not UTF-8 as U+FFFD", () => {
  const bytes = new Uint8Array([
    ...encoder.encode("a\u0000b"),
    0xff,
    ...encoder.encode("c\r\nd\n"),
  ]);
  const view = new SourceView("a.nz", bytes);
  assertEquals(view.lineText(1), "a\u2400b\uFFFDc\u240D");
  assertEquals(annotate(view, [{ start: 4, end: 5, underline: "^", text: "c" }])[1], "  |     ^ c");
});

Deno.test("a place whose line or column disagrees with its offset is refused", () => {
  const text = "let é = 1;\nlet x = 2;\n";
  const view = new SourceView("a.nz", text);
  const good = placeOf("a.nz", text, "x");
  view.checkPlace(good);
  assertEquals(good.start, { offset: 16, line: 2, column: 5 });
  assertThrows(() => view.checkPlace({ ...good, start: { ...good.start, column: 6 } }));
  assertThrows(() => view.checkPlace({ ...good, start: { ...good.start, offset: 17 } }));
  assertThrows(() => view.checkPlace({ ...good, end: { offset: 99, line: 2, column: 99 } }));
  assertThrows(() => view.checkPlace({ ...good, file: "b.nz" }));
});

Deno.test("columns are the compiler's line index's, on any bytes", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 64 }).chain((bytes) =>
        fc.tuple(fc.constant(bytes), fc.integer({ min: 0, max: bytes.length }))
      ),
      ([bytes, offset]) => {
        const expected = new LineIndex(bytes).position(offset);
        const got = new SourceView("a.nz", bytes).position(offset);
        assertEquals(got, { line: expected.line, column: expected.column });
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("program-level diagnostics, labels and fixes in other or unshown files, edits checked against the text", () => {
  const main = "import util\n\nfn f() -> Int { 1 }\n";
  const util = "pub fn one() -> Int { 1 }\n";
  const files = [{ path: "main.nz", bytes: encoder.encode(main) }, {
    path: "util.nz",
    bytes: encoder.encode(util),
  }];
  const program = diagnostic({
    code: "N0501",
    message: "no main",
    place: null,
    labels: [{ place: placeOf("util.nz", util, "one"), message: "not this one" }],
    fixes: [{
      title: "add a main",
      applicability: "needs_review",
      precondition: { kind: "placeholders_to_complete", count: 1 },
      edits: [
        {
          place: placeAt("main.nz", main, main.length),
          expected: "",
          replacement: "\nfn main() -> Unit {}\n",
        },
        { place: placeOf("gen.nz", "x", "x"), expected: "x", replacement: "" },
      ],
    }],
  });
  const out = renderDiagnostics([program], files);
  assertEquals(lines(out), [
    "==== main.nz ====",
    "1 | import util",
    "2 |",
    "3 | fn f() -> Int { 1 }",
    "==== util.nz ====",
    "1 | pub fn one() -> Int { 1 }",
    "  |        --- label of N0501 (program-level): not this one",
    "==== program-level (1 error) ====",
    "error N0501: no main",
    "  = fix [needs_review, placeholders_to_complete 1] add a main",
    '  =   insert "\\nfn main() -> Unit {}\\n" at main.nz:4:1',
    '  =   delete "x" at gen.nz:1:1-1:2 (bytes 0-1)',
    "  =   after, in main.nz:",
    "  4 > ",
    "  5 > fn main() -> Unit {}",
    "  6 > ",
    "",
  ]);
  const wrong = {
    ...program,
    fixes: [{ ...program.fixes[0], edits: [{ ...program.fixes[0].edits[0], expected: "i" }] }],
  };
  assertThrows(() => renderDiagnostics([wrong], files));
  const late = diagnostic({ place: placeOf("main.nz", main, "f()") });
  const early = diagnostic({ place: placeOf("main.nz", main, "util") });
  assertThrows(() => renderDiagnostics([late, early], files), "listed out of order");
});

Deno.test("a diagnostic in a file the case does not show lists its fix's changed lines in a shown one", () => {
  const main = "import gen\n\nfn main() -> Unit {}\n";
  const files = [{ path: "main.nz", bytes: encoder.encode(main) }];
  const hidden = diagnostic({
    code: "N0602",
    message: "too large",
    place: placeAt("gen.nz", "", 0),
    fixes: [{
      title: "stop importing it",
      applicability: "needs_review",
      precondition: { kind: "removal_intended" },
      edits: [{
        place: placeOf("main.nz", main, "import gen\n"),
        expected: "import gen\n",
        replacement: "",
      }],
    }],
  });
  assertEquals(lines(renderDiagnostics([hidden], files)).slice(4), [
    "==== gen.nz (1 error), not shown ====",
    "1:1-1:1 (bytes 0-0) ^ error N0602: too large",
    "  = fix [needs_review, removal_intended] stop importing it",
    '  =   delete "import gen\\n" at main.nz:1:1-2:1',
    "  =   after, in main.nz:",
    "  1 > ",
    "",
  ]);
});
