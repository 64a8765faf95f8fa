/**
 * Byte offsets ↔ the protocol's positions (0-based lines, UTF-16 units), on
 * text with every width of UTF-8 sequence and surrogate pairs.
 */
import fc from "fast-check";
import { TextDocument } from "vscode-languageserver-textdocument";
import { assertEquals } from "../support/assert.ts";
import { OutOfRange, TextMap } from "../../src/lsp/text.ts";

const encoder = new TextEncoder();

/** The editor position of UTF-16 index `i` of `text`, counted the obvious way. */
function positionOf(text: string, i: number) {
  const before = text.slice(0, i).split("\n");
  return { line: before.length - 1, character: before[before.length - 1].length };
}

Deno.test("text: every character boundary maps to its byte offset and back", () => {
  const piece = fc.constantFrom("a", "é", "中", "😀", "\n", "x\ny", "𝔸b");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
      const text = pieces.join("");
      const map = TextMap.of(text);
      for (let i = 0; i <= text.length; i++) {
        const code = text.charCodeAt(i - 1);
        if (code >= 0xd800 && code <= 0xdbff) continue; // inside a surrogate pair
        const offset = encoder.encode(text.slice(0, i)).length;
        const position = positionOf(text, i);
        assertEquals(map.position(offset), position);
        assertEquals(map.offset(position), offset);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("text: past a line's end is its end; past the last line is out of range", () => {
  const map = TextMap.of("ab\n😀\n");
  assertEquals(map.offset({ line: 0, character: 99 }), 2);
  assertEquals(map.offset({ line: 1, character: 1 }), 3); // inside the pair: its start
  assertEquals(map.offset({ line: 2, character: 0 }), 8);
  const past = map.offset({ line: 3, character: 0 });
  assertEquals(
    past instanceof OutOfRange ? past.message : past,
    "line 3 is past the end of the document (3 lines)",
  );
  assertEquals(map.offset({ line: 0, character: -1 }) instanceof OutOfRange, true);
});

Deno.test("text: positions agree with the protocol's document model on LF, CR LF and lone CR", () => {
  // vscode-languageserver-textdocument is the client's view: a lone CR ends a line there, while
  // the language's lines end at LF alone.
  const piece = fc.constantFrom("a", "\t", "é", "😀", "\n", "\r\n", "\r", "x\ry");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.nat(6), (pieces, past) => {
      const text = pieces.join("");
      const map = TextMap.of(text);
      const document = TextDocument.create("file:///x.nz", "nazm", 0, text);
      const bytesBefore = (i: number) => encoder.encode(text.slice(0, i)).length;
      assertEquals(map.lineCount, document.lineCount);
      for (let i = 0; i <= text.length; i++) {
        const code = text.charCodeAt(i - 1);
        if (code >= 0xd800 && code <= 0xdbff) continue; // inside a surrogate pair
        if (code === 13 && text[i] === "\n") continue; // inside a CR LF
        const position = document.positionAt(i);
        assertEquals(map.position(bytesBefore(i)), position);
        assertEquals(map.offset(position), bytesBefore(i));
        // Past the line's end: the end of its text, before the line break.
        const beyond = { line: position.line, character: position.character + 100 + past };
        assertEquals(map.offset(beyond), bytesBefore(document.offsetAt(beyond)));
      }
    }),
    { numRuns: 300 },
  );
});
