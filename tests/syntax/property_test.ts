/**
 * Property tests: `parse` never throws, the tokens rebuild the input
 * exactly, and every node's span is well-formed and inside its parent's,
 * on random bytes and on random soups of real tokens.
 */
import fc from "fast-check";
import {
  ACTIVE_KEYWORDS,
  children,
  type Node,
  parse,
  parseText,
  RESERVED_WORDS,
  type TokenStream,
} from "../../src/syntax/mod.ts";

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** The tokens touch end to start and cover the input from 0 to its end. */
function checkTokens(tokens: TokenStream, length: number): void {
  let at = 0;
  for (let i = 0; i < tokens.count; i++) {
    assert(tokens.start(i) === at, `token ${i} starts at ${tokens.start(i)}, expected ${at}`);
    assert(tokens.end(i) >= tokens.start(i), `token ${i} has a negative width`);
    at = tokens.end(i);
  }
  assert(at === length, `tokens end at ${at}, file at ${length}`);
}

/** Spans are ordered, within the file, and children lie within their parent. */
function checkSpans(root: Node, length: number): void {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    assert(
      0 <= node.start && node.start <= node.end && node.end <= length,
      `${node.kind} has span ${node.start}..${node.end}`,
    );
    for (const child of children(node)) {
      assert(
        node.start <= child.start && child.end <= node.end,
        `${child.kind} ${child.start}..${child.end} is outside ${node.kind} ${node.start}..${node.end}`,
      );
      stack.push(child);
    }
  }
}

const SOUP = [
  ...ACTIVE_KEYWORDS,
  ...RESERVED_WORDS,
  "x",
  "Point",
  "shapes",
  "_",
  "_tmp",
  "0",
  "42",
  "1_000",
  "0xff",
  "1.5",
  "2.5e-3",
  "1e10",
  "99999999999999999999",
  '"hi"',
  '"a\\n\\u{1F600}"',
  '"bad\\q"',
  '"open',
  "(",
  ")",
  "{",
  "}",
  "[",
  "]",
  ",",
  ";",
  ":",
  ".",
  "..",
  "->",
  "=>",
  "=",
  "==",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "!",
  "&&",
  "||",
  "&",
  "|",
  "#",
  "é",
  "// note\n",
  "/// doc\n",
  "/* c */",
  "/* open",
  " ",
  "\n",
  "\t",
  "\r\n",
];

const SEPARATORS = ["", " ", "\n"];

Deno.test("parse never throws on random bytes, and tokens cover the input", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 120 }), (bytes) => {
      const r = parse(bytes, "random.nz");
      checkTokens(r.tokens, bytes.length);
      checkSpans(r.tree, bytes.length);
      for (const d of r.diagnostics) assert(d.file === "random.nz", "diagnostic without file");
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("parse never throws on token soups, and token texts rebuild the input", () => {
  const soup = fc.array(
    fc.tuple(fc.constantFrom(...SOUP), fc.constantFrom(...SEPARATORS)),
    { maxLength: 40 },
  ).map((parts) => parts.map(([t, s]) => t + s).join(""));
  fc.assert(
    fc.property(soup, (text) => {
      const r = parseText(text);
      let joined = "";
      for (let i = 0; i < r.tokens.count; i++) joined += r.tokens.text(i);
      assert(
        joined === text,
        `tokens rebuild ${JSON.stringify(joined)}, not ${JSON.stringify(text)}`,
      );
      checkSpans(r.tree, r.tokens.source.length);
    }),
    { numRuns: 10_000 },
  );
});

Deno.test("grammar-shaped soups inside a function body never throw", () => {
  const body = fc.array(fc.constantFrom(...SOUP.filter((t) => !t.includes("/*"))), {
    maxLength: 30,
  }).map((parts) => `fn f(x: Int) -> Int {\n  ${parts.join(" ")}\n}\n\nfn g() {}\n`);
  fc.assert(
    fc.property(body, (text) => {
      const r = parseText(text);
      checkSpans(r.tree, r.tokens.source.length);
    }),
    { numRuns: 2_000 },
  );
});

function deep(open: string, close: string, n: number, inner = "1"): string {
  return `fn f() {\n  let x = ${open.repeat(n)}${inner}${close.repeat(n)};\n}\n\nfn after() {}\n`;
}

for (
  const [name, text] of [
    ["100,000 nested parentheses", deep("(", ")", 100_000)],
    ["100,000 unclosed parentheses", deep("(", "", 100_000)],
    ["100,000 nested blocks", deep("{", "}", 100_000)],
    ["100,000 unclosed blocks", deep("{", "", 100_000)],
    ["100,000 nested lists", deep("[", "]", 100_000)],
    ["100,000 unary minus", deep("-", "", 100_000)],
    ["100,000 additions", deep("", "", 1, "1" + " + 1".repeat(100_000))],
    ["100,000 field accesses", deep("", "", 1, "a" + ".b".repeat(100_000))],
    ["100,000 calls", deep("", "", 1, "f" + "()".repeat(100_000))],
    ["100,000 nested if", deep("if c { ".repeat(1), "", 1, "if c { ".repeat(100_000))],
    ["100,000 nested patterns", `fn f(x: Int) { match x { ${"Some(".repeat(100_000)} } }`],
    ["100,000 nested types", `fn f(x: ${"List[".repeat(100_000)}Int${"]".repeat(100_000)}) {}`],
  ]
) {
  Deno.test(`${name} give a diagnostic, not a stack overflow`, () => {
    const r = parseText(text);
    assert(r.diagnostics.length > 0, "no diagnostic");
    assert(
      r.diagnostics.some((d) => d.code === "N0107" || d.code === "N0106"),
      `unexpected diagnostics: ${r.diagnostics.map((d) => d.code).join(", ")}`,
    );
    // The tree stays shallow enough for a plain recursive walk.
    const depth = (n: Node): number => {
      let max = 0;
      for (const c of children(n)) max = Math.max(max, depth(c));
      return max + 1;
    };
    assert(depth(r.tree) < 2_000, "tree too deep");
  });
}
