/**
 * Section splitting: ATX headings only, fences honoured, ids from heading
 * paths, texts that tile the file exactly.
 */
import { assertEquals } from "../support/assert.ts";
import { findHeadings, slug, splitSections } from "../../src/docs/mod.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function split(text: string, id = "doc") {
  const bytes = encode(text);
  return splitSections(id, bytes, "Fallback").map((s) => ({
    ...s,
    text: decode(bytes.subarray(s.start, s.end)),
  }));
}

/** The sections' texts, in order, are the whole file: nothing lost, nothing twice. */
function assertTiles(text: string) {
  const sections = split(text);
  assertEquals(sections.map((s) => s.text).join(""), text);
  for (let i = 1; i < sections.length; i++) assertEquals(sections[i].start, sections[i - 1].end);
}

Deno.test("sections: a title heading is the root, headings nest by level", () => {
  const text = "# Title\n\nintro\n\n## A\n\na\n\n### A1\n\na1\n\n## B\n\nb\n";
  const sections = split(text);
  assertEquals(
    sections.map((s) => [s.id, s.title, s.parent, s.level]),
    [
      ["doc", "Title", null, 1],
      ["doc/a", "A", "doc", 2],
      ["doc/a/a1", "A1", "doc/a", 3],
      ["doc/b", "B", "doc", 2],
    ],
  );
  // A section's own text stops at its first subsection.
  assertEquals(sections[1].text, "## A\n\na\n\n");
  assertEquals(sections[2].text, "### A1\n\na1\n\n");
  assertEquals(sections[3].text, "## B\n\nb\n");
  assertTiles(text);
});

Deno.test("sections: without a single title heading the root is the preamble", () => {
  const text = "preamble\n# One\n\n## Sub\n# Two\n";
  const sections = split(text);
  assertEquals(
    sections.map((s) => [s.id, s.title, s.parent, s.level, s.text]),
    [
      ["doc", "Fallback", null, 0, "preamble\n"],
      ["doc/one", "One", "doc", 1, "# One\n\n"],
      ["doc/one/sub", "Sub", "doc/one", 2, "## Sub\n"],
      ["doc/two", "Two", "doc", 1, "# Two\n"],
    ],
  );
  assertTiles(text);
  // A file that begins with a heading still has its (empty) root section.
  assertEquals(split("## Only\n").map((s) => [s.id, s.text]), [["doc", ""], [
    "doc/only",
    "## Only\n",
  ]]);
  assertEquals(split("").map((s) => [s.id, s.text]), [["doc", ""]]);
});

Deno.test("sections: headings inside ``` and ~~~ fences are not sections", () => {
  const text = [
    "# T",
    "```nazm",
    "# not a heading",
    "~~~",
    "## still code",
    "```",
    "## Real",
    "~~~~ md",
    "# code",
    "~~~", // too short to close a four-tilde fence
    "```", // the other character does not close it
    "# code",
    "~~~~~",
    "### After",
    "  ```",
    "# indented fence, code",
    "   ```   ",
    "## Last",
    "````",
    "# unclosed fence runs to the end",
    "",
  ].join("\n");
  const sections = split(text);
  assertEquals(sections.map((s) => s.id), ["doc", "doc/real", "doc/real/after", "doc/last"]);
  assertTiles(text);
});

Deno.test("sections: what is and is not an ATX heading", () => {
  const headings = (text: string) => findHeadings(encode(text)).map((h) => [h.level, h.title]);
  assertEquals(headings("#hashtag\n#5 bolt\n####### seven\n    # indented code\n"), []);
  assertEquals(headings("   # three spaces\n"), [[1, "three spaces"]]);
  assertEquals(headings("#\n## \n"), [[1, ""], [2, ""]]);
  assertEquals(headings("## Closing ##\n## Keep#this\n# #\n## a \\#\n"), [
    [2, "Closing"],
    [2, "Keep#this"],
    [1, ""],
    [2, "a \\#"],
  ]);
  assertEquals(headings("##\tTab\r\n## CRLF\r\n"), [[2, "Tab"], [2, "CRLF"]]);
  // Setext headings are not used in Nazm's documents and not recognised.
  assertEquals(headings("Title\n=====\nSub\n---\n"), []);
  // A backtick fence whose info string holds a backtick is not a fence.
  assertEquals(headings("``` a`b\n# heading\n"), [[1, "heading"]]);
});

Deno.test("sections: CRLF files tile exactly", () => {
  assertTiles("# T\r\n\r\nx\r\n## A\r\n```\r\n# no\r\n```\r\n## B\r\n");
  assertEquals(split("# T\r\n## A\r\n").map((s) => s.id), ["doc", "doc/a"]);
});

Deno.test("slug: numbers dropped, lowercase, runs of other characters one dash", () => {
  assertEquals(slug("2.1 Lexical structure"), "lexical-structure");
  assertEquals(
    slug("§7.34 nazm.docs_index and nazm.docs_section"),
    "nazm-docs-index-and-nazm-docs-section",
  );
  assertEquals(slug("7. The tools"), "the-tools");
  assertEquals(slug("`Option[T]` & `Result[T, E]`"), "option-t-result-t-e");
  assertEquals(slug("Int64 types"), "int64-types");
  assertEquals(slug("2024 plans"), "plans");
  assertEquals(slug("2"), "section");
  assertEquals(slug("???"), "section");
  assertEquals(slug("Ünïcode Überschrift"), "ünïcode-überschrift");
});

Deno.test("sections: duplicate ids get a deterministic suffix, children follow it", () => {
  const text = "# T\n## Example\n### Note\n## Example\n### Note\n## Example 2\n## 3. Example\n";
  assertEquals(split(text).map((s) => s.id), [
    "doc",
    "doc/example",
    "doc/example/note",
    "doc/example-2",
    "doc/example-2/note",
    "doc/example-2-2",
    "doc/example-3",
  ]);
});

Deno.test("sections: ids depend on headings only, never on body text", () => {
  const a = split("# T\n## A\nbody\n### B\nmore\n## C\n");
  const b = split("# T\nnew intro\n## A\nedited body\n\nlonger\n### B\n## C\nx\n");
  assertEquals(a.map((s) => [s.id, s.parent]), b.map((s) => [s.id, s.parent]));
});

Deno.test("sections: any bytes at all split without throwing and tile", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pieces = ["#", "## ", "```", "~~~", "\n", "\r\n", " ", "a", "é", "\t", "`"];
  for (let round = 0; round < 300; round++) {
    let text = "";
    const length = Math.floor(random() * 40);
    for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
    assertTiles(text);
  }
});
