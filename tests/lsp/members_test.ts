/**
 * `nazm lsp` on the names the model's index does not hold: an enum's
 * variants and a record's fields (through the checker's resolutions), and
 * locals that shadow top-level names.
 */
import type { DocumentHighlight, Hover, Location } from "vscode-languageserver/node";
import { join } from "node:path";
import { TextDocument } from "vscode-languageserver-textdocument";
import { newFactCache } from "../../src/facts/mod.ts";
import { hover as hoverOf, TOKEN_TYPES } from "../../src/lsp/features.ts";
import { compileSources } from "../../src/lsp/sources.ts";
import { Analysis } from "../../src/lsp/workspace.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { decodeTokens, type LspSession, startLsp, uriOf, workspace } from "../support/lsp.ts";

const MAIN = `import lib.util as u
import lib.util.{Pair, Color}

record Box[T] {
  item: T,
  count: Int,
}

fn size(b: Box[Int]) -> Int {
  b.count + b.item
}

fn shade(c: Color) -> Int {
  match c {
    Color.Red => 1,
    u.Color.Green(g) => g,
  }
}

fn twice(u: Int) -> Int {
  let size = u * 2;
  size
}

fn main() -> Unit {
  let b = Box { item: 3, count: 1 };
  let p = Pair { a: 1, b: 2 };
  let n = size(b) + twice(p.a) + shade(Color.Green(2)) + shade(u.Color.Red) + u.one();
  print(to_string(n))
}
`;
const UTIL = `pub record Pair {
  a: Int,
  b: Int,
}

pub enum Color {
  Red,
  Green(Int),
}

pub fn one() -> Int {
  1
}
`;

async function opened() {
  const dir = workspace({ "main.nz": MAIN, "lib/util.nz": UTIL });
  const session = await startLsp(dir);
  const uri = uriOf(dir, "main.nz");
  await session.connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "nazm", version: 1, text: MAIN },
  });
  assertEquals((await session.diagnostics(uri)).diagnostics, []);
  return { dir, session, uri };
}

const main = TextDocument.create("main", "nazm", 0, MAIN);
const util = TextDocument.create("util", "nazm", 0, UTIL);

/** The position `delta` units into the `nth` occurrence of `needle` in main.nz. */
function at(needle: string, delta = 0, nth = 0) {
  let offset = -1;
  for (let k = 0; k <= nth; k++) offset = MAIN.indexOf(needle, offset + 1);
  assert(offset >= 0, `${needle} not in main.nz`);
  return main.positionAt(offset + delta);
}

/** What each location names, as `file:line:text`. */
function shown(dir: string, locations: Location[]): string[] {
  return locations.map((l) => {
    const document = l.uri === uriOf(dir, "main.nz") ? main : util;
    return `${document.uri}:${l.range.start.line}:${document.getText(l.range)}`;
  });
}

/** Where go to definition at a position of main.nz leads, as `file:line:text`. */
async function definitionOf(
  session: LspSession,
  dir: string,
  uri: string,
  position: { line: number; character: number },
): Promise<string | null> {
  const d: Location | null = await session.connection.sendRequest("textDocument/definition", {
    textDocument: { uri },
    position,
  });
  return d === null ? null : shown(dir, [d])[0];
}

