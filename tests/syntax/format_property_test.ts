/**
 * Formatter properties on generated programs: the generator writes valid
 * Nazm with random spacing, line breaks and comments; formatting must be
 * idempotent, keep every comment in order, and keep the syntax tree (the
 * program's meaning) unchanged but for spans.
 */
import fc from "fast-check";
import { format, type Node, parseText, TokenKind } from "../../src/syntax/mod.ts";

const encoder = new TextEncoder();

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** The tree without positions, as JSON: what formatting must not change. */
function shape(tree: Node): string {
  return JSON.stringify(tree, (key, value) => {
    if (key === "start" || key === "end" || key === "opStart") return undefined;
    if (key === "pub") return value === null ? null : true;
    return typeof value === "bigint" ? `${value}n` : value;
  });
}

function comments(text: string): string[] {
  const { tokens } = parseText(text);
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

// Spacing between tokens: mostly a space, sometimes a line break or a
// comment, which the formatter must keep.
const gap = fc.oneof(
  { weight: 12, arbitrary: fc.constant(" ") },
  { weight: 3, arbitrary: fc.constant("\n  ") },
  { weight: 1, arbitrary: fc.constant(" /* c */ ") },
  { weight: 1, arbitrary: fc.constant(" // note\n") },
);
const lineGap = fc.oneof(
  { weight: 6, arbitrary: fc.constant("\n") },
  { weight: 2, arbitrary: fc.constant("\n\n") },
  { weight: 1, arbitrary: fc.constant("\n// between\n") },
  { weight: 1, arbitrary: fc.constant(" // trailing\n") },
  { weight: 1, arbitrary: fc.constant("\n/* block\n   comment */\n") },
);

const lower = fc.constantFrom("a", "b", "total", "x1", "_tmp", "value");
const upper = fc.constantFrom("Point", "Shape", "Some", "None", "Ok", "Box");
const intLit = fc.constantFrom("0", "42", "1_000", "0xFF", "9223372036854775807");
const literal = fc.oneof(
  intLit,
  fc.constantFrom("1.5", "2.5e-3", "1e10", '"hi"', '"a\\n\\u{1F600}"', "true", "false", "()"),
);

const { type, block } = fc.letrec<{
  expr: string;
  atom: string;
  type: string;
  pattern: string;
  block: string;
  blockish: string;
}>((tie) => ({
  type: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("Int", "String", "()", "Bool"),
    fc.tuple(upper, fc.array(tie("type"), { minLength: 1, maxLength: 2 }))
      .map(([n, args]) => `${n}[${args.join(", ")}]`),
    fc.tuple(fc.array(tie("type"), { maxLength: 2 }), tie("type"))
      .map(([ps, r]) => `fn(${ps.join(", ")}) -> ${r}`),
  ),
  atom: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    literal,
    lower,
    fc.tuple(lower, lower).map(([a, b]) => `${a}.${b}`),
    fc.tuple(lower, fc.array(tie("expr"), { maxLength: 3 }), gap)
      .map(([f, args, g]) => `${f}(${args.join(`,${g}`)})`),
    fc.array(tie("expr"), { maxLength: 4 }).map((xs) => `[${xs.join(", ")}]`),
    fc.tuple(upper, fc.array(fc.tuple(lower, tie("expr")), { maxLength: 3 }))
      .map(([n, fs]) =>
        `${n} { ${[...new Map(fs).entries()].map(([k, v]) => `${k}: ${v}`).join(", ")} }`
      ),
    tie("expr").map((e) => `(${e})`),
    fc.tuple(fc.constantFrom("-", "!"), lower).map(([op, x]) => op + x),
  ),
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("atom"),
    fc.tuple(
      tie("atom"),
      fc.constantFrom("+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"),
      tie("atom"),
      gap,
    ).map(([a, op, b, g]) => `${a}${g}${op} ${b}`),
    tie("blockish"),
  ),
  blockish: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("block"),
    fc.tuple(lower, tie("block"), fc.option(tie("block")))
      .map(([c, t, e]) => (e === null ? `if ${c} ${t}` : `if ${c} ${t} else ${e}`)),
    fc.tuple(lower, lower, tie("block"), tie("block"))
      .map(([c, d, t, e]) => `if ${c} ${t} else if ${d} ${e} else { 0 }`),
    fc.tuple(
      lower,
      fc.array(fc.tuple(tie("pattern"), tie("expr"), lineGap), { minLength: 1, maxLength: 3 }),
    ).map(([s, arms]) => `match ${s} {${arms.map(([p, e, g]) => `${g}${p} => ${e},`).join("")}\n}`),
  ),
  block: fc.tuple(
    fc.array(
      fc.tuple(
        fc.oneof(
          fc.tuple(lower, fc.option(tie("type")), tie("expr"))
            .map(([n, t, e]) => `let ${n}${t === null ? "" : `: ${t}`} = ${e};`),
          fc.tuple(lower, tie("expr")).map(([f, e]) => `${f}(${e});`),
          tie("blockish"),
        ),
        lineGap,
      ),
      { maxLength: 3 },
    ),
    fc.option(tie("expr")),
  ).map(([stmts, tail]) =>
    `{\n${stmts.map(([s, g]) => s + g).join("")}${tail === null ? "" : tail}\n}`
  ),
  pattern: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("_", "x", "-1", '"s"', "true", "()", "None", "Shape.Empty", "-2.5"),
    fc.tuple(upper, fc.array(tie("pattern"), { minLength: 1, maxLength: 2 }))
      .map(([n, ps]) => `${n}(${ps.join(", ")})`),
    fc.tuple(fc.array(tie("pattern"), { maxLength: 2 }), fc.constantFrom("", "..rest", "..", ".._"))
      .map(([ps, rest]) => `[${[...ps, ...(rest === "" ? [] : [rest])].join(", ")}]`),
  ),
}));

