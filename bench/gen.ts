/**
 * A deterministic generator of a synthetic multi-module Nazm program and of
 * its TypeScript twin, built from one structure so that both sides hold the
 * same definitions, the same calls and the same imports.
 *
 * The program is made of modules `pkgNN/modNNN`; each module holds "units"
 * (a record, an enum with payloads, and eight to ten functions over them:
 * matches, list recursion, Option and Result, a generic function, functions as
 * values) and a `bridge` that uses every module it imports. Module `i`
 * imports module `i - 1` and up to two earlier ones, so the root `main`
 * reaches every module. Every definition is `pub` and every local, parameter
 * and import is used, so a correct checker reports nothing.
 *
 * Usage: `deno run --allow-write bench/gen.ts --lines 100000 --out bench/out/gen100k`
 * writes `nazm/` (root `nazm/main.nz`) and `ts/` (root `ts/main.ts`, with a
 * `tsconfig.json` for `tsc --noEmit`).
 *
 * @module
 */

/** What to generate. */
export interface GenOptions {
  /** The approximate number of Nazm lines (the TypeScript twin has about as many). */
  readonly lines: number;
  /** The number of modules besides the root; default: one per 500 lines. */
  readonly modules?: number;
  /** The PRNG seed; the same options always give the same program. */
  readonly seed?: number;
}

/** A generated program: relative paths (with `/`) to file contents, for both languages. */
export interface GeneratedProgram {
  /** Nazm files, including the root `main.nz`. */
  readonly nazm: ReadonlyMap<string, string>;
  /** TypeScript files, including the root `main.ts`, `prelude.ts` and `tsconfig.json`. */
  readonly ts: ReadonlyMap<string, string>;
  /** The Nazm root, relative to the Nazm tree. */
  readonly nazmRoot: string;
  /** The TypeScript root, relative to the TypeScript tree. */
  readonly tsRoot: string;
  readonly stats: GenStats;
}

/** Sizes of a generated program. */
export interface GenStats {
  readonly modules: number;
  readonly units: number;
  readonly nazmLines: number;
  readonly nazmBytes: number;
  readonly tsLines: number;
  readonly tsBytes: number;
}

// ---------------------------------------------------------------- PRNG

/** mulberry32: small, fast and good enough for shapes (tests generate programs with it too). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Rand {
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
  sample<T>(xs: readonly T[], n: number): T[];
}

function makeRand(seed: number): Rand {
  const next = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    int,
    pick: (xs) => xs[int(0, xs.length - 1)],
    chance: (p) => next() < p,
    sample: (xs, n) => {
      const copy = [...xs];
      const out = [];
      while (out.length < n && copy.length > 0) {
        out.push(copy.splice(int(0, copy.length - 1), 1)[0]);
      }
      return out;
    },
  };
}

// ---------------------------------------------------------------- structure

type FieldType = "Int" | "String" | "Bool" | "ListInt";
type Payload = "none" | "item" | "intint" | "string" | "optint" | "boolint";

interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
}

interface VariantSpec {
  readonly name: string;
  readonly payload: Payload;
}

interface UnitSpec {
  /** Program-wide unique, so names never collide, even through `.{...}` imports. */
  readonly id: number;
  readonly noun: string;
  readonly extras: readonly FieldSpec[];
  readonly variants: readonly VariantSpec[];
  readonly generic: boolean;
  readonly mapper: boolean;
  /** A unit of the same module to call from `run`, if any. */
  readonly localCall: UnitSpec | null;
  /** An alias-imported module and one of its units to call from `run`, if any. */
  readonly remoteCall: { readonly dep: ModuleSpec; readonly unit: UnitSpec } | null;
}

interface DepSpec {
  readonly module: ModuleSpec;
  /** Alias import (`import a.b as m`) or named import (`import a.b.{X, y}`). */
  readonly named: boolean;
  /** The unit of the dependency used by the bridge. */
  readonly unit: UnitSpec;
}

interface ModuleSpec {
  readonly index: number;
  readonly dir: string;
  readonly file: string;
  readonly alias: string;
  readonly deps: DepSpec[];
  readonly units: UnitSpec[];
}

const NOUNS = [
  "Order",
  "Parcel",
  "Invoice",
  "Ticket",
  "Sensor",
  "Route",
  "Batch",
  "Member",
  "Policy",
  "Record",
  "Signal",
  "Stock",
  "Visit",
  "Claim",
  "Device",
  "Shift",
];
const INT_FIELDS = ["count", "score", "level", "limit", "rank", "depth", "price", "quota"];
const STRING_FIELDS = ["note", "owner", "code", "region"];
const BOOL_FIELDS = ["active", "locked", "urgent"];
const LIST_FIELDS = ["marks", "history"];
const VARIANT_NAMES = [
  "Created",
  "Moved",
  "Renamed",
  "Cleared",
  "Tagged",
  "Flagged",
  "Merged",
  "Split",
  "Closed",
  "Opened",
  "Paused",
];
const OTHER_PAYLOADS: readonly Payload[] = ["intint", "string", "optint", "boolint", "none"];

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

