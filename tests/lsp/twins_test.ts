/**
 * Two modules with the same bytes share one parse tree (the parse cache is
 * keyed by content digest), so nothing the checker records per syntax node
 * may let one module's answers come from the other's.
 */
import type { Hover, InlayHint, Location } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { assertEquals } from "../support/assert.ts";
import { startLsp, uriOf, workspace } from "../support/lsp.ts";

const MAIN = `import lib.a
import lib.b

fn main() -> Unit {
  let x = a.pick();
  let y = b.pick();
  print(to_string(a.score(x) + b.score(y)))
}
`;
// The same text in lib/a.nz and lib/b.nz: each names its own Color.
const TWIN = `pub enum Color {
  Red,
  Green,
}

pub record Pair {
  left: Int,
  right: Int,
}

pub fn pick() -> Color {
  let c = Color.Red;
  c
}

pub fn score(c: Color) -> Int {
  let p = Pair { left: 1, right: 2 };
  match c {
    Color.Red => p.left,
    Color.Green => p.right,
  }
}
`;
const twin = TextDocument.create("twin", "nazm", 0, TWIN);

function at(needle: string, delta: number) {
  return twin.positionAt(TWIN.indexOf(needle) + delta);
}

Deno.test("lsp twins: byte-identical modules each answer for themselves", async () => {
  const dir = workspace({ "main.nz": MAIN, "lib/a.nz": TWIN, "lib/b.nz": TWIN });
  const session = await startLsp(dir);
  try {
    const c = session.connection;
    for (const name of ["a", "b"]) {
      const uri = uriOf(dir, `lib/${name}.nz`);
      await c.sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId: "nazm", version: 1, text: TWIN },
      });
      assertEquals((await session.diagnostics(uri)).diagnostics, []);
    }
    for (const name of ["a", "b"]) {
      const uri = uriOf(dir, `lib/${name}.nz`);
      const where = (l: Location | null) =>
        l === null ? null : `${l.uri.slice(l.uri.lastIndexOf("/") + 1)}:${l.range.start.line}`;
      const definition = async (position: { line: number; character: number }) =>
        where(await c.sendRequest("textDocument/definition", { textDocument: { uri }, position }));
      // A variant in an expression and in a pattern, a field read, a literal's field.
      assertEquals(await definition(at("Color.Red;", 7)), `${name}.nz:1`);
      assertEquals(await definition(at("Color.Green =>", 7)), `${name}.nz:2`);
      assertEquals(await definition(at("p.left", 2)), `${name}.nz:6`);
      assertEquals(await definition(at("right: 2", 0)), `${name}.nz:7`);
      const references: Location[] = await c.sendRequest("textDocument/references", {
        textDocument: { uri },
        position: at("Red,", 0),
        context: { includeDeclaration: true },
      });
      assertEquals(references.map(where), [`${name}.nz:1`, `${name}.nz:11`, `${name}.nz:18`]);
      const hover: Hover | null = await c.sendRequest("textDocument/hover", {
        textDocument: { uri },
        position: at("p.left", 2),
      });
      assertEquals(
        (hover?.contents as { value: string }).value,
        "```nazm\nrecord Pair\nleft: Int\n```",
      );
      const hints: InlayHint[] = await c.sendRequest("textDocument/inlayHint", {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 22, character: 0 } },
      });
      assertEquals(hints.map((h) => [h.position.line, h.label]), [[11, ": Color"], [16, ": Pair"]]);
    }
  } finally {
    await session.close();
  }
});