const item = fc.oneof(
  fc.tuple(
    fc.boolean(),
    lower,
    fc.array(fc.tuple(lower, type), { maxLength: 3 }),
    fc.option(type),
    block,
  )
    .map(([pub, name, params, ret, body]) =>
      `${pub ? "pub " : ""}fn ${name}(${params.map(([n, t]) => `${n}: ${t}`).join(", ")})${
        ret === null ? "" : ` -> ${ret}`
      } ${body}`
    ),
  fc.tuple(upper, fc.array(fc.tuple(lower, type), { maxLength: 4 }))
    .map(([name, fields]) =>
      `/// A record.\nrecord ${name} {${fields.map(([n, t]) => ` ${n}: ${t},`).join("")} }`
    ),
  fc.tuple(upper, fc.array(fc.tuple(upper, fc.array(type, { maxLength: 2 })), { maxLength: 3 }))
    .map(([name, variants]) =>
      `enum ${name}[T] {${
        variants.map(([v, ts]) => ` ${v}${ts.length ? `(${ts.join(", ")})` : ""},`).join("")
      } }`
    ),
  fc.constantFrom("import a.b", "import a.b as c", "import a.b.{X, y}"),
);

const program = fc.array(fc.tuple(item, lineGap), { minLength: 1, maxLength: 4 })
  .map((items) => items.map(([i, g]) => i + g).join(""));

Deno.test("formatting generated programs is idempotent, keeps comments and meaning", () => {
  fc.assert(
    fc.property(program, (text) => {
      const parsed = parseText(text);
      assert(
        parsed.diagnostics.length === 0,
        `generator wrote invalid code: ${parsed.diagnostics[0]?.message}\n${text}`,
      );
      const r = format(encoder.encode(text));
      assert(r.ok, "refused");
      const again = format(encoder.encode(r.text));
      assert(
        again.ok && again.text === r.text,
        `not idempotent:\n${r.text}\n---\n${again.ok && again.text}`,
      );
      assert(
        JSON.stringify(comments(text)) === JSON.stringify(comments(r.text)),
        `comments changed:\n${text}\n---\n${r.text}`,
      );
      assert(
        shape(parseText(r.text).tree) === shape(parsed.tree),
        `meaning changed:\n${text}\n---\n${r.text}`,
      );
    }),
    { numRuns: 400 },
  );
});
