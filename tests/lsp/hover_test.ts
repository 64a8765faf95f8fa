/**
 * `nazm lsp` hover and go to definition on what the model's index does not
 * hold: the names patterns bind (with their types), modules (an import's
 * path, its alias, a name a module qualifies) and the prelude's functions,
 * types and variants.
 */
import { join } from "node:path";
import { newFactCache } from "../../src/facts/mod.ts";
import { definition, highlights, hover, references } from "../../src/lsp/features.ts";
import { compileSources } from "../../src/lsp/sources.ts";
import { Analysis, type Workspace } from "../../src/lsp/workspace.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { workspace } from "../support/lsp.ts";

const MAIN = `import lib.util as u
import lib.util.{Pair}

fn first[T](xs: List[T], fallback: T) -> T {
  match xs {
    [h, ..rest] => if len(rest) > 0 { h } else { fallback },
    [] => fallback,
  }
}

fn pick(o: Option[Int]) -> Int {
  match o {
    Some(n) => n + 1,
    None => 0,
  }
}

fn pair(r: Result[Option[Int], String]) -> Int {
  match r {
    Ok(Some(x)) => x,
    Ok(None) => 0,
    Err(_) => 0,
  }
}

fn shadow(u: Int) -> Int {
  // Some u.one in a comment
  u + 1
}

fn main() -> Unit {
  let text = "Some u.one";
  let p = Pair { a: 1, b: 2 };
  print(text + to_string(first([p.a], 0) + pick(Some(1)) + pair(Ok(Some(p.a))) + shadow(2) + u.one()))
}
`;
const UTIL = `pub record Pair {
  a: Int,
  b: Int,
}

pub fn one() -> Int {
  1
}
`;

function analysed() {
  const dir = workspace({ "main.nz": MAIN, "lib/util.nz": UTIL });
  const config = { root: join(dir, "main.nz"), sourceRoot: dir };
  const cache = newFactCache();
  const buffers = new Map<string, Uint8Array>();
  const compiled = compileSources(config, buffers, cache, false);
  assertEquals(compiled.diagnostics.map((d) => d.code), []);
  return new Analysis(compiled, 0, () => compileSources(config, buffers, cache, true));
}

/** The offset `delta` bytes into the `nth` occurrence of `needle` in main.nz. */
function at(needle: string, delta = 0, nth = 0): number {
  let offset = -1;
  for (let k = 0; k <= nth; k++) offset = MAIN.indexOf(needle, offset + 1);
  assert(offset >= 0, `${needle} (${nth}) not in main.nz`);
  return offset + delta;
}

const shown = (analysis: Analysis, offset: number) => {
  const h = hover(analysis, "main.nz", offset);
  return h === null ? null : (h.contents as { value: string }).value;
};

Deno.test("lsp hover: the names a pattern binds show their types", () => {
  const analysis = analysed();
  assertEquals(shown(analysis, at("[h,", 1)), "```nazm\nh: T\n```");
  assertEquals(shown(analysis, at("..rest", 2)), "```nazm\nrest: List[T]\n```");
  assertEquals(shown(analysis, at("{ h }", 2)), "```nazm\nh: T\n```"); // a use
  assertEquals(shown(analysis, at("Some(n)", 5)), "```nazm\nn: Int\n```");
  assertEquals(shown(analysis, at("n + 1")), "```nazm\nn: Int\n```");
  // Nested: the payload of the payload.
  assertEquals(shown(analysis, at("Some(x)", 5)), "```nazm\nx: Int\n```");
});

Deno.test("lsp hover: modules, by an import's path, its alias and a qualified name", () => {
  const analysis = analysed();
  const module = "```nazm\nmodule lib.util\n```\n\nlib/util.nz";
  assertEquals(shown(analysis, at("util as", 1)), module);
  assertEquals(shown(analysis, at("as u", 3)), module);
  assertEquals(shown(analysis, at("u.one()")), module);
  assertEquals(shown(analysis, at("lib.util as", 1)), null); // `lib` is a folder, not a module
  // `u` in shadow is its parameter, in the comment and the string nothing.
  assertEquals(shown(analysis, at("u + 1")), "```nazm\nu: Int\n```");
  assertEquals(shown(analysis, at("u.one in a comment")), null);
  assertEquals(shown(analysis, at('u.one";')), null);

  const workspace = { uriOf: (path: string) => `file:///${path}` } as Workspace;
  const location = definition(workspace, analysis, "main.nz", at("u.one()"));
  assertEquals(location, {
    uri: "file:///lib/util.nz",
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  });
  // The parameter's declaration.
  const parameter = at("u: Int");
  assertEquals(definition(workspace, analysis, "main.nz", at("u + 1"))?.range.start, {
    line: MAIN.slice(0, parameter).split("\n").length - 1,
    character: parameter - MAIN.lastIndexOf("\n", parameter) - 1,
  });
});

Deno.test("lsp hover: the prelude's functions, types and variants, never inside text", () => {
  const analysis = analysed();
  assertEquals(
    shown(analysis, at("Option[Int]", 0)),
    "```nazm\nenum Option[T] { Some(T), None }\n```\n\nA value, or `None` when there is none.",
  );
  assert(shown(analysis, at("Int])", 0))!.startsWith("```nazm\ntype Int\n```\n\nA signed 64-bit"));
  assert(shown(analysis, at("List[T]", 2))!.startsWith("```nazm\ntype List[T]\n```"));
  assertEquals(shown(analysis, at("None =>", 0)), "```nazm\nenum Option[T]\nNone\n```");
  assertEquals(shown(analysis, at("Some(1)", 2)), "```nazm\nenum Option[T]\nSome(T)\n```");
  assertEquals(shown(analysis, at("Err(_)", 0)), "```nazm\nenum Result[T, E]\nErr(E)\n```");
  assert(shown(analysis, at("len(rest)", 1))!.startsWith("```nazm\nfn len"));
  assertEquals(shown(analysis, at("Some u.one in", 0)), null); // a comment
  assertEquals(shown(analysis, at('"Some u', 1)), null); // a string
  assertEquals(definition({} as Workspace, analysis, "main.nz", at("Some(1)")), null);
});

Deno.test("lsp hover: a module's references and highlights, not a local of its name", () => {
  const analysis = analysed();
  const workspace = { uriOf: (path: string) => path } as Workspace;
  const lineOf = (offset: number) => MAIN.slice(0, offset).split("\n").length - 1;
  const expected = [
    [lineOf(at("as u", 3)), "u"], // the alias binds the name: the declaration
    [lineOf(at("util.{Pair}")), "util"], // an import of its names names it too
    [lineOf(at("u.one()")), "u"],
  ];
  for (const offset of [at("as u", 3), at("u.one()"), at("util.{Pair}", 1)]) {
    const found = references(workspace, analysis, "main.nz", offset, true)!;
    assertEquals(
      found.map((l) => [
        l.range.start.line,
        MAIN.split("\n")[l.range.start.line].slice(
          l.range.start.character,
          l.range.end.character,
        ),
      ]),
      expected,
    );
  }
  assertEquals(references(workspace, analysis, "main.nz", at("u.one()"), false)!.length, 2);
  // `u` in shadow is its parameter: the module's places leave it out, and its own are its own.
  assertEquals(
    highlights(analysis, "main.nz", at("u.one()")).map((h) => [h.range.start.line, h.kind]),
    [[0, 3], [1, 2], [lineOf(at("u.one()")), 2]],
  );
  assertEquals(
    highlights(analysis, "main.nz", at("u + 1")).map((h) => h.range.start.line),
    [lineOf(at("u: Int")), lineOf(at("u + 1"))],
  );
});