Deno.test("lsp members: hover, definition, references and highlights of variants and fields", async () => {
  const { dir, session, uri } = await opened();
  try {
    const c = session.connection;
    const hover = async (position: { line: number; character: number }) => {
      const h: Hover | null = await c.sendRequest("textDocument/hover", {
        textDocument: { uri },
        position,
      });
      return h === null ? null : (h.contents as { value: string }).value;
    };
    assertEquals(await hover(at("b.count", 3)), "```nazm\nrecord Box\ncount: Int\n```");
    assertEquals(await hover(at("Color.Red", 7)), "```nazm\nenum Color\nRed\n```");
    assertEquals(await hover(at("p.a)", 2)), "```nazm\nrecord Pair\na: Int\n```");
    assertEquals(await hover(at("Green(g)", 1)), "```nazm\nenum Color\nGreen(Int)\n```");

    const definition = (position: { line: number; character: number }) =>
      definitionOf(session, dir, uri, position);
    assertEquals(await definition(at("b.count", 3)), "main:5:count");
    assertEquals(await definition(at("b.item", 3)), "main:4:item");
    assertEquals(await definition(at("count: 1", 1)), "main:5:count"); // a record literal's field
    assertEquals(await definition(at("Color.Red", 7)), "util:6:Red"); // a pattern
    assertEquals(await definition(at("u.Color.Red", 9)), "util:6:Red"); // an expression, qualified
    assertEquals(await definition(at("Green(2)", 1)), "util:7:Green");
    assertEquals(await definition(at("Pair {", 8)), "util:1:a");

    const references = async (position: { line: number; character: number }) =>
      shown(
        dir,
        await c.sendRequest("textDocument/references", {
          textDocument: { uri },
          position,
          context: { includeDeclaration: true },
        }),
      );
    assertEquals(await references(at("Color.Red", 7)), [
      "util:6:Red",
      "main:14:Red",
      "main:27:Red",
    ]);
    assertEquals(await references(at("count: Int", 1)), [
      "main:5:count",
      "main:9:count",
      "main:25:count",
    ]);
    const highlights: DocumentHighlight[] = await c.sendRequest("textDocument/documentHighlight", {
      textDocument: { uri },
      position: at("item: T", 1),
    });
    assertEquals(
      highlights.map((h) => [h.range.start.line, h.kind]),
      [[4, 3], [9, 2], [25, 2]], // the declaration writes, a use reads
    );
    // A member is not renamed: the planner's refusal, said.
    const refused = await c.sendRequest("textDocument/rename", {
      textDocument: { uri },
      position: at("b.count", 3),
      newName: "total",
    }).then(() => "answered", (e: Error) => e.message);
    assert(refused.startsWith("not_a_definition: "), refused);
  } finally {
    await session.close();
  }
});

Deno.test("lsp members: a local that shadows a function, a parameter that shadows a module", async () => {
  const { dir, session, uri } = await opened();
  try {
    const c = session.connection;
    const definition = (position: { line: number; character: number }) =>
      definitionOf(session, dir, uri, position);
    // `size` in twice is its local; in main, the function.
    assertEquals(await definition(at("  size\n", 2)), "main:20:size");
    assertEquals(await definition(at("size(b)", 1)), "main:8:size");
    // `u` in twice is its parameter; in main, the module alias (not a definition: null).
    assertEquals(await definition(at("u * 2", 0)), "main:19:u");
    assertEquals(await definition(at("u.one()", 2)), "util:10:one");
    const local = await c.sendRequest("textDocument/rename", {
      textDocument: { uri },
      position: at("let size", 4),
      newName: "doubled",
    }) as { changes: Record<string, { range: { start: { line: number } } }[]> };
    assertEquals(local.changes[uri].map((e) => e.range.start.line), [20, 21]);
  } finally {
    await session.close();
  }
});

