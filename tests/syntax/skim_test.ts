/**
 * `skimDeclarations` (syntax/parser.ts): on every file that `parse` finds
 * without a diagnostic, the skim has no diagnostic and its tree is the
 * parse's tree with each function's and test's body emptied to its braces.
 * Checked on every syntax and semantic golden case, both examples, generated
 * programs, and fast-check's soups of declarations; and a file with a broken
 * body is where a skim says nothing, which is why the analysis skims only
 * files a full parse found clean.
 *
 * @module
 */
import { join } from "node:path";
import fc from "fast-check";
import { assert, assertEquals } from "../support/assert.ts";
import { REPO } from "../support/fixtures.ts";
import { splitCase } from "../semantics/_support.ts";
import { generate } from "../../bench/gen.ts";
import {
  type Block,
  bodySpans,
  lex,
  parse,
  parseText,
  skimDeclarations,
  TokenKind,
} from "../../src/syntax/mod.ts";

const encoder = new TextEncoder();

/** The parse's tree with every item's body emptied, as a skim gives it. */
function emptied(bytes: Uint8Array): unknown {
  const tree = parse(bytes).tree;
  return {
    ...tree,
    items: tree.items.map((item) => {
      if (item.kind !== "FnDecl" && item.kind !== "TestDecl") return item;
      const body: Block = {
        kind: "Block",
        start: item.body.start,
        end: item.body.end,
        statements: [],
        tail: null,
      };
      return { ...item, body };
    }),
  };
}

/** Checks one file; returns whether it was clean (and so compared). */
function compare(bytes: Uint8Array, label: string): boolean {
  if (parse(bytes).diagnostics.length > 0) return false;
  const want = emptied(bytes);
  const skim = skimDeclarations(bytes);
  assertEquals(skim.diagnostics, [], `${label}: a clean file's skim has diagnostics`);
  assertEquals(skim.tree, want, `${label}: the skim's declarations differ`);
  // The same with the bodies left unlexed, as the analysis skims.
  const spans = skimDeclarations(bytes, "", bodySpans(parse(bytes).tree));
  assertEquals(spans.diagnostics, [], `${label}: a skim over body spans has diagnostics`);
  assertEquals(spans.tree, want, `${label}: the declarations differ over body spans`);
  return true;
}

function* corpus(): Generator<[string, Uint8Array]> {
  for (const folder of ["tests/golden/syntax", "tests/golden/semantics"]) {
    const dir = join(REPO, folder);
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.name.endsWith(".nz")) continue;
      const bytes = Deno.readFileSync(join(dir, entry.name));
      if (folder.endsWith("syntax")) yield [entry.name, bytes];
      else {
        for (const [path, file] of splitCase(bytes).files) {
          yield [`${entry.name}:${path}`, file];
        }
      }
    }
  }
  for (const example of ["shapes", "ledger"]) {
    const root = join(REPO, "examples", example);
    const walk = function* (dir: string): Generator<[string, Uint8Array]> {
      for (const entry of Deno.readDirSync(dir)) {
        const path = join(dir, entry.name);
        if (entry.isDirectory) yield* walk(path);
        else if (entry.name.endsWith(".nz")) yield [path, Deno.readFileSync(path)];
      }
    };
    yield* walk(root);
  }
  for (const seed of [1, 2, 3]) {
    for (const [path, text] of generate({ lines: 3000, seed }).nazm) {
      yield [`generated ${seed}:${path}`, encoder.encode(text)];
    }
  }
}

Deno.test("skim: every clean file of the goldens, examples and generated programs", () => {
  let compared = 0;
  let skipped = 0;
  for (const [label, bytes] of corpus()) {
    if (compare(bytes, label)) compared++;
    else skipped++;
  }
  // Most of the corpus is clean; the syntax cases with errors are not compared.
  assert(compared > 150 && skipped > 10, `${compared} compared, ${skipped} skipped`);
});

/** Declarations with bodies of nested blocks, strings with braces, comments and tests. */
const declaration = fc.oneof(
  fc.constantFrom(
    "fn f() {}",
    'pub fn g[T](x: T, y: List[Int]) -> Option[T] { let s = "{ } {"; Some(x) }',
    "fn h() -> Int { if true { { 1 } } else { match 2 { _ => { 3 } } } }",
    "/// doc { not code\nfn d(a: Int) -> Int { a + 1 } // trailing }",
    "fn c() { /* } */ }",
    "record R[T] { value: T, name: Str }",
    "enum E { A, B(Int), C(R[Int]) }",
    'test fn t() { assert(1 == 1, "}") }',
    'fn é() -> Str { "ü{" }',
  ),
  fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 9 })).map(([depth, n]) =>
    `fn n${n}() -> Int { ${"{ ".repeat(depth)}${n}${" }".repeat(depth)} }`
  ),
);

Deno.test("skim: soups of declarations", () => {
  fc.assert(
    fc.property(fc.array(declaration, { maxLength: 12 }), fc.boolean(), (items, imports) => {
      const text = (imports ? "import a.b\nimport c as d\n" : "") + items.join("\n") + "\n";
      const bytes = encoder.encode(text);
      compare(bytes, JSON.stringify(text));
    }),
    { numRuns: 400 },
  );
});

Deno.test("skim: a body the skim jumps over may hide a syntax error only a parse reports", () => {
  const text = "fn f() -> Int { let = ; 1 }\nfn g() {}\n";
  assert(parseText(text).diagnostics.length > 0, "the parse reports the broken body");
  assertEquals(skimDeclarations(encoder.encode(text)).diagnostics, []);
});

Deno.test("skim: body spans are lexed as braces around one space, and spans that are not bodies are ignored", () => {
  const text = 'fn f() -> Str { "é{" }\nfn g() {}\n';
  const bytes = encoder.encode(text);
  const spans = bodySpans(parse(bytes).tree);
  const open = bytes.indexOf(0x7b);
  assertEquals(spans.slice(0, 2), [open, bytes.indexOf(0x0a) /* the first body ends its line */]);
  const { tokens } = lex(bytes, spans);
  const kinds = Array.from({ length: tokens.count }, (_, i) => tokens.kind(i));
  const at = kinds.indexOf(TokenKind.LBrace);
  assertEquals(kinds.slice(at, at + 3), [TokenKind.LBrace, TokenKind.Whitespace, TokenKind.RBrace]);
  // The skipped body held a non-ASCII byte: the text of later tokens is still right.
  assertEquals(tokens.text(kinds.lastIndexOf(TokenKind.Ident)), "g");
  // A span starting inside a token, or not from `{` to `}`, changes nothing.
  const whole = lex(bytes).tokens;
  for (const wrong of [[open + 1, spans[1]], [0, 3], [open, spans[1] - 1]]) {
    const got = lex(bytes, wrong).tokens;
    assertEquals(
      [got.count, [...got.kinds.subarray(0, got.count)]],
      [whole.count, [...whole.kinds.subarray(0, whole.count)]],
      JSON.stringify(wrong),
    );
  }
});
