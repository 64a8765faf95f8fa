/**
 * Small generated Nazm programs for the plan-safety property test: one
 * seeded PRNG picks, from a fixed set of well-typed templates, which
 * definitions a program has and which names they use — drawn from small
 * pools, so that names collide across scopes (shadowing, a local named like
 * a function, a type parameter named like a record). Every program has
 * generics, record field shorthands (of locals and of functions), nested
 * and list patterns, type annotations, non-ASCII text in strings and
 * comments, and a few planted diagnostics whose fixes can be planned: an
 * unused local beside a `_name` already in use, a non-exhaustive match, an
 * unused import, a misspelled name.
 *
 * @module
 */
import { prng } from "../../bench/gen.ts";

/** A generated program: relative path → text; `main.nz` is the root. */
export interface PlanProgram {
  readonly files: Map<string, string>;
}

const VALUES = [
  "n",
  "x",
  "acc",
  "item",
  "total",
  "value",
  "first",
  "rest",
  "step",
  "left",
  "count",
];
const TYPE_PARAMS = ["T", "U", "A", "Item"];
const TEXTS = ["ünïcödé", "✓ done", "🎉 party", "naïve café", "日本語", "plain"];

/** One program from a seed. */
export function planProgram(seed: number): PlanProgram {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const chance = (p: number) => random() < p;
  const v = () => pick(VALUES);
  const tp = () => pick(TYPE_PARAMS);
  const text = () => pick(TEXTS);

  // The record and enum names; a type parameter may share a name with one (`Item`).
  const box = pick(["Box", "Item", "Crate"]);
  const shape = pick(["Shape", "Tree", "Node"]);
  const t1 = tp();
  const t2 = pick(TYPE_PARAMS.filter((name) => name !== box));
  const u = t1 === "U" ? "V" : "U";
  const [a, b, c] = [v(), v(), v()];
  const lib = chance(0.5);

  const items: string[] = [];
  const calls: string[] = [];
  const uses = (expr: string) => calls.push(`  print(to_string(${expr}));`);

  items.push(`/// A value in a ${box}: "${text()}"
record ${box} { value: Int, label: String }`);
  items.push(`record Pair[${t1}, ${u}] { first: ${t1}, second: ${u} }`);
  items.push(`enum ${shape} { Leaf, Circle(Int), Both(${box}, Int) }`);
  items.push(`record Ops { step: fn(Int) -> Int, twice: fn(Int) -> Int }`);

  // Shadowing: a parameter, a let of the same name, an inner block.
  items.push(`fn shadow(${a}: Int) -> Int {
  let ${a} = ${a} + 1; // ${text()}
  let ${b === a ? "inner" : b} = {
    let ${a} = ${a} * 2;
    ${a} + 1
  };
  ${a} + ${b === a ? "inner" : b}
}`);
  uses("shadow(1)");

  // Generics: type parameters in signatures and annotations, a type parameter named like a record.
  items.push(`fn keep[${t2}](b: ${box}, ${c}: ${t2}) -> ${t2} {
  let _b: ${box} = b;
  ${c}
}`);
  uses(`keep(${box} { value: 1, label: "${text()}" }, 2)`);
  items.push(`fn swap[${t1}, ${u}](p: Pair[${t1}, ${u}]) -> Pair[${u}, ${t1}] {
  Pair { first: p.second, second: p.first }
}`);
  uses(`swap(Pair { first: 1, second: "${text()}" }).second`);

  // Field shorthands: of locals and of functions.
  items.push(`fn make(value: Int) -> ${box} {
  let label = "${text()}";
  ${box} { value, label }
}`);
  uses("make(3).value");
  items.push(`fn step(n: Int) -> Int { n + 1 }`);
  items.push(`fn twice(n: Int) -> Int { step(step(n)) }`);
  items.push(`fn ops() -> Ops { Ops { step, twice } }`);
  uses("(ops().step)(1)");

  // Nested and list patterns.
  items.push(`fn area(s: ${shape}) -> Int {
  match s {
    ${shape}.Leaf => 0,
    ${shape}.Circle(r) => 3 * r * r,
    ${shape}.Both(bx, n) => bx.value + n,
  }
}`);
  uses(`area(${shape}.Circle(2))`);
  items.push(`fn sum(xs: List[Int]) -> Int {
  match xs {
    [] => 0,
    [${a}] => ${a},
    [${a}, ${a === "rest" ? "tail" : "rest"}] => ${a} + ${a === "rest" ? "tail" : "rest"},
    [${a}, ..${a === "more" ? "others" : "more"}] => ${a} + sum(${
    a === "more" ? "others" : "more"
  }),
  }
}`);
  uses("sum([1, 2, 3])");
  items.push(`fn deep(o: Option[Option[List[Int]]]) -> Int {
  match o {
    Some(Some([first, ..])) => first,
    Some(Some([])) => 0,
    Some(None) => -1,
    None => -2,
  }
}`);
  uses("deep(Some(Some([4])))");
  items.push(`fn first_or[${t1}](xs: List[${t1}], fallback: ${t1}) -> ${t1} {
  match xs {
    [${b}, .._] => ${b},
    [] => fallback,
  }
}`);
  uses(`first_or([1], 0)`);
  items.push(`fn parse(text: String) -> Result[Int, String] {
  match parse_int(text) {
    Some(n) => if n < 0 { Err("negative") } else { Ok(n) },
    None => Err("${text()}"),
  }
}`);
  items.push(`fn describe(text: String) -> String {
  match parse(text) {
    Ok(${c}) => to_string(${c}),
    Err(e) => e,
  }
}`);
  uses(`describe("12")`);

  // A function used as a value, and a local named like a function.
  const arg = a === "step" ? "arg" : a;
  items.push(`fn apply(f: fn(Int) -> Int, ${arg}: Int) -> Int {
  let step = f;
  step(${arg})
}`);
  uses("apply(twice, 1)");

  // Planted: an unused local beside a `_name` read later (N0401: the fix must not capture it).
  const unused = pick(VALUES.filter((name) => name !== a));
  items.push(`fn capture(_${unused}: Int) -> Int {
  let ${unused} = 5;
  _${unused}
}`);
  uses("capture(7)");
  if (chance(0.6)) {
    // Planted: a non-exhaustive match, with nested variants (N0306).
    items.push(`fn partial(o: Option[${shape}]) -> Int {
  match o {
    Some(${shape}.Leaf) => 1,
    None => 0,
  }
}`);
    uses(`partial(None)`);
  }
  if (chance(0.6)) {
    // Planted: a misspelled name with a closest name in scope (N0201).
    items.push(`fn typo(count: Int) -> Int { cuont + 1 }`);
    uses("typo(1)");
  }
  if (chance(0.5)) {
    // Planted: a private definition nothing uses (N0403), named like a common local.
    items.push(`fn ${v()}_unused() -> Int { 0 }`);
  }

  const files = new Map<string, string>();
  const imports: string[] = [];
  if (lib) {
    files.set(
      "lib/text.nz",
      `/// Helpers: "${text()}"
pub fn shout(text: String) -> String { text + "!" }

pub fn whisper(text: String) -> String { text }

pub record Tag { name: String }
`,
    );
    imports.push("import lib.text.{shout, Tag}");
    if (chance(0.7)) imports.push("import lib.text as unused_alias"); // planted N0402
    items.push(`fn tagged(name: String) -> Tag { Tag { name: shout(name) } }`);
    calls.push(`  print(tagged("${text()}").name);`);
  }
  const head = imports.length === 0 ? "" : imports.join("\n") + "\n\n";
  files.set(
    "main.nz",
    `${head}${items.join("\n\n")}

fn main() -> Unit {
${calls.join("\n")}
}
`,
  );
  return { files };
}