function planUnit(
  rand: Rand,
  id: number,
  localCall: UnitSpec | null,
  aliasDeps: readonly DepSpec[],
): UnitSpec {
  const extras: FieldSpec[] = [];
  for (const name of rand.sample(INT_FIELDS, rand.int(0, 3))) extras.push({ name, type: "Int" });
  for (const name of rand.sample(STRING_FIELDS, rand.int(0, 1))) {
    extras.push({ name, type: "String" });
  }
  for (const name of rand.sample(BOOL_FIELDS, rand.int(0, 2))) extras.push({ name, type: "Bool" });
  for (const name of rand.sample(LIST_FIELDS, rand.int(0, 1))) {
    extras.push({ name, type: "ListInt" });
  }
  const names = rand.sample(VARIANT_NAMES, rand.int(3, 6));
  // The first variant carries the record, the second carries nothing (bridges
  // construct it from other modules); the rest are drawn.
  const variants: VariantSpec[] = names.map((name, i) => ({
    name,
    payload: i === 0 ? "item" : i === 1 ? "none" : rand.pick(OTHER_PAYLOADS),
  }));
  let remoteCall: UnitSpec["remoteCall"] = null;
  if (aliasDeps.length > 0 && rand.chance(0.6)) {
    const dep = rand.pick(aliasDeps).module;
    remoteCall = { dep, unit: rand.pick(dep.units) };
  }
  return {
    id,
    noun: rand.pick(NOUNS),
    extras,
    variants,
    generic: rand.chance(0.5),
    mapper: rand.chance(0.3),
    localCall,
    remoteCall,
  };
}

// ---------------------------------------------------------------- output buffer

class Out {
  readonly lines: string[] = [];
  line(text = ""): void {
    this.lines.push(text);
  }
  text(): string {
    return this.lines.join("\n") + "\n";
  }
}

function itemName(u: UnitSpec): string {
  return `${u.noun}${u.id}`;
}
function eventName(u: UnitSpec): string {
  return `${u.noun}Event${u.id}`;
}

/** A value of a field's type, from the `id` and `label` parameters of `make`. */
function fieldValue(f: FieldSpec, i: number, ts: boolean): string {
  switch (f.type) {
    case "Int":
      return `id * ${i + 2} + ${i + 1}`;
    case "String":
      return `label + "-${f.name}"`;
    case "Bool":
      return ts ? `id % ${i + 2} === 0` : `id % ${i + 2} == 0`;
    case "ListInt":
      return `[id, ${i + 3}, ${i * 7 + 1}]`;
  }
}

/** The expression that builds each variant in `run`. */
function variantValue(u: UnitSpec, v: VariantSpec, prefix: string, ts: boolean): string {
  if (ts) {
    switch (v.payload) {
      case "none":
        return `{ tag: "${v.name}" }`;
      case "item":
        return `{ tag: "${v.name}", a0: item }`;
      case "intint":
        return `{ tag: "${v.name}", a0: seed, a1: ${u.id % 9 + 1} }`;
      case "string":
        return `{ tag: "${v.name}", a0: "${v.name.toLowerCase()}" }`;
      case "optint":
        return `{ tag: "${v.name}", a0: { tag: "Some", value: seed } }`;
      case "boolint":
        return `{ tag: "${v.name}", a0: true, a1: seed }`;
    }
  }
  const head = `${prefix}${eventName(u)}.${v.name}`;
  switch (v.payload) {
    case "none":
      return head;
    case "item":
      return `${head}(item)`;
    case "intint":
      return `${head}(seed, ${u.id % 9 + 1})`;
    case "string":
      return `${head}("${v.name.toLowerCase()}")`;
    case "optint":
      return `${head}(Some(seed))`;
    case "boolint":
      return `${head}(true, seed)`;
  }
}

/** Writes `head[a, b, c]tail` on one line, or one element a line when too long. */
function listLines(out: Out, indent: string, head: string, elems: string[], tail: string): void {
  const one = `${indent}${head}[${elems.join(", ")}]${tail}`;
  if (one.length <= 100) {
    out.line(one);
    return;
  }
  out.line(`${indent}${head}[`);
  for (const e of elems) out.line(`${indent}  ${e},`);
  out.line(`${indent}]${tail}`);
}

/** Writes `one` when it fits in 100 columns (as the canonical layout does), else `lines`. */
function oneLineOr(out: Out, lines: readonly string[], one: string): void {
  if (one.length <= 100) out.line(one);
  else for (const l of lines) out.line(l);
}

/** `base = t0 + t1 + ...`, in parts of three terms so lines stay short. */
function baseLines(out: Out, terms: readonly string[], keyword: string): void {
  if (terms.length <= 3) {
    out.line(`  ${keyword} base = ${terms.join(" + ")};`);
    return;
  }
  const parts: string[] = [];
  for (let i = 0; i < terms.length; i += 3) {
    parts.push(`part${parts.length}`);
    out.line(`  ${keyword} ${parts.at(-1)} = ${terms.slice(i, i + 3).join(" + ")};`);
  }
  out.line(`  ${keyword} base = ${parts.join(" + ")};`);
}

