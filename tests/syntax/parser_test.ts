/**
 * Parser and lexer unit tests: the grammar's decisions (precedence, record
 * literal contexts, patterns, statements, doc comments), literal values,
 * spans, and the public helpers.
 */
import {
  type Block,
  children,
  type Expr,
  type FnDecl,
  isIdentifier,
  isKeyword,
  KEYWORDS,
  lex,
  type MatchExpr,
  type Node,
  parseText,
  type Pattern,
  TokenKind,
  walk,
} from "../../src/syntax/mod.ts";
import type { TextEdit } from "../../src/base/mod.ts";

const encoder = new TextEncoder();

function assertEquals<T>(actual: T, expected: T, message = ""): void {
  const a = JSON.stringify(actual, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
  const e = JSON.stringify(expected, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
  if (a !== e) throw new Error(`${message}\nexpected: ${e}\nactual:   ${a}`);
}

/** Parses `fn t() { <body> }` and returns the body, asserting no diagnostic. */
function body(src: string): Block {
  const r = parseText(`fn t() {\n${src}\n}\n`);
  assertEquals(r.diagnostics.map((d) => d.message), [], `diagnostics for ${src}`);
  return (r.tree.items[0] as FnDecl).body;
}

function tail(src: string): Expr {
  const t = body(src).tail;
  if (t === null) throw new Error(`no tail in ${src}`);
  return t;
}

/** A compact rendering of an expression's structure. */
function sx(e: Expr): string {
  switch (e.kind) {
    case "IntLit":
    case "FloatLit":
    case "BoolLit":
      return String(e.value);
    case "StringLit":
      return JSON.stringify(e.value);
    case "UnitLit":
      return "()";
    case "NameExpr":
      return e.name.text;
    case "FieldExpr":
      return `(. ${sx(e.target)} ${e.name.text})`;
    case "CallExpr":
      return `(call ${[e.callee, ...e.args].map(sx).join(" ")})`;
    case "RecordLit":
      return `(rec ${e.type.path.map((n) => n.text).join(".")}${
        e.fields.map((f) => ` ${f.name.text}${f.value ? "=" + sx(f.value) : ""}`).join("")
      })`;
    case "ListLit":
      return `[${e.elements.map(sx).join(" ")}]`;
    case "UnaryExpr":
      return `(${e.op} ${sx(e.operand)})`;
    case "BinaryExpr":
      return `(${e.op} ${sx(e.left)} ${sx(e.right)})`;
    case "ParenExpr":
      return `(paren ${sx(e.inner)})`;
    case "IfExpr":
      return `(if ${sx(e.condition)} ${sx(e.then)}${e.otherwise ? " " + sx(e.otherwise) : ""})`;
    case "MatchExpr":
      return `(match ${sx(e.scrutinee)}${
        e.arms.map((a) => ` ${px(a.pattern)}=>${sx(a.body)}`).join("")
      })`;
    case "Block":
      return `{${
        e.statements.map((s) => s.kind === "LetStmt" ? "let;" : sx(s.expr) + ";").join("")
      }${e.tail ? sx(e.tail) : ""}}`;
    case "ReturnExpr":
      return e.value ? `(return ${sx(e.value)})` : "(return)";
    case "Error":
      return "ERR";
  }
}

function px(p: Pattern): string {
  switch (p.kind) {
    case "WildcardPattern":
      return "_";
    case "BindingPattern":
      return `$${p.name.text}`;
    case "LiteralPattern":
      return p.literal.kind === "UnitLit" ? "()" : String(p.literal.value);
    case "VariantPattern":
      return `${p.path.map((n) => n.text).join(".")}${
        p.args === null ? "" : `(${p.args.map(px).join(" ")})`
      }`;
    case "ListPattern":
      return `[${p.elements.map(px).join(" ")}${p.rest ? ` ..${p.rest.binding?.text ?? ""}` : ""}]`;
    case "Error":
      return "ERR";
  }
}

Deno.test("binary precedence, from || (lowest) to unary and postfix", () => {
  assertEquals(
    sx(tail("a || b && c == d + e * -f.g(h)")),
    "(|| a (&& b (== c (+ d (* e (- (call (. f g) h)))))))",
  );
  assertEquals(sx(tail("a - b - c")), "(- (- a b) c)");
  assertEquals(sx(tail("a / b * c % d")), "(% (* (/ a b) c) d)");
  assertEquals(sx(tail("a < b == c > d")), "(== (< a b) (> c d))");
  assertEquals(sx(tail("!!a")), "(! (! a))");
  assertEquals(sx(tail("-(1 + 2)")), "(- (paren (+ 1 2)))");
});

Deno.test("comparisons do not chain", () => {
  for (const src of ["a == b == c", "a < b < c", "a != b == c", "a <= b >= c"]) {
    const r = parseText(`fn t() -> Bool { ${src} }`);
    assertEquals(r.diagnostics.map((d) => d.code), ["N0108"], src);
  }
});

Deno.test("record literals need an upper-case last segment and are off in conditions", () => {
  assertEquals(sx(tail("Point { x: 1, y }")), "(rec Point x=1 y)");
  assertEquals(sx(tail("shapes.Point { x: 1 }")), "(rec shapes.Point x=1)");
  assertEquals(sx(tail("Box[Int] { value: 1, }")), "(rec Box value=1)");
  assertEquals(sx(tail("Empty {}")), "(rec Empty)");
  // A lower-case name before `{` is a value followed by a block.
  assertEquals(sx(tail("if p { 1 } else { 2 }")), "(if p {1} {2})");
  assertEquals(sx(tail("if P { 1 } else { 2 }")), "(if P {1} {2})");
  assertEquals(sx(tail("match P { _ => 1 }")), "(match P _=>1)");
  // Parentheses (and any bracket) bring record literals back.
  assertEquals(
    sx(tail("if (P { x: 1 }).x == 1 { 1 } else { 2 }")),
    "(if (== (. (paren (rec P x=1)) x) 1) {1} {2})",
  );
  assertEquals(sx(tail("match f(P { x: 1 }) { _ => 1 }")), "(match (call f (rec P x=1)) _=>1)");
  assertEquals(sx(tail("if c { P { x: 1 } } else { Q {} }")), "(if c {(rec P x=1)} {(rec Q)})");
});

Deno.test("patterns: variants, bindings, wildcards, literals, lists", () => {
  const m = tail(
    `match v {
      Some(x) => 1,
      None => 2,
      x => 3,
      _ => 4,
      -1 => 5,
      -2.5 => 6,
      "s" => 7,
      true => 8,
      () => 9,
      Shape.Circle(_, r) => 10,
      m.Shape.Empty => 11,
      [] => 12,
      [first, ..rest] => 13,
      [x, .._] => 14,
      [a, b, ..] => 15,
      Some([Ok(a), Err(_),],) => 16,
      _x => 17,
    }`,
  ) as MatchExpr;
  assertEquals(m.arms.map((a) => px(a.pattern)), [
    "Some($x)",
    "None",
    "$x",
    "_",
    "-1",
    "-2.5",
    "s",
    "true",
    "()",
    "Shape.Circle(_ $r)",
    "m.Shape.Empty",
    "[]",
    "[$first ..rest]",
    "[$x ..]",
    "[$a $b ..]",
    "Some([Ok($a) Err(_)])",
    "$_x",
  ]);
  const neg = m.arms[4].pattern;
  if (neg.kind !== "LiteralPattern") throw new Error("not a literal");
  if (neg.literal.kind !== "IntLit") throw new Error("not an int");
  assertEquals([neg.literal.start, neg.literal.value], [neg.start, -1n]);
});

Deno.test("a rest pattern must come last", () => {
  const r = parseText("fn t() { match xs { [..r, x] => 1, [a, .., ..] => 2 } }");
  assertEquals(r.diagnostics.map((d) => d.code), ["N0109", "N0109"]);
});

Deno.test("statements: let, expression statements, block-like statements, tail", () => {
  const b = body(`
    let a = 1;
    let b: Int = 2;
    let _ = f();
    f(a);
    if a > b { print("x") }
    match a { _ => () }
    { g() }
    a + b`);
  assertEquals(b.statements.map((s) => s.kind), [
    "LetStmt",
    "LetStmt",
    "LetStmt",
    "ExprStmt",
    "ExprStmt",
    "ExprStmt",
    "ExprStmt",
  ]);
  const wild = b.statements[2];
  if (wild.kind !== "LetStmt") throw new Error("not let");
  assertEquals(wild.binding.kind, "WildcardPattern");
  assertEquals(sx(b.tail!), "(+ a b)");
  // A block-like expression at the end is the block's value.
  assertEquals(sx(tail("f();\nif c { 1 } else { 2 }")), "(if c {1} {2})");
  assertEquals(body("f();").tail, null);
  assertEquals(sx(tail("return")), "(return)");
  assertEquals(sx(tail("return x + 1")), "(return (+ x 1))");
  assertEquals(sx(tail("if a { 1 } else if b { 2 } else { 3 }")), "(if a {1} (if b {2} {3}))");
});

Deno.test("trailing commas are allowed everywhere", () => {
  const r = parseText(`
    import a.b.{X, y,}
    record R[T,] { x: Int, }
    enum E[T,] { A(Int, T,), B, }
    fn f[T,](x: fn(Int,) -> Int, y: List[Int,],) -> Int {
      let l = [1, 2,];
      let r = R { x: 1, };
      g(1, 2,);
      match l { [a, b,] => a, [a, ..r,] => a, _ => 0, }
    }
  `);
  assertEquals(r.diagnostics.map((d) => d.message), []);
});

Deno.test("a match arm whose body is block-like ends at its `}`, comma or not (§3.6.10)", () => {
  // A negative literal pattern on the next line is the next arm, not `{ 10 } - 1`.
  assertEquals(
    sx(tail("match n {\n  0 => { 10 }\n  -1 => 3,\n  _ => 4,\n}")),
    "(match n 0=>{10} -1=>3 _=>4)",
  );
  assertEquals(
    sx(tail("match n {\n  0 => if a { 1 } else { 2 }\n  -1 => 3,\n}")),
    "(match n 0=>(if a {1} {2}) -1=>3)",
  );
  assertEquals(
    sx(tail("match n {\n  0 => match m { _ => 1 }\n  -1 => 3,\n}")),
    "(match n 0=>(match m _=>1) -1=>3)",
  );
  // With the comma, as before; and a body that only starts like a block is not cut.
  assertEquals(sx(tail("match n { 0 => { 10 }, -1 => 3 }")), "(match n 0=>{10} -1=>3)");
  assertEquals(sx(tail("match n { 0 => 10 - 1, _ => 3 }")), "(match n 0=>(- 10 1) _=>3)");
});

Deno.test("items: imports, pub, type parameters, doc comments", () => {
  const src = `import geometry.shapes
import geometry.shapes as sh
import geometry.shapes.{Shape, area}

/// First line.
///   Second, indented.
pub fn f[T, U](a: T) -> U { a }

//// not a doc comment
record R { x: Int }

/// Detached by a comment.
// an ordinary comment
enum E { A }
`;
  const r = parseText(src);
  assertEquals(r.diagnostics, []);
  const [i1, i2, i3] = r.tree.imports;
  assertEquals([i1.path.map((n) => n.text), i1.alias, i1.names], [
    ["geometry", "shapes"],
    null,
    null,
  ]);
  assertEquals(i2.alias?.text, "sh");
  assertEquals(i3.path.map((n) => n.text), ["geometry", "shapes"]);
  assertEquals(i3.names?.map((n) => n.text), ["Shape", "area"]);
  const [f, rec, en] = r.tree.items;
  if (f.kind !== "FnDecl" || rec.kind !== "RecordDecl" || en.kind !== "EnumDecl") {
    throw new Error("wrong items");
  }
  assertEquals(f.doc?.text, "First line.\n  Second, indented.");
  assertEquals(f.start, f.doc?.start, "an item's span starts at its doc comment");
  assertEquals(src.slice(f.pub!.start, f.pub!.end), "pub");
  assertEquals(f.typeParams.map((t) => t.text), ["T", "U"]);
  assertEquals(rec.doc, null);
  assertEquals(rec.pub, null);
  assertEquals(en.doc, null);
});

Deno.test("literal values: integers, floats, strings", () => {
  assertEquals(
    sx(tail("[1_000, 0xff, 0x7FFF_FFFF_FFFF_FFFF, 9223372036854775807]")),
    "[1000 255 9223372036854775807 9223372036854775807]",
  );
  assertEquals(sx(tail("[1.5, 1e10, 2.5e-3, 1_0.2_5]")), "[1.5 10000000000 0.0025 10.25]");
  const s = tail(String.raw`"a\n\t\\\"\u{1F600}\r\0é"`);
  if (s.kind !== "StringLit") throw new Error("not a string");
  assertEquals(s.value, 'a\n\t\\"\u{1F600}\r\0é');
  const bad = parseText(String.raw`fn t() -> String { "x\qy" }`);
  assertEquals(bad.diagnostics.map((d) => d.code), ["N0104"]);
  const lit = (bad.tree.items[0] as FnDecl).body.tail;
  assertEquals(lit?.kind === "StringLit" ? lit.value : null, "x\\qy");
  const big = parseText("fn t() -> Int { 9223372036854775808 }");
  assertEquals(big.diagnostics.map((d) => d.code), ["N0105"]);
});

Deno.test("spans are exact byte ranges, also after non-ASCII text", () => {
  const src = `// héllo wörld\nfn f() -> String { "ünï" + name }`;
  const r = parseText(src);
  const bytes = encoder.encode(src);
  const text = (n: Node) => new TextDecoder().decode(bytes.subarray(n.start, n.end));
  const f = r.tree.items[0] as FnDecl;
  assertEquals(text(f.name), "f");
  assertEquals(text(f.body.tail!), `"ünï" + name`);
  let names = 0;
  walk(r.tree, (n) => {
    if (n.kind === "NameRef" || n.kind === "NameDecl") {
      assertEquals(text(n), n.text);
      names++;
    }
  });
  assertEquals(names, 3);
});

Deno.test("the lexer: kinds, doc and nested comments, newlines", () => {
  const src =
    '/// d\n//// l\n/* a /* b */ c */\r\nfn x_1 _ 0x1F 1.5 "s" .. -> => == != <= >= && || while\n';
  const { tokens, errors } = lex(encoder.encode(src));
  assertEquals(errors, []);
  const kinds: number[] = [];
  for (let i = 0; i < tokens.count; i++) if (!tokens.isTrivia(i)) kinds.push(tokens.kind(i));
  const T = TokenKind;
  assertEquals(kinds, [
    T.KwFn,
    T.Ident,
    T.Underscore,
    T.Int,
    T.Float,
    T.String,
    T.DotDot,
    T.Arrow,
    T.FatArrow,
    T.EqEq,
    T.BangEq,
    T.Le,
    T.Ge,
    T.AmpAmp,
    T.PipePipe,
    T.KwReserved,
    T.Eof,
  ]);
  assertEquals([tokens.kind(0), tokens.kind(2), tokens.kind(4)], [
    T.DocComment,
    T.LineComment,
    T.BlockComment,
  ]);
  assertEquals(tokens.text(5), "\r\n");
});

Deno.test("bad bytes: one error token per run, still lossless", () => {
  const bytes = new Uint8Array([
    0x66,
    0x6e,
    0x20,
    0xff,
    0xfe,
    0x20,
    0xe2,
    0x82,
    0xac,
    0x23,
    0x20,
    0x78,
  ]);
  const { tokens, errors } = lex(bytes);
  assertEquals(errors.map((e) => [e.code, e.start, e.end]), [["N0100", 3, 5], ["N0100", 6, 10]]);
  let at = 0;
  for (let i = 0; i < tokens.count; i++) {
    assertEquals(tokens.start(i), at);
    at = tokens.end(i);
  }
  assertEquals(at, bytes.length);
});

Deno.test("recovery keeps the items after an error", () => {
  const r = parseText(`
fn a() -> Int { let = 1; 2 }
fn b() -> Int { (1 + }
fn c() -> Int { match x { 1 => , 2 => 3 } }
record R { x: , y: Int }
enum E { A(, B }
fn d(x Int) -> Int { x }
$$$
fn e() -> Int { 5 }
`);
  const names = r.tree.items.map((i) => i.kind === "Error" ? "Error" : i.name.text);
  assertEquals(names, ["a", "b", "c", "R", "E", "d", "e"]);
  if (r.diagnostics.length < 6) throw new Error("too few diagnostics");
});

Deno.test("a missing `}` is reported once, at its opener, with a certain fix", () => {
  const src = "fn a() -> Int {\n  f(1\n";
  const r = parseText(src, "m.nz");
  assertEquals(r.diagnostics.map((d) => d.code), ["N0106"]);
  const d = r.diagnostics[0];
  assertEquals(d.file, "m.nz");
  assertEquals(d.labels.every((l) => l.file === "m.nz"), true);
  const edit = d.fixes[0].edits[0];
  assertEquals([d.fixes[0].applicability, d.fixes[0].precondition.kind, edit.file], [
    "automatic",
    "none",
    "m.nz",
  ]);
  const fixed = src.slice(0, edit.span.start) + edit.replacement + src.slice(edit.span.end);
  assertEquals(parseText(fixed).diagnostics, []);
  // When the insertion would not give a clean file, no fix is offered.
  const r2 = parseText("fn a() -> Int {\n  let = (1\n");
  const d2 = r2.diagnostics.find((x) => x.code === "N0106");
  assertEquals(d2?.fixes, []);
});

Deno.test("reserved words are not names", () => {
  const r = parseText("fn while() {}");
  assertEquals(r.diagnostics.map((d) => d.code), ["N0101"]);
  if (!r.diagnostics[0].help?.includes("reserved")) throw new Error("no help about reserved words");
});

Deno.test("keywords and identifiers", () => {
  for (
    const k of [
      "fn",
      "record",
      "enum",
      "pub",
      "import",
      "as",
      "let",
      "if",
      "else",
      "match",
      "return",
      "true",
      "false",
      "while",
      "mut",
    ]
  ) {
    assertEquals(isKeyword(k), true, k);
    assertEquals(isIdentifier(k), false, k);
  }
  for (const ok of ["x", "_x", "Point", "a1", "snake_case"]) {
    assertEquals(isIdentifier(ok), true, ok);
  }
  for (const bad of ["", "_", "1a", "a-b", "é", "a b"]) assertEquals(isIdentifier(bad), false, bad);
  assertEquals([...KEYWORDS].sort(), [...KEYWORDS]);
});

Deno.test("walk visits every node once, in source order", () => {
  const r = parseText("fn f(x: Int) -> Int { let y = [x, 2]; g(y).z }");
  const starts: number[] = [];
  let count = 0;
  walk(r.tree, (n) => {
    starts.push(n.start);
    count++;
  });
  assertEquals([...starts].sort((a, b) => a - b), starts);
  let again = 0;
  const stack: Node[] = [r.tree];
  while (stack.length) {
    again++;
    stack.push(...children(stack.pop()!));
  }
  assertEquals(count, again);
  let skipped = 0;
  walk(r.tree, (n) => {
    skipped++;
    return n.kind !== "FnDecl";
  });
  assertEquals(skipped, 2);
});

/** The text after applying every edit of a diagnostic's first fix (edits sorted, not overlapping). */
function applyFirstFix(src: string, d: { fixes: readonly { edits: readonly TextEdit[] }[] }) {
  let out = src;
  for (const e of [...d.fixes[0].edits].sort((a, b) => b.span.start - a.span.start)) {
    out = out.slice(0, e.span.start) + e.replacement + out.slice(e.span.end);
  }
  return out;
}

Deno.test("a record literal in an `if` or `match` head: one N0110, no cascade, and its fix parses clean", () => {
  for (
    const src of [
      "fn f(p: P) -> Bool { if p == P { x: 0 } { true } else { false } }",
      "fn f(p: P) -> Bool { if p == m.P { x, y: 1 } { true } else { false } }",
      "fn f() -> Int { match P { x: 1 } { q => q.x } }",
      "fn f(p: P) -> Bool { if true { false } else if p == P { x: 0 } { true } else { false } }",
    ]
  ) {
    const r = parseText(src);
    assertEquals(r.diagnostics.map((d) => d.code), ["N0110"], src);
    assertEquals(parseText(applyFirstFix(src, r.diagnostics[0])).diagnostics, [], src);
  }
  // Braces that a block may begin with stay a block: `{ x }`, `{ f(x) }`, `{}`.
  for (const src of ["fn f(x: Int) -> Int { if P { x } else { 0 } }", "fn f() { if A {} }"]) {
    assertEquals(parseText(src).diagnostics.some((d) => d.code === "N0110"), false, src);
  }
});
