/**
 * The realistic example program checks clean, and variants of it with one
 * planted error each (string replacements in memory) give exactly the
 * expected codes.
 */
import { assertEquals } from "../support/assert.ts";
import { diskHost, loadCompilation, type SourceHost } from "../../src/semantics/mod.ts";
import { resolve } from "node:path";

const ROOT = resolve("examples/ledger");

function withEdit(file: string, from: string, to: string): SourceHost {
  return {
    readFile(path, limit) {
      const bytes = diskHost(ROOT).readFile(path, limit);
      if (path !== `${ROOT}/${file}` || !(bytes instanceof Uint8Array)) return bytes;
      const text = new TextDecoder().decode(bytes);
      if (!text.includes(from)) throw new Error(`planted edit: \`${from}\` not in ${file}`);
      return new TextEncoder().encode(text.replace(from, to));
    },
  };
}

function codes(host: SourceHost = diskHost(ROOT)): string[] {
  const c = loadCompilation(`${ROOT}/main.nz`, { host });
  return c.diagnostics.map((d) => d.code);
}

Deno.test("ledger: checks clean", () => {
  assertEquals(codes(), []);
});

const PLANTED: [string, string, string, string[]][] = [
  ["core/money.nz", '    Currency.Chf => "CHF",\n', "", ["N0306"]],
  ["main.nz", "print_all(rest)", "print_al(rest)", ["N0201"]],
  ["core/money.nz", "Money { cents: 0, currency }", "Money { cents: 0 }", ["N0304", "N0401"]],
  ["main.nz", "9 + 5", '"9"', ["N0301"]],
  ["main.nz", "9 + 5", '9 + "5"', ["N0310"]],
  ["main.nz", "fn main() -> Int", "fn main(_x: Int) -> Int", ["N0502"]],
  ["main.nz", "  let refused =", "  let unused_thing = 1;\n  let refused =", ["N0401"]],
  ["core/money.nz", "a.cents + b.cents", "a.cents + b.cent", ["N0206"]],
  ["core/money.nz", 'Currency.Eur => "\\u{20AC}"', 'Currency.Euro => "\\u{20AC}"', ["N0207"]],
  ["main.nz", "import report.summary\n", "import report.summary\nimport util.nothing\n", ["N0202"]],
  ["core/money.nz", "pub fn code(", "fn code(", ["N0203"]],
  [
    "main.nz",
    "fn expected_refusals() -> Int {\n  9 + 5\n}",
    "fn expected_refusals() -> Int {\n  9 + 5\n}\n\nfn spare() -> Int { 1 }",
    ["N0403"],
  ],
  ["main.nz", "print_all(rest)", "print_all(rest, 1)", ["N0302"]],
  ["main.nz", "9 + 5", "9(5)", ["N0303"]],
];

for (const [file, from, to, expected] of PLANTED) {
  Deno.test(`ledger: planted ${expected.join(",")} in ${file}`, () => {
    const got = codes(withEdit(file, from, to));
    assertEquals([...new Set(got)].sort(), expected, JSON.stringify(got));
  });
}