// ---------------------------------------------------------------- Nazm

function nazmUnit(out: Out, u: UnitSpec): void {
  const item = itemName(u);
  const ev = eventName(u);
  const n = u.id;
  const ints = u.extras.filter((f) => f.type === "Int");
  const strs = u.extras.filter((f) => f.type === "String");
  const bools = u.extras.filter((f) => f.type === "Bool");
  const lists = u.extras.filter((f) => f.type === "ListInt");

  out.line(`// ---- unit ${n}: ${u.noun.toLowerCase()}s`);
  out.line();
  out.line(`/// A ${u.noun.toLowerCase()} as the unit ${n} knows it.`);
  out.line(`pub record ${item} {`);
  out.line(`  id: Int,`);
  out.line(`  label: String,`);
  out.line(`  weight: Int,`);
  for (const f of u.extras) {
    out.line(`  ${f.name}: ${f.type === "ListInt" ? "List[Int]" : f.type},`);
  }
  out.line(`}`);
  out.line();
  out.line(`/// What can happen to a ${item}.`);
  out.line(`pub enum ${ev} {`);
  for (const v of u.variants) {
    const payload = {
      none: "",
      item: `(${item})`,
      intint: "(Int, Int)",
      string: "(String)",
      optint: "(Option[Int])",
      boolint: "(Bool, Int)",
    }[v.payload];
    out.line(`  ${v.name}${payload},`);
  }
  out.line(`}`);
  out.line();

  if (lists.length > 0) {
    out.line(`/// The sum of a list of integers.`);
    out.line(`pub fn total${n}(xs: List[Int]) -> Int {`);
    out.line(`  match xs {`);
    out.line(`    [] => 0,`);
    out.line(`    [x, ..rest] => x + total${n}(rest),`);
    out.line(`  }`);
    out.line(`}`);
    out.line();
  }

  const terms = [`item.weight * factor`];
  ints.forEach((f, i) => terms.push(`item.${f.name} * ${i + 2}`));
  strs.forEach((f) => terms.push(`len(item.${f.name})`));
  lists.forEach((f) => terms.push(`total${n}(item.${f.name})`));
  out.line(`/// The weight of a ${item}, scaled by a factor.`);
  out.line(`pub fn weight${n}(item: ${item}, factor: Int) -> Int {`);
  baseLines(out, terms, "let");
  if (bools.length === 0) out.line(`  let bonus = ${n % 5 + 1};`);
  else {
    const cond = bools.map((f, i) => (i % 2 === 0 ? `item.${f.name}` : `!item.${f.name}`)).join(
      " && ",
    );
    out.line(`  let bonus = if ${cond} { 5 } else { 1 };`);
  }
  // The canonical layout (nazm fmt) puts an `if` on one line when it fits.
  const limit = 100 + (n % 50);
  oneLineOr(
    out,
    [
      `  if base > ${limit} {`,
      `    base - len(item.label) + bonus`,
      `  } else {`,
      `    base + item.id % 13 + bonus`,
      `  }`,
    ],
    `  if base > ${limit} { base - len(item.label) + bonus } else { base + item.id % 13 + bonus }`,
  );
  out.line(`}`);
  out.line();

  out.line(`/// Checks a ${item} before it is used.`);
  out.line(`pub fn check${n}(item: ${item}) -> Result[Int, String] {`);
  out.line(`  if item.weight < 0 {`);
  out.line(`    Err("negative weight in " + item.label)`);
  out.line(`  } else if item.id == 0 {`);
  out.line(`    Err("missing id")`);
  out.line(`  } else {`);
  out.line(`    Ok(item.weight + item.id)`);
  out.line(`  }`);
  out.line(`}`);
  out.line();

  out.line(`/// Applies one event to an accumulated value.`);
  out.line(`pub fn apply${n}(event: ${ev}, acc: Int) -> Int {`);
  out.line(`  match event {`);
  for (const v of u.variants) {
    const head = `${ev}.${v.name}`;
    switch (v.payload) {
      case "none":
        out.line(`    ${head} => acc - 1,`);
        break;
      case "item":
        out.line(`    ${head}(item) => match check${n}(item) {`);
        out.line(`      Ok(value) => acc + value,`);
        out.line(`      Err(_) => acc,`);
        out.line(`    },`);
        break;
      case "intint":
        out.line(`    ${head}(a, b) => acc + a * b,`);
        break;
      case "string":
        out.line(`    ${head}(text) => acc + len(text),`);
        break;
      case "optint":
        out.line(`    ${head}(Some(k)) => acc + k,`);
        out.line(`    ${head}(None) => acc - ${n % 7 + 1},`);
        break;
      case "boolint":
        out.line(`    ${head}(true, k) => acc + k,`);
        out.line(`    ${head}(_, k) => acc - k,`);
        break;
    }
  }
  out.line(`  }`);
  out.line(`}`);
  out.line();

  out.line(`/// Folds a list of events, first to last.`);
  out.line(`pub fn fold${n}(events: List[${ev}], acc: Int) -> Int {`);
  out.line(`  match events {`);
  out.line(`    [] => acc,`);
  out.line(`    [first, ..rest] => fold${n}(rest, apply${n}(first, acc)),`);
  out.line(`  }`);
  out.line(`}`);
  out.line();

  out.line(`/// Builds a ${item} from an id and a label.`);
  out.line(`pub fn make${n}(id: Int, label: String) -> ${item} {`);
  const inits = [`id`, `label`, `weight: id * ${n % 4 + 2} + ${n % 11}`];
  u.extras.forEach((f, i) => inits.push(`${f.name}: ${fieldValue(f, i, false)}`));
  oneLineOr(
    out,
    [`  ${item} {`, ...inits.map((x) => `    ${x},`), `  }`],
    `  ${item} { ${inits.join(", ")} }`,
  );
  out.line(`}`);
  out.line();

  out.line(`/// Finds the ${item} with an id.`);
  out.line(`pub fn find${n}(items: List[${item}], id: Int) -> Option[${item}] {`);
  out.line(`  match items {`);
  out.line(`    [] => None,`);
  out.line(`    [first, ..rest] => if first.id == id { Some(first) } else { find${n}(rest, id) },`);
  out.line(`  }`);
  out.line(`}`);
  out.line();

  if (u.generic) {
    out.line(`/// The first element, or the fallback for an empty list.`);
    out.line(`pub fn pick${n}[T](xs: List[T], fallback: T) -> T {`);
    out.line(`  match xs {`);
    out.line(`    [x, .._] => x,`);
    out.line(`    [] => fallback,`);
    out.line(`  }`);
    out.line(`}`);
    out.line();
  }
  if (u.mapper) {
    // Map with an accumulator: `push` appends, so the order is kept.
    out.line(`/// Applies \`f\` to every element, keeping the order.`);
    out.line(`pub fn map${n}[T, U](f: fn(T) -> U, xs: List[T], acc: List[U]) -> List[U] {`);
    out.line(`  match xs {`);
    out.line(`    [] => acc,`);
    out.line(`    [x, ..rest] => map${n}(f, rest, push(acc, f(x))),`);
    out.line(`  }`);
    out.line(`}`);
    out.line();
    out.line(`/// The id of a ${item}.`);
    out.line(`pub fn id_of${n}(item: ${item}) -> Int {`);
    out.line(`  item.id`);
    out.line(`}`);
    out.line();
  }

  out.line(`/// Runs the scenario of unit ${n} from a seed.`);
  out.line(`pub fn run${n}(seed: Int) -> Int {`);
  out.line(`  let item = make${n}(seed, "${u.noun.toLowerCase()}${n}");`);
  listLines(out, "  ", "let events = ", u.variants.map((v) => variantValue(u, v, "", false)), ";");
  out.line(`  let measure = weight${n};`);
  out.line(`  let found = match find${n}([item, make${n}(seed + 1, "other")], seed) {`);
  out.line(`    Some(x) => measure(x, ${n % 3 + 1}),`);
  out.line(`    None => 0,`);
  out.line(`  };`);
  const sum = [`fold${n}(events, found)`];
  if (u.generic) {
    out.line(`  let head = pick${n}([found, seed], 0);`);
    sum.push("head");
  }
  if (u.mapper) {
    out.line(`  let ids = map${n}(id_of${n}, [item, item], []);`);
    out.line(`  let first_id = pick_int${n}(ids);`);
    sum.push("first_id");
  }
  if (u.localCall) sum.push(`run${u.localCall.id}(seed - 1)`);
  if (u.remoteCall) sum.push(`${u.remoteCall.dep.alias}.run${u.remoteCall.unit.id}(seed + 2)`);
  out.line(`  ${sum.join(" + ")}`);
  out.line(`}`);
  out.line();
  if (u.mapper) {
    out.line(`fn pick_int${n}(xs: List[Int]) -> Int {`);
    out.line(`  match xs {`);
    out.line(`    [x, ..] => x,`);
    out.line(`    _ => 0,`);
    out.line(`  }`);
    out.line(`}`);
    out.line();
  }
}

