/**
 * The language card (docs/language-card.md): one section of at most 12,000
 * bytes, its tables the compiler's own (scripts/gen_language_card.ts), read
 * through `nazm docs` and through nazm-mcp's tools over stdio with every
 * keyword, operator, prelude function and diagnostic code in it; every
 * program in it checks and is in the canonical layout, the complete program
 * runs and tests as the card says, and each rule that surprises holds.
 */
import { answerOf } from "../support/outcome.ts";
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { connectClient, REPO } from "../support/server.ts";
import { docsIndex } from "../../src/docs/mod.ts";
import { main } from "../../src/cli/main.ts";
import { format, KEYWORDS, parseText } from "../../src/syntax/mod.ts";
import { loadCompilation, PRELUDE_FUNCTIONS } from "../../src/semantics/mod.ts";
import { BINARY_OPERATORS, UNARY_OPERATORS } from "../../src/syntax/mod.ts";
import {
  CARD_MAX_BYTES,
  CARD_PATH,
  cardDiagnosticCodes,
  languageCard,
} from "../../scripts/gen_language_card.ts";

const canRun = (await Deno.permissions.query({ name: "run" })).state === "granted";
const card = Deno.readTextFileSync(CARD_PATH);

async function nazm(...args: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { status, out, err };
}

/** What a reader of the card must find in it, whatever way it was read. */
function assertTeachesEverything(text: string): void {
  for (const keyword of KEYWORDS) assertStringIncludes(text, `\`${keyword}\``, keyword);
  assertStringIncludes(text, "`test fn");
  for (const op of [...BINARY_OPERATORS, ...UNARY_OPERATORS].map((o) => o.op)) {
    assertStringIncludes(text, `\`${op.replaceAll("|", "\\|")}\``, op);
  }
  for (const f of PRELUDE_FUNCTIONS.values()) assertStringIncludes(text, `\`${f.signature}\``);
  for (const c of cardDiagnosticCodes()) assertStringIncludes(text, `\`${c.code}\` ${c.title}`);
  for (const rule of ["No tuples", "No loops", "lambdas", "No type arguments at a call"]) {
    assertStringIncludes(text, rule);
  }
}

Deno.test("language card: in the manifest and the index, one section, at most 12,000 bytes", () => {
  const index = answerOf(docsIndex(REPO, { document: "language-card" }));
  const [doc] = index.documents;
  assertEquals([doc.id, doc.path, doc.availability], [
    "language-card",
    "docs/language-card.md",
    "present",
  ]);
  // One section: an agent learns the language in one docs_section call.
  assertEquals(doc.sections.map((s) => s.id), ["language-card"]);
  assert(doc.bytes <= CARD_MAX_BYTES, `the card has ${doc.bytes} bytes`);
  assertEquals(doc.bytes, new TextEncoder().encode(card).length);
  // It comes first after the map of the documentation.
  const all = answerOf(docsIndex(REPO));
  assertEquals(all.documents.slice(0, 2).map((d) => d.id), ["readme", "language-card"]);
});

Deno.test("language card: its tables are the compiler's (deno task docs:card rewrites them)", () => {
  assertEquals(card, languageCard(card), "docs/language-card.md is stale: run deno task docs:card");
  assertTeachesEverything(card);
});

Deno.test("language card: a table the compiler gains and the card lacks fails the check", () => {
  const stale = card.replace(/`fn trim\(text: String\) -> String`[^\n]*\n/, "");
  assert(stale !== card);
  assert(languageCard(stale) !== stale);
  const noRegion = card.replace("<!-- gen:codes -->", "");
  let thrown = false;
  try {
    languageCard(noRegion);
  } catch {
    thrown = true;
  }
  assert(thrown, "a card without the codes region is an error");
});