Deno.test("lsp members: a member's hover checks its module again, not the whole program", () => {
  // Members and inferred types are found through the checker's resolutions: while the
  // analysis is the engine's last, those of the one module asked about (engine.ts
  // resolveModule), never a whole analysis; once the engine has moved on, a whole one.
  const dir = workspace({ "main.nz": MAIN, "lib/util.nz": UTIL });
  const config = { root: join(dir, "main.nz"), sourceRoot: dir };
  const cache = newFactCache();
  const buffers = new Map<string, Uint8Array>();
  let whole = 0;
  const analysed = () =>
    new Analysis(compileSources(config, buffers, cache, false), 0, () => {
      whole++;
      return compileSources(config, buffers, cache, true);
    });
  const analysis = analysed();
  const offset = (needle: string, delta: number) => MAIN.indexOf(needle) + delta;
  for (const [needle, delta] of [["fn size", 1], ["size(b)", 1], ["match c", 2], ["  size\n", 0]]) {
    hoverOf(analysis, "main.nz", offset(needle as string, delta as number));
  }
  const member = "```nazm\nrecord Box\ncount: Int\n```";
  const shown = (a: Analysis) =>
    (hoverOf(a, "main.nz", offset("b.count", 3))?.contents as { value: string } | undefined)
      ?.value;
  assertEquals(shown(analysis), member);
  assertEquals(hoverOf(analysis, "main.nz", offset("let b =", 4))?.contents, {
    kind: "markdown",
    value: "```nazm\nlet b: Box[Int]\n```",
  });
  assertEquals(whole, 0);
  // An analysis the engine has moved past (lib/util.nz edited since) answers through a whole one.
  const earlier = analysed();
  buffers.set(join(dir, "lib/util.nz"), new TextEncoder().encode(UTIL + "\n// edited\n"));
  compileSources(config, buffers, cache, false);
  assertEquals(shown(earlier), member);
  assertEquals(whole, 1);
});

Deno.test("lsp members: completion after a path of fields, and nothing after a dot on a non-name", async () => {
  const { session, uri } = await opened();
  try {
    let version = 1;
    const labels = async (line: string) => {
      const text =
        MAIN.replace("  print(to_string(n))", `  let nested = Nest { pair: p };\n  ${line}`) +
        "\nrecord Nest {\n  pair: Pair,\n}\n";
      await session.connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version: ++version },
        contentChanges: [{ text }],
      });
      const document = TextDocument.create(uri, "nazm", version, text);
      const items: { label: string }[] = await session.connection.sendRequest(
        "textDocument/completion",
        { textDocument: { uri }, position: document.positionAt(text.indexOf(line) + line.length) },
      );
      return items.map((i) => i.label);
    };
    assertEquals(await labels("nested.pair."), ["a", "b"]);
    assertEquals(await labels("nested.pair.a"), ["a", "b"]); // the word typed is replaced
    assertEquals(await labels("nested."), ["pair"]);
    // `b` is also a local: after `nested.b.` it is not, and `Nest` has no `b`.
    assertEquals(await labels("nested.b."), []);
    assertEquals(await labels('"😀".'), []);
    assertEquals(await labels("u.one()."), []);
  } finally {
    await session.close();
  }
});

Deno.test("lsp members: semantic tokens mark variants and fields, declared and used", async () => {
  const { session, uri } = await opened();
  try {
    const tokens: { data: number[] } = await session.connection.sendRequest(
      "textDocument/semanticTokens/full",
      { textDocument: { uri } },
    );
    // Decoded to `line:text:type[:declaration]` for the members only.
    const lines = MAIN.split("\n");
    const members: string[] = [];
    for (const { line, character, length, type, modifiers } of decodeTokens(tokens.data)) {
      const kind = TOKEN_TYPES[type];
      if (kind !== "property" && kind !== "enumMember") continue;
      const text = lines[line].slice(character, character + length);
      members.push(`${line}:${text}:${kind}${modifiers & 1 ? ":declaration" : ""}`);
    }
    assertEquals(members, [
      "4:item:property:declaration",
      "5:count:property:declaration",
      "9:count:property", // b.count
      "9:item:property",
      "14:Red:enumMember", // Color.Red in a pattern
      "15:Green:enumMember", // u.Color.Green(g) in a pattern
      "25:item:property", // Box { item: 3, count: 1 }
      "25:count:property",
      "26:a:property", // Pair { a: 1, b: 2 }
      "26:b:property",
      "27:a:property", // p.a
      "27:Green:enumMember", // Color.Green(2)
      "27:Red:enumMember", // u.Color.Red
    ]);
  } finally {
    await session.close();
  }
});