function nazmModule(m: ModuleSpec): string {
  const out = new Out();
  out.line(`// Generated module ${m.dir}.${m.file}: do not edit.`);
  for (const d of m.deps) {
    const path = `${d.module.dir}.${d.module.file}`;
    if (d.named) {
      const u = d.unit;
      out.line(`import ${path}.{${itemName(u)}, make${u.id}, weight${u.id}, run${u.id}}`);
    } else out.line(`import ${path} as ${d.module.alias}`);
  }
  if (m.deps.length > 0) out.line();
  for (const u of m.units) nazmUnit(out, u);

  // The bridge and the typed adapters use every import.
  for (const d of m.deps) {
    const u = d.unit;
    const p = d.named ? "" : `${d.module.alias}.`;
    out.line(`/// Reads a ${itemName(u)} of module ${d.module.dir}.${d.module.file}.`);
    out.line(`pub fn via_${d.module.alias}(x: ${p}${itemName(u)}, factor: Int) -> Int {`);
    out.line(`  ${p}weight${u.id}(x, factor) + x.id`);
    out.line(`}`);
    out.line();
  }
  out.line(`/// Uses every module this one imports.`);
  out.line(`pub fn bridge(seed: Int) -> Int {`);
  const sum: string[] = [];
  m.deps.forEach((d, i) => {
    const u = d.unit;
    const p = d.named ? "" : `${d.module.alias}.`;
    out.line(`  let v${i} = ${p}make${u.id}(seed + ${i}, "bridge");`);
    const via = `via_${d.module.alias}(v${i}, ${i + 1})`;
    sum.push(`w${i}`);
    if (d.named) out.line(`  let w${i} = ${via} + run${u.id}(seed);`);
    else {
      const none = u.variants.find((v) => v.payload === "none")!;
      const events = `[${p}${eventName(u)}.${none.name}]`;
      out.line(`  let w${i} = ${via} + ${p}fold${u.id}(${events}, seed);`);
    }
  });
  for (const u of m.units.slice(-1)) sum.push(`run${u.id}(seed)`);
  out.line(`  ${sum.join(" + ")}`);
  out.line(`}`);
  return out.text();
}