Deno.test("language card: read through `nazm docs`, it teaches everything", async () => {
  const index = await nazm("docs", "index", "--document", "language-card");
  assertEquals(index.status, 0, index.err);
  const { state } = JSON.parse(index.out);
  const section = await nazm("docs", "section", "language-card", "--state", state);
  assertEquals(section.status, 0, section.err);
  const answer = JSON.parse(section.out);
  assertEquals(answer.text, card);
  assertTeachesEverything(answer.text);
});

Deno.test({
  name: "language card: read through nazm-mcp's docs tools over stdio, it teaches everything",
  ignore: !canRun,
  async fn() {
    const { client, close } = await connectClient("modern");
    try {
      assertStringIncludes(client.getInstructions() ?? "", "`language-card`");
      const tools = (await client.listTools()).tools;
      for (const name of ["nazm.docs_index", "nazm.docs_section"]) {
        const tool = tools.find((t) => t.name === name);
        assertStringIncludes(tool?.description ?? "", "`language-card`", name);
      }
      const index = await client.callTool({
        name: "nazm.docs_index",
        arguments: { document: "language-card" },
      });
      assertEquals(index.isError ?? false, false);
      const state = (index.structuredContent as { state: string }).state;
      const section = await client.callTool({
        name: "nazm.docs_section",
        arguments: { id: "language-card", state },
      });
      assertEquals(section.isError ?? false, false);
      const { text, authority } = section.structuredContent as { text: string; authority: string };
      assertEquals(authority, "descriptive");
      assertEquals(text, card);
      assertTeachesEverything(text);
    } finally {
      await close();
    }
  },
});

interface Block {
  /** `// file: PATH` on its first line, or null. */
  readonly file: string | null;
  readonly text: string;
}

function nazmBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const m of text.matchAll(/```nazm\n([\s\S]*?)```/g)) {
    const file = /^\/\/ file: (\S+)\n/.exec(m[1]);
    blocks.push({ file: file?.[1] ?? null, text: m[1] });
  }
  return blocks;
}

/** Writes the files into a fresh folder; returns its path. */
function writeProgram(files: ReadonlyMap<string, string>): string {
  const dir = Deno.makeTempDirSync({ prefix: "nazm-card-" });
  for (const [path, text] of files) {
    Deno.mkdirSync(join(dir, path, ".."), { recursive: true });
    Deno.writeTextFileSync(join(dir, path), text);
  }
  return dir;
}