function nazmMain(roots: readonly ModuleSpec[]): string {
  const out = new Out();
  out.line(`// Generated root: do not edit.`);
  for (const m of roots) out.line(`import ${m.dir}.${m.file} as ${m.alias}`);
  out.line();
  out.line(`/// The entry point: runs the last modules, which reach all the others.`);
  out.line(`fn main() -> Int {`);
  out.line(`  let total = ${roots.map((m, i) => `${m.alias}.bridge(${i + 1})`).join(" + ")};`);
  out.line(`  print("total: " + to_string(total));`);
  out.line(`  0`);
  out.line(`}`);
  return out.text();
}

// ---------------------------------------------------------------- TypeScript

function tsUnit(out: Out, u: UnitSpec): void {
  const item = itemName(u);
  const ev = eventName(u);
  const n = u.id;
  const ints = u.extras.filter((f) => f.type === "Int");
  const strs = u.extras.filter((f) => f.type === "String");
  const bools = u.extras.filter((f) => f.type === "Bool");
  const lists = u.extras.filter((f) => f.type === "ListInt");
  const tsType = { Int: "number", String: "string", Bool: "boolean", ListInt: "readonly number[]" };

  out.line(`// ---- unit ${n}: ${u.noun.toLowerCase()}s`);
  out.line();
  out.line(`/** A ${u.noun.toLowerCase()} as the unit ${n} knows it. */`);
  out.line(`export interface ${item} {`);
  out.line(`  readonly id: number;`);
  out.line(`  readonly label: string;`);
  out.line(`  readonly weight: number;`);
  for (const f of u.extras) out.line(`  readonly ${f.name}: ${tsType[f.type]};`);
  out.line(`}`);
  out.line();
  out.line(`/** What can happen to a ${item}. */`);
  out.line(`export type ${ev} =`);
  u.variants.forEach((v, i) => {
    const payload = {
      none: "",
      item: `; readonly a0: ${item}`,
      intint: "; readonly a0: number; readonly a1: number",
      string: "; readonly a0: string",
      optint: "; readonly a0: Option<number>",
      boolint: "; readonly a0: boolean; readonly a1: number",
    }[v.payload];
    const end = i === u.variants.length - 1 ? ";" : "";
    out.line(`  | { readonly tag: "${v.name}"${payload} }${end}`);
  });
  out.line();

  if (lists.length > 0) {
    out.line(`/** The sum of a list of integers. */`);
    out.line(`export function total${n}(xs: readonly number[]): number {`);
    out.line(`  if (xs.length === 0) {`);
    out.line(`    return 0;`);
    out.line(`  }`);
    out.line(`  const [x, ...rest] = xs;`);
    out.line(`  return x + total${n}(rest);`);
    out.line(`}`);
    out.line();
  }

  const terms = [`item.weight * factor`];
  ints.forEach((f, i) => terms.push(`item.${f.name} * ${i + 2}`));
  strs.forEach((f) => terms.push(`item.${f.name}.length`));
  lists.forEach((f) => terms.push(`total${n}(item.${f.name})`));
  out.line(`/** The weight of a ${item}, scaled by a factor. */`);
  out.line(`export function weight${n}(item: ${item}, factor: number): number {`);
  baseLines(out, terms, "const");
  if (bools.length === 0) out.line(`  const bonus = ${n % 5 + 1};`);
  else {
    const cond = bools.map((f, i) => (i % 2 === 0 ? `item.${f.name}` : `!item.${f.name}`)).join(
      " && ",
    );
    out.line(`  const bonus = ${cond} ? 5 : 1;`);
  }
  out.line(`  if (base > ${100 + (n % 50)}) {`);
  out.line(`    return base - item.label.length + bonus;`);
  out.line(`  } else {`);
  out.line(`    return base + item.id % 13 + bonus;`);
  out.line(`  }`);
  out.line(`}`);
  out.line();

  out.line(`/** Checks a ${item} before it is used. */`);
  out.line(`export function check${n}(item: ${item}): Result<number, string> {`);
  out.line(`  if (item.weight < 0) {`);
  out.line(`    return { tag: "Err", error: "negative weight in " + item.label };`);
  out.line(`  } else if (item.id === 0) {`);
  out.line(`    return { tag: "Err", error: "missing id" };`);
  out.line(`  } else {`);
  out.line(`    return { tag: "Ok", value: item.weight + item.id };`);
  out.line(`  }`);
  out.line(`}`);
  out.line();

  out.line(`/** Applies one event to an accumulated value. */`);
  out.line(`export function apply${n}(event: ${ev}, acc: number): number {`);
  out.line(`  switch (event.tag) {`);
  for (const v of u.variants) {
    out.line(`    case "${v.name}": {`);
    switch (v.payload) {
      case "none":
        out.line(`      return acc - 1;`);
        break;
      case "item":
        out.line(`      const checked = check${n}(event.a0);`);
        out.line(`      return checked.tag === "Ok" ? acc + checked.value : acc;`);
        break;
      case "intint":
        out.line(`      return acc + event.a0 * event.a1;`);
        break;
      case "string":
        out.line(`      return acc + event.a0.length;`);
        break;
      case "optint":
        out.line(
          `      return event.a0.tag === "Some" ? acc + event.a0.value : acc - ${n % 7 + 1};`,
        );
        break;
      case "boolint":
        out.line(`      return event.a0 ? acc + event.a1 : acc - event.a1;`);
        break;
    }
    out.line(`    }`);
  }
  out.line(`  }`);
  out.line(`}`);
  out.line();

  out.line(`/** Folds a list of events, first to last. */`);
  out.line(`export function fold${n}(events: readonly ${ev}[], acc: number): number {`);
  out.line(`  if (events.length === 0) {`);
  out.line(`    return acc;`);
  out.line(`  }`);
  out.line(`  const [first, ...rest] = events;`);
  out.line(`  return fold${n}(rest, apply${n}(first, acc));`);
  out.line(`}`);
  out.line();

  out.line(`/** Builds a ${item} from an id and a label. */`);
  out.line(`export function make${n}(id: number, label: string): ${item} {`);
  out.line(`  return {`);
  out.line(`    id,`);
  out.line(`    label,`);
  out.line(`    weight: id * ${n % 4 + 2} + ${n % 11},`);
  u.extras.forEach((f, i) => out.line(`    ${f.name}: ${fieldValue(f, i, true)},`));
  out.line(`  };`);
  out.line(`}`);
  out.line();

  out.line(`/** Finds the ${item} with an id. */`);
  out.line(`export function find${n}(items: readonly ${item}[], id: number): Option<${item}> {`);
  out.line(`  if (items.length === 0) {`);
  out.line(`    return { tag: "None" };`);
  out.line(`  }`);
  out.line(`  const [first, ...rest] = items;`);
  out.line(`  return first.id === id ? { tag: "Some", value: first } : find${n}(rest, id);`);
  out.line(`}`);
  out.line();

  if (u.generic) {
    out.line(`/** The first element, or the fallback for an empty list. */`);
    out.line(`export function pick${n}<T>(xs: readonly T[], fallback: T): T {`);
    out.line(`  if (xs.length === 0) {`);
    out.line(`    return fallback;`);
    out.line(`  }`);
    out.line(`  return xs[0];`);
    out.line(`}`);
    out.line();
  }
  if (u.mapper) {
    out.line(`/** Applies \`f\` to every element, keeping the order. */`);
    out.line(
      `export function map${n}<T, U>(f: (x: T) => U, xs: readonly T[], acc: readonly U[]): readonly U[] {`,
    );
    out.line(`  if (xs.length === 0) {`);
    out.line(`    return acc;`);
    out.line(`  }`);
    out.line(`  const [x, ...rest] = xs;`);
    out.line(`  return map${n}(f, rest, [...acc, f(x)]);`);
    out.line(`}`);
    out.line();
    out.line(`/** The id of a ${item}. */`);
    out.line(`export function id_of${n}(item: ${item}): number {`);
    out.line(`  return item.id;`);
    out.line(`}`);
    out.line();
  }

  out.line(`/** Runs the scenario of unit ${n} from a seed. */`);
  out.line(`export function run${n}(seed: number): number {`);
  out.line(`  const item = make${n}(seed, "${u.noun.toLowerCase()}${n}");`);
  listLines(
    out,
    "  ",
    `const events: ${ev}[] = `,
    u.variants.map((v) => variantValue(u, v, "", true)),
    ";",
  );
  out.line(`  const measure = weight${n};`);
  out.line(`  const option = find${n}([item, make${n}(seed + 1, "other")], seed);`);
  out.line(`  const found = option.tag === "Some" ? measure(option.value, ${n % 3 + 1}) : 0;`);
  const sum = [`fold${n}(events, found)`];
  if (u.generic) {
    out.line(`  const head = pick${n}([found, seed], 0);`);
    sum.push("head");
  }
  if (u.mapper) {
    out.line(`  const ids = map${n}(id_of${n}, [item, item], []);`);
    out.line(`  const first_id = pick_int${n}(ids);`);
    sum.push("first_id");
  }
  if (u.localCall) sum.push(`run${u.localCall.id}(seed - 1)`);
  if (u.remoteCall) sum.push(`${u.remoteCall.dep.alias}.run${u.remoteCall.unit.id}(seed + 2)`);
  out.line(`  return ${sum.join(" + ")};`);
  out.line(`}`);
  out.line();
  if (u.mapper) {
    out.line(`function pick_int${n}(xs: readonly number[]): number {`);
    out.line(`  return xs.length > 0 ? xs[0] : 0;`);
    out.line(`}`);
    out.line();
  }
}

function tsModule(m: ModuleSpec): string {
  const out = new Out();
  out.line(`// Generated module ${m.dir}/${m.file}: do not edit.`);
  out.line(`import type { Option, Result } from "../prelude";`);
  for (const d of m.deps) {
    const path = `../${d.module.dir}/${d.module.file}`;
    if (d.named) {
      const u = d.unit;
      out.line(
        `import { type ${itemName(u)}, make${u.id}, weight${u.id}, run${u.id} } from "${path}";`,
      );
    } else out.line(`import * as ${d.module.alias} from "${path}";`);
  }
  out.line();
  for (const u of m.units) tsUnit(out, u);

  for (const d of m.deps) {
    const u = d.unit;
    const p = d.named ? "" : `${d.module.alias}.`;
    out.line(`/** Reads a ${itemName(u)} of module ${d.module.dir}/${d.module.file}. */`);
    out.line(
      `export function via_${d.module.alias}(x: ${p}${itemName(u)}, factor: number): number {`,
    );
    out.line(`  return ${p}weight${u.id}(x, factor) + x.id;`);
    out.line(`}`);
    out.line();
  }
  out.line(`/** Uses every module this one imports. */`);
  out.line(`export function bridge(seed: number): number {`);
  const sum: string[] = [];
  m.deps.forEach((d, i) => {
    const u = d.unit;
    const p = d.named ? "" : `${d.module.alias}.`;
    out.line(`  const v${i} = ${p}make${u.id}(seed + ${i}, "bridge");`);
    const via = `via_${d.module.alias}(v${i}, ${i + 1})`;
    sum.push(`w${i}`);
    if (d.named) out.line(`  const w${i} = ${via} + run${u.id}(seed);`);
    else {
      const none = u.variants.find((v) => v.payload === "none")!;
      out.line(`  const w${i} = ${via} + ${p}fold${u.id}([{ tag: "${none.name}" }], seed);`);
    }
  });
  for (const u of m.units.slice(-1)) sum.push(`run${u.id}(seed)`);
  out.line(`  return ${sum.join(" + ")};`);
  out.line(`}`);
  return out.text();
}