Deno.test("language card: every program in it checks clean and is in the canonical layout", () => {
  const blocks = nazmBlocks(card);
  assert(blocks.length >= 3, `${blocks.length} blocks`);
  for (const block of blocks) {
    const formatted = format(new TextEncoder().encode(block.text));
    assert(formatted.ok, `a syntax error in\n${block.text}`);
    assertEquals(formatted.text, block.text, `canonical layout of\n${block.text}`);
  }
  const alone = blocks.filter((b) => b.file === null);
  for (const block of alone) {
    const dir = writeProgram(new Map([["main.nz", block.text]]));
    try {
      const compilation = loadCompilation(join(dir, "main.nz"));
      // A block of items without `main` is a library: N0501 is all it may have.
      const codes = compilation.diagnostics.map((d) => d.code).filter((c) => c !== "N0501");
      assertEquals(codes, [], block.text);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
});

Deno.test("language card: its tests pass, and the complete program runs as the card says", async () => {
  const blocks = nazmBlocks(card);
  for (const block of blocks.filter((b) => b.file === null)) {
    const dir = writeProgram(new Map([["main.nz", block.text]]));
    try {
      const tested = await nazm("test", join(dir, "main.nz"));
      assertEquals(tested.status, 0, tested.out + tested.err);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
  const files = new Map(blocks.filter((b) => b.file !== null).map((b) => [b.file!, b.text]));
  assert(files.size >= 2 && files.has("main.nz"), "a program of two modules or more");
  const dir = writeProgram(files);
  try {
    const root = join(dir, "main.nz");
    assertEquals((await nazm("check", root)).out, "no errors, no warnings\n");
    const claim = /`nazm run main.nz` prints `([^`]*)`/.exec(card);
    assert(claim !== null, "the card says what the program prints");
    assertEquals(await nazm("run", root), { status: 0, out: `${claim[1]}\n`, err: "" });
    const tested = await nazm("test", root);
    assertEquals(tested.status, 0, tested.out + tested.err);
    assertStringIncludes(tested.out, "1 passed");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** The codes of a one-file program's diagnostics, `main` added when it has none. */
function codesOf(source: string): string[] {
  const text = /fn main\(/.test(source) ? source : `${source}\nfn main() {}\n`;
  const dir = writeProgram(new Map([["main.nz", text]]));
  try {
    return loadCompilation(join(dir, "main.nz")).diagnostics
      .filter((d) => d.severity === "error")
      .map((d) => d.code);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("language card: each rule that surprises holds in the compiler", () => {
  const prelude = "record Point { x: Int, y: Int }\nenum Shape { Circle(Float), Empty }\n";
  const fine = (body: string) => assertEquals(codesOf(`${prelude}fn f() { ${body} }`), [], body);
  const wrong = (body: string) =>
    assert(codesOf(`${prelude}fn f() { ${body} }`).length > 0, `an error: ${body}`);
  // No tuples, no lambdas, no loops.
  wrong("let t = (1, 2);");
  wrong("let g = |x| x;");
  wrong("while true { }");
  wrong("for x in [1] { }");
  // No type arguments at a call; annotate the binding; a record literal may take them.
  wrong("let xs = head[Int]([]);");
  fine("let xs: List[Int] = []; let _ = xs;");
  assertEquals(
    codesOf("record Stack[T] { items: List[T] }\nfn f() { let _ = Stack[Int] { items: [] }; }"),
    [],
  );
  // Variants are qualified, in expressions and in patterns; the prelude's are not.
  wrong("let s = Circle(1.0);");
  fine('let _ = Shape.Circle(1.0); let _ = Some(1); let _ = Ok(1) == Err("e");');
  wrong("match Shape.Empty { Circle(r) => (), _ => () }");
  fine("match Shape.Empty { Shape.Circle(_) => (), Shape.Empty => () }");
  // A record literal in an `if` head needs parentheses.
  wrong("let p = Point { x: 0, y: 0 }; if p == Point { x: 0, y: 0 } { }");
  fine("let p = Point { x: 0, y: 0 }; if p == (Point { x: 0, y: 0 }) { }");
  // No methods, no indexing, no chained comparisons.
  wrong('let _ = "ab".len();');
  wrong("let xs = [1]; let _ = xs[0];");
  wrong("let _ = 1 < 2 < 3;");
  // `///` before a variant documents nothing and is no error.
  assertEquals(codesOf("enum E {\n  /// ignored\n  A,\n}\nfn f() { let _ = E.A; }"), []);
  // A top-level definition shadows the prelude's name in its module.
  assertEquals(codesOf("fn len(n: Int) -> Int { n }\nfn f() { let _ = len(3) + 1; }"), []);
  assert(codesOf("fn len(n: Int) -> Int { n }\nfn f() { let _ = len([1]); }").length > 0);
  // Int and Float do not mix; a String does not take an Int with `+`.
  wrong("let _ = 1 + 1.5;");
  fine("let _ = int_to_float(1) + 1.5;");
  wrong('let _ = "n = " + 1;');
  fine('let _ = "n = " + to_string(1);');
});

Deno.test("language card: the syntax it shows parses without a diagnostic", () => {
  // Each inline snippet the card offers as code a reader may copy.
  for (const expr of ["[1, 2]", "1_000", "0xFF", "2e10", '"a\\n\\u{e9}"', "()"]) {
    assertStringIncludes(card, `\`${expr}\``, expr);
    const r = parseText(`fn f() { let _ = ${expr}; }`);
    assertEquals(r.diagnostics.map((d) => d.code), [], expr);
  }
});