const TS_PRELUDE = `// Generated: the twin of Nazm's prelude.

/** An optional value. */
export type Option<T> = { readonly tag: "Some"; readonly value: T } | { readonly tag: "None" };

/** A value or an error. */
export type Result<T, E> =
  | { readonly tag: "Ok"; readonly value: T }
  | { readonly tag: "Err"; readonly error: E };

/** Prints a line (a stand-in: the benchmark never runs the program). */
export function print(text: string): void {
  void text;
}
`;

function tsMain(roots: readonly ModuleSpec[]): string {
  const out = new Out();
  out.line(`// Generated root: do not edit.`);
  out.line(`import { print } from "./prelude";`);
  for (const m of roots) out.line(`import * as ${m.alias} from "./${m.dir}/${m.file}";`);
  out.line();
  out.line(`/** The entry point: runs the last modules, which reach all the others. */`);
  out.line(`export function main(): number {`);
  out.line(`  const total = ${roots.map((m, i) => `${m.alias}.bridge(${i + 1})`).join(" + ")};`);
  out.line(`  print("total: " + String(total));`);
  out.line(`  return 0;`);
  out.line(`}`);
  return out.text();
}

/** The tsconfig of the twin: strict, no emit, rooted at main.ts like the Nazm compilation. */
export const TS_CONFIG = JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "es2022",
      module: "esnext",
      moduleResolution: "bundler",
      lib: ["es2022"],
      types: [],
      skipLibCheck: true,
    },
    files: ["main.ts"],
  },
  null,
  2,
) + "\n";

// ---------------------------------------------------------------- plan and emit

function countLines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Generates the program in memory. Deterministic in its options. */
export function generate(options: GenOptions): GeneratedProgram {
  const rand = makeRand(options.seed ?? 0x5eed);
  const moduleCount = Math.max(2, options.modules ?? Math.round(options.lines / 500));
  const perModule = options.lines / moduleCount;
  const modules: ModuleSpec[] = [];
  const nazm = new Map<string, string>();
  const ts = new Map<string, string>();
  let nextUnit = 0;
  let nazmLines = 0;
  let tsLines = 0;
  let nazmBytes = 0;
  let tsBytes = 0;
  const encoder = new TextEncoder();

  for (let i = 0; i < moduleCount; i++) {
    const dir = `pkg${pad(Math.floor(i / 10), 2)}`;
    const file = `mod${pad(i, 3)}`;
    const m: ModuleSpec = { index: i, dir, file, alias: `m${pad(i, 3)}`, deps: [], units: [] };
    if (i > 0) {
      const candidates = [i - 1];
      const older = modules.slice(Math.max(0, i - 30), Math.max(0, i - 1));
      for (const o of rand.sample(older, rand.int(0, 2))) candidates.push(o.index);
      for (const j of candidates) {
        const dep = modules[j];
        m.deps.push({ module: dep, named: rand.chance(0.3), unit: rand.pick(dep.units) });
      }
    }
    const aliasDeps = m.deps.filter((d) => !d.named);
    // Emit units until the module reaches its share of lines (measured on the Nazm text).
    // The target is cumulative, so rounding errors do not add up over modules.
    const target = (i + 1) * perModule - nazmLines - 60;
    let text = "";
    while (m.units.length === 0 || countLines(text) < target) {
      const local = m.units.length > 0 && rand.chance(0.5) ? rand.pick(m.units) : null;
      m.units.push(planUnit(rand, nextUnit++, local, aliasDeps));
      text = nazmModule(m);
    }
    modules.push(m);
    const tsText = tsModule(m);
    nazm.set(`${dir}/${file}.nz`, text);
    nazmLines += countLines(text);
    ts.set(`${dir}/${file}.ts`, tsText);
  }
  const roots = modules.slice(-Math.min(4, modules.length));
  nazm.set("main.nz", nazmMain(roots));
  ts.set("main.ts", tsMain(roots));
  ts.set("prelude.ts", TS_PRELUDE);
  ts.set("tsconfig.json", TS_CONFIG);
  nazmLines = 0;
  for (const text of nazm.values()) {
    nazmLines += countLines(text);
    nazmBytes += encoder.encode(text).length;
  }
  for (const [path, text] of ts) {
    if (!path.endsWith(".ts")) continue;
    tsLines += countLines(text);
    tsBytes += encoder.encode(text).length;
  }
  return {
    nazm,
    ts,
    nazmRoot: "main.nz",
    tsRoot: "main.ts",
    stats: { modules: moduleCount, units: nextUnit, nazmLines, nazmBytes, tsLines, tsBytes },
  };
}

/** Writes `nazm/` and `ts/` under `outDir` (created; existing files are overwritten). */
export function writeProgram(program: GeneratedProgram, outDir: string): void {
  for (const [sub, files] of [["nazm", program.nazm], ["ts", program.ts]] as const) {
    for (const [path, text] of files) {
      const full = `${outDir}/${sub}/${path}`;
      Deno.mkdirSync(full.slice(0, full.lastIndexOf("/")), { recursive: true });
      Deno.writeTextFileSync(full, text);
    }
  }
}

function parseArgs(args: readonly string[]): { options: GenOptions; out: string } {
  let lines = 100_000;
  let modules: number | undefined;
  let seed: number | undefined;
  let out = "";
  for (let i = 0; i < args.length; i++) {
    const value = args[i + 1];
    switch (args[i]) {
      case "--lines":
        lines = Number(value);
        i++;
        break;
      case "--modules":
        modules = Number(value);
        i++;
        break;
      case "--seed":
        seed = Number(value);
        i++;
        break;
      case "--out":
        out = value ?? "";
        i++;
        break;
      default:
        throw new Error(`Unknown argument ${args[i]}`);
    }
  }
  if (!out) throw new Error("Missing --out DIR");
  if (!Number.isFinite(lines) || lines < 100) throw new Error("--lines must be a number ≥ 100");
  return { options: { lines, modules, seed }, out };
}

if (import.meta.main) {
  const { options, out } = parseArgs(Deno.args);
  const program = generate(options);
  writeProgram(program, out);
  const s = program.stats;
  console.log(
    `wrote ${out}: ${s.modules} modules, ${s.units} units; ` +
      `nazm ${s.nazmLines} lines (${(s.nazmBytes / 1e6).toFixed(2)} MB), ` +
      `ts ${s.tsLines} lines (${(s.tsBytes / 1e6).toFixed(2)} MB)`,
  );
}
