/**
 * Generated multi-module Nazm programs and random edits to them, for the
 * incremental engine's property test. A program is kept as data (modules,
 * their imports and definitions) and printed after every edit; what one
 * module says about another (a call's arguments, a field read, a match's
 * arms) is written when it is made and not updated when the other module
 * changes — as when a person edits one file — so edits make type errors,
 * unknown names, missing arms and private names in modules whose bytes did
 * not change, which is what an engine's cut-off must get right.
 *
 * Edits: a function body; a signature (a parameter's type, a parameter more
 * or less, the result); a type definition (a field or a variant more or
 * less, a field's type); `pub` on or off; an import more or less; a rename;
 * a new file (imported from another); a deleted file; a syntax error, taken
 * back by a later edit (other modules edited meanwhile); a call of a name
 * that is not imported; a misspelt name whose "did you mean" reads the
 * names other modules export; a type parameter more, less or renamed (used
 * by another module as `m.Rec[Int]`); variants reordered; a definition
 * renamed onto an imported name or an import's alias (N0204) and back; an
 * import of a module that does not exist yet, whose file a later edit adds;
 * a file deleted and later recreated identical; a file unreadable, too
 * large or not UTF-8, and back; a return to an earlier state of the whole
 * program (what a cache keyed by digest must get right).
 *
 * @module
 */
import { prng } from "../../bench/gen.ts";
import type { ReadError, SourceHost } from "../../src/semantics/mod.ts";

type Ty = "Int" | "String";

interface FnDef {
  kind: "fn";
  name: string;
  pub: boolean;
  params: Ty[];
  result: Ty;
  /** Expressions of type Int, each written once (see the module doc). */
  terms: string[];
  /** Its one type parameter's name (the type of a last parameter `extra`), or null. */
  typeParam: string | null;
}

/** A field's or payload's type: a built-in one, or the definition's type parameter of this index. */
type FieldTy = Ty | number;

interface RecordDef {
  kind: "record";
  name: string;
  pub: boolean;
  typeParams: string[];
  fields: [string, FieldTy][];
}

interface EnumDef {
  kind: "enum";
  name: string;
  pub: boolean;
  typeParams: string[];
  variants: [string, FieldTy | null][];
}

/** A function returning another module's record: its users read that module's type without importing it. */
interface GetterDef {
  kind: "getter";
  name: string;
  pub: boolean;
  /** The record as this module names it (`m2.Rec5`), and its literal, written once. */
  type: string;
  literal: string;
}

type Def = FnDef | RecordDef | EnumDef | GetterDef;

interface Module {
  /** `lib.m3`; the root is `main`. */
  name: string;
  imports: { module: string; names: string[] | null }[];
  defs: Def[];
  tests: string[];
}

/** How a file can fail to load: the test's host answers these for the file. */
export type Refusal = "unreadable" | "too_large" | "not_utf8";

/** The text {@link printProgram} gives a refused file: a marker the test's host turns into the refusal. */
export function refusedText(why: Refusal): string {
  return `\u0000refused:${why}`;
}

/** The refusal a printed text stands for, or null for a file's text. */
export function refusalOf(text: string): Refusal | null {
  return text.startsWith("\u0000refused:") ? text.slice(9) as Refusal : null;
}

export interface EditProgram {
  modules: Module[];
  /** A file whose print is broken on purpose, with its text, until an edit takes it back. */
  broken: { path: string; text: string } | null;
  /** Files that cannot be loaded now, by path, until an edit takes it back. */
  refused: Map<string, Refusal>;
  /** Modules deleted, as they were: an edit may recreate one, identical. */
  deleted: Module[];
  /** Modules imported before their file exists: an edit may create one. */
  awaited: string[];
  /** Earlier states of the program, for an edit that returns to one. */
  history: { modules: Module[]; broken: EditProgram["broken"]; refused: [string, Refusal][] }[];
  next: number;
}

/** Where {@link programHost} puts a program's files. */
export const PROGRAM_ROOT = "/virtual/src";

const encoder = new TextEncoder();

/**
 * A host over a printed program's files under {@link PROGRAM_ROOT}, a
 * refused file's marker read as its refusal. `arrays` keeps each file's
 * array while its text is the same, as the confined read's known files and
 * an editor's unchanged buffer do.
 */
export function programHost(
  files: ReadonlyMap<string, string>,
  arrays = new Map<string, { text: string; bytes: Uint8Array }>(),
): SourceHost {
  const read = (path: string): Uint8Array | ReadError => {
    const text = files.get(path.slice(PROGRAM_ROOT.length + 1));
    if (text === undefined) return { error: "not_found", message: "file not found" };
    switch (refusalOf(text)) {
      case "unreadable":
        return { error: "unreadable", message: "permission denied" };
      case "too_large":
        return { error: "too_large", message: "the file is 9000000 bytes, over the limit" };
      case "not_utf8":
        return new Uint8Array([0x66, 0xff]);
    }
    const known = arrays.get(path);
    if (known?.text === text) return known.bytes;
    const bytes = encoder.encode(text);
    arrays.set(path, { text, bytes });
    return bytes;
  };
  return { readFile: read };
}

export function pathOf(module: string): string {
  return `${module.replaceAll(".", "/")}.nz`;
}

/** The program's files: relative path → text. */
export function printProgram(p: EditProgram): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of p.modules) files.set(pathOf(m.name), printModule(m));
  if (p.broken !== null && files.has(p.broken.path)) files.set(p.broken.path, p.broken.text);
  for (const [path, why] of p.refused) if (files.has(path)) files.set(path, refusedText(why));
  return files;
}

function alias(module: string): string {
  return module.split(".").pop()!;
}

function printModule(m: Module): string {
  const lines: string[] = [];
  for (const imp of m.imports) {
    lines.push(
      imp.names === null
        ? `import ${imp.module}`
        : `import ${imp.module}.{${imp.names.join(", ")}}`,
    );
  }
  if (m.imports.length > 0) lines.push("");
  for (const d of m.defs) {
    const pub = d.pub ? "pub " : "";
    switch (d.kind) {
      case "fn": {
        const params = d.params.map((t, i) => `p${i}: ${t}`);
        if (d.typeParam !== null) params.push(`extra: ${d.typeParam}`);
        const body = d.terms.length === 0 ? "0" : d.terms.join(" + ");
        const result = d.result === "Int" ? body : `to_string(${body})`;
        const tps = d.typeParam === null ? "" : `[${d.typeParam}]`;
        lines.push(
          `/// ${d.name}: ünïcödé ✓`,
          `${pub}fn ${d.name}${tps}(${params.join(", ")}) -> ${d.result} {`,
          `  let total = ${result};`,
          `  total`,
          `}`,
          "",
        );
        break;
      }
      case "getter":
        lines.push(`${pub}fn ${d.name}() -> ${d.type} {`, `  ${d.literal}`, `}`, "");
        break;
      case "record":
        lines.push(
          `${pub}record ${d.name}${typeParamsOf(d)} { ${
            d.fields.map(([n, t]) => `${n}: ${fieldType(d, t)}`).join(", ")
          } }`,
          "",
        );
        break;
      case "enum":
        lines.push(
          `${pub}enum ${d.name}${typeParamsOf(d)} { ${
            d.variants.map(([n, t]) => t === null ? n : `${n}(${fieldType(d, t)})`).join(", ")
          } }`,
          "",
        );
        break;
    }
  }
  for (const t of m.tests) lines.push(t, "");
  if (m.name === "main") {
    const calls = m.defs.filter((d): d is FnDef => d.kind === "fn" && d.name !== "main");
    lines.push(
      `fn main() -> Unit {`,
      ...calls.slice(0, 3).map((f) => `  print(to_string(${f.name}(${argsFor(f.params)})));`),
      `}`,
    );
  }
  return lines.join("\n") + "\n";
}

function typeParamsOf(d: RecordDef | EnumDef): string {
  return d.typeParams.length === 0 ? "" : `[${d.typeParams.join(", ")}]`;
}

/** A field's type as written: a type parameter by its name now (or a name no longer declared). */
function fieldType(d: RecordDef | EnumDef, t: FieldTy): string {
  return typeof t === "number" ? d.typeParams[t] ?? `Gone${t}` : t;
}

/** A value for a field of type `t`: a type parameter's field gets an `Int`. */
function valueOf(t: FieldTy, text: string): string {
  return t === "String" ? text : "7";
}

/** What a field of type `t` reads as an `Int` term. */
function asInt(t: FieldTy, read: string): string {
  return t === "String" ? `len(${read})` : read;
}

function argsFor(params: readonly Ty[]): string {
  return params.map((t, i) => (t === "Int" ? `${i + 1}` : `"s${i}·é🎉"`)).join(", ");
}

/** A program from a seed: a root and 3 to 6 modules importing each other (cycles too). */
export function editProgram(seed: number): EditProgram {
  const random = prng(seed);
  const p: EditProgram = {
    modules: [],
    broken: null,
    refused: new Map(),
    deleted: [],
    awaited: [],
    history: [],
    next: 0,
  };
  const count = 3 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) p.modules.push(newModule(p, `lib.m${i}`, random));
  const root: Module = { name: "main", imports: [], defs: [], tests: [] };
  p.modules.unshift(root);
  for (const m of p.modules) {
    for (const other of p.modules) {
      if (other === m || other.name === "main") continue;
      if (m.name === "main" || random() < 0.35) m.imports.push(importOf(other, random));
    }
  }
  for (const m of p.modules) {
    for (const imp of m.imports) {
      const owner = p.modules.find((o) => o.name === imp.module)!;
      const rec = owner.defs.find((d): d is RecordDef => d.kind === "record");
      if (imp.names !== null || rec === undefined || random() < 0.3) continue;
      const type = `${alias(owner.name)}.${rec.name}`;
      const fields = rec.fields.map(([f, t]) => `${f}: ${valueOf(t, `"zé✓"`)}`);
      const args = rec.typeParams.length === 0 ? "" : `[${rec.typeParams.map(() => "Int")}]`;
      m.defs.push({
        kind: "getter",
        name: fresh(p, "get"),
        pub: true,
        type: type + args,
        literal: `${type} { ${fields.join(", ")} }`,
      });
    }
  }
  for (const m of p.modules) {
    if (m !== root) {
      for (const d of m.defs) if (d.kind === "fn") d.terms = terms(p, m, random, 3);
    }
  }
  root.defs.push(newFn(p, random), newFn(p, random));
  for (const d of root.defs) if (d.kind === "fn") d.terms = terms(p, root, random, 3);
  return p;
}

function importOf(other: Module, random: () => number): Module["imports"][number] {
  if (random() < 0.6) return { module: other.name, names: null };
  const pubs = other.defs.filter((d) => d.pub).map((d) => d.name);
  return { module: other.name, names: pubs.length === 0 ? null : pubs.slice(0, 2) };
}

function fresh(p: EditProgram, prefix: string): string {
  return `${prefix}${p.next++}`;
}

function newFn(p: EditProgram, random: () => number): FnDef {
  return {
    kind: "fn",
    name: fresh(p, "f"),
    pub: random() < 0.8,
    params: random() < 0.3 ? ["Int", "String"] : ["Int"],
    result: random() < 0.85 ? "Int" : "String",
    terms: [],
    typeParam: random() < 0.2 ? "T" : null,
  };
}

function newModule(p: EditProgram, name: string, random: () => number): Module {
  const m: Module = { name, imports: [], defs: [], tests: [] };
  m.defs.push({
    kind: "record",
    name: fresh(p, "Rec"),
    pub: true,
    typeParams: random() < 0.2 ? ["A"] : [],
    fields: [["a", "Int"], ["b", random() < 0.5 ? "String" : "Int"]],
  });
  m.defs.push({
    kind: "enum",
    name: fresh(p, "Shape"),
    pub: true,
    typeParams: [],
    variants: [["Dot", null], ["Round", "Int"]],
  });
  const fns = 2 + Math.floor(random() * 3);
  for (let i = 0; i < fns; i++) m.defs.push(newFn(p, random));
  if (random() < 0.5) {
    const f = m.defs.find((d): d is FnDef => d.kind === "fn")!;
    m.tests.push(
      `test fn ${fresh(p, "t")}() {\n  print(to_string(${f.name}(${argsFor(f.params)})));\n}`,
    );
  }
  return m;
}

/** How module `m` can name definition `d` of module `owner`, or null when it cannot. */
function nameIn(m: Module, owner: Module, d: Def): string | null {
  if (owner === m) return d.name;
  for (const imp of m.imports) {
    if (imp.module !== owner.name) continue;
    if (imp.names === null) return `${alias(owner.name)}.${d.name}`;
    if (imp.names.includes(d.name)) return d.name;
  }
  return null;
}

/** `n` Int expressions for a body in `m`, over what `m` can see (as of now). */
function terms(p: EditProgram, m: Module, random: () => number, n: number): string[] {
  const out: string[] = [];
  const seen: { owner: Module; def: Def; name: string }[] = [];
  for (const owner of p.modules) {
    for (const def of owner.defs) {
      const name = nameIn(m, owner, def);
      if (name !== null && !(owner === m && def.kind === "fn" && def.name === "main")) {
        seen.push({ owner, def, name });
      }
    }
  }
  // Reads through a getter are the rare, telling case: prefer them.
  const getters = seen.filter((s) => s.def.kind === "getter" && s.owner !== m);
  for (let i = 0; i < n; i++) {
    const pick = getters.length > 0 && random() < 0.3
      ? getters[Math.floor(random() * getters.length)]
      : seen.length === 0
      ? null
      : seen[Math.floor(random() * seen.length)];
    if (pick === null || random() < 0.15) {
      out.push(`${Math.floor(random() * 100)}`);
      continue;
    }
    const { def, name } = pick;
    switch (def.kind) {
      case "getter": {
        // The field as the record has it now: `a` is its first, while it lasts.
        const record = p.modules.flatMap((o) => o.defs).find((d) =>
          d.kind === "record" && def.type.split("[")[0].endsWith(`.${d.name}`)
        ) as RecordDef | undefined;
        const [field, type] = record?.fields[Math.floor(random() * record.fields.length)] ??
          ["a", "Int"];
        out.push(asInt(type, `${name}().${field}`));
        break;
      }
      case "fn": {
        const extra = def.typeParam !== null ? [`${Math.floor(random() * 9)}`] : [];
        const args = [argsFor(def.params), ...extra].filter((a) => a !== "").join(", ");
        out.push(def.result === "Int" ? `${name}(${args})` : `len(${name}(${args}))`);
        break;
      }
      case "record": {
        const fields = def.fields.map(([f, t]) => `${f}: ${valueOf(t, `"x"`)}`);
        const [field, type] = def.fields[Math.floor(random() * def.fields.length)] ?? ["a", "Int"];
        // Sometimes with its type arguments written out, as they are now.
        const args = def.typeParams.length > 0 && random() < 0.5
          ? `[${def.typeParams.map(() => "Int").join(", ")}]`
          : "";
        out.push(asInt(type, `${name}${args} { ${fields.join(", ")} }.${field}`));
        break;
      }
      case "enum": {
        const arms = def.variants.map(([v, t]) =>
          t === null ? `${name}.${v} => 0` : `${name}.${v}(x) => ${asInt(t, "x")}`
        );
        const [v, t] = def.variants[0] ?? ["Dot", null];
        const value = t === null ? `${name}.${v}` : `${name}.${v}(${valueOf(t, `"y✓"`)})`;
        // A match binding the value first: its arms are checked for exhaustiveness alike.
        out.push(`match ${value} { ${arms.join(", ")} }`);
        break;
      }
    }
  }
  return out;
}

export type EditKind =
  | "body"
  | "signature"
  | "type"
  | "pub"
  | "import"
  | "rename"
  | "new_file"
  | "delete_file"
  | "syntax_error"
  | "unknown_name"
  | "typo"
  | "generic"
  | "variants"
  | "collide"
  | "import_missing"
  | "recreate"
  | "refuse"
  | "undo";

const KINDS: EditKind[] = [
  "body",
  "body",
  "body",
  "signature",
  "signature",
  "type",
  "type",
  "pub",
  "pub",
  "import",
  "import",
  "rename",
  "new_file",
  "delete_file",
  "syntax_error",
  "unknown_name",
  "typo",
  "generic",
  "generic",
  "variants",
  "collide",
  "import_missing",
  "recreate",
  "refuse",
  "undo",
];

/** How many earlier states an edit may return to. */
const HISTORY = 8;

/** Applies one random edit; returns what it did, for a failure's message. */
export function applyEdit(p: EditProgram, random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  p.history.push(structuredClone({
    modules: p.modules,
    broken: p.broken,
    refused: [...p.refused],
  }));
  if (p.history.length > HISTORY) p.history.shift();
  // A broken or refused file stays so for a while, other files edited meanwhile.
  if (p.broken !== null && random() < 0.5) {
    const path = p.broken.path;
    p.broken = null;
    return `syntax error taken back in ${path}`;
  }
  if (p.refused.size > 0 && random() < 0.4) {
    const [path, why] = [...p.refused][0];
    p.refused.delete(path);
    return `${path} no longer ${why}`;
  }
  const kind = pick(KINDS);
  const m = pick(p.modules);
  const fns = m.defs.filter((d): d is FnDef => d.kind === "fn" && d.name !== "main");
  const types = m.defs.filter((d): d is RecordDef | EnumDef =>
    d.kind === "record" || d.kind === "enum"
  );
  switch (kind) {
    case "body": {
      if (fns.length === 0) return "body: no function";
      const f = pick(fns);
      f.terms = terms(p, m, random, 1 + Math.floor(random() * 4));
      return `body of ${m.name}::${f.name}`;
    }
    case "signature": {
      if (fns.length === 0) return "signature: no function";
      const f = pick(fns);
      const what = Math.floor(random() * 4);
      if (what === 0 && f.params.length > 0) {
        const i = Math.floor(random() * f.params.length);
        f.params[i] = f.params[i] === "Int" ? "String" : "Int";
      } else if (what === 1) f.params.push("Int");
      else if (what === 2) f.params.pop();
      else f.result = f.result === "Int" ? "String" : "Int";
      return `signature of ${m.name}::${f.name}`;
    }
    case "type": {
      if (types.length === 0) return "type: none";
      const t = pick(types);
      if (t.kind === "record") {
        const what = Math.floor(random() * 3);
        if (what === 0) t.fields.push([fresh(p, "g"), "Int"]);
        else if (what === 1 && t.fields.length > 1) t.fields.pop();
        else if (t.fields.length > 0) {
          const f = t.fields[t.fields.length - 1];
          f[1] = f[1] === "Int" ? "String" : "Int";
        }
      } else if (random() < 0.5) t.variants.push([fresh(p, "V"), random() < 0.5 ? "Int" : null]);
      else if (t.variants.length > 1) t.variants.pop();
      return `type ${m.name}::${t.name}`;
    }
    case "pub": {
      const d = pick(m.defs);
      if (d.kind === "fn" && d.name === "main") return "pub: main";
      d.pub = !d.pub;
      return `pub of ${m.name}::${d.name}`;
    }
    case "import": {
      const others = p.modules.filter((o) =>
        o !== m && o.name !== "main" && !m.imports.some((i) => i.module === o.name)
      );
      if (m.imports.length > 0 && (others.length === 0 || random() < 0.5)) {
        const i = Math.floor(random() * m.imports.length);
        const [gone] = m.imports.splice(i, 1);
        return `import ${gone.module} removed from ${m.name}`;
      }
      if (others.length === 0) return "import: none";
      const o = pick(others);
      m.imports.push(importOf(o, random));
      return `import ${o.name} added to ${m.name}`;
    }
    case "rename": {
      const d = pick(m.defs);
      if (d.kind === "fn" && d.name === "main") return "rename: main";
      const old = d.name;
      // Sometimes onto a name the module has already: a duplicate.
      d.name = random() < 0.15 ? pick(m.defs).name : fresh(p, d.kind === "fn" ? "f" : "T");
      return `rename ${m.name}::${old} to ${d.name}`;
    }
    case "new_file": {
      // Sometimes the file an import named before it existed.
      const awaited = p.awaited.length > 0 && random() < 0.6 ? p.awaited.shift()! : null;
      const name = awaited ?? `lib.n${p.next++}`;
      const created = newModule(p, name, random);
      p.modules.push(created);
      for (const d of created.defs) if (d.kind === "fn") d.terms = terms(p, created, random, 2);
      if (awaited !== null) return `new file ${pathOf(name)}, imported before it existed`;
      m.imports.push(importOf(created, random));
      return `new file ${pathOf(name)}, imported from ${m.name}`;
    }
    case "delete_file": {
      if (m.name === "main") return "delete: the root";
      p.modules.splice(p.modules.indexOf(m), 1);
      p.deleted.push(m);
      return `deleted ${pathOf(m.name)}`;
    }
    case "recreate": {
      const back = p.deleted.filter((d) => !p.modules.some((o) => o.name === d.name));
      if (back.length === 0) return "recreate: none deleted";
      const again = pick(back);
      p.deleted.splice(p.deleted.indexOf(again), 1);
      p.modules.push(structuredClone(again));
      return `recreated ${pathOf(again.name)} as it was`;
    }
    case "import_missing": {
      const name = `lib.n${p.next++}`;
      p.awaited.push(name);
      m.imports.push({ module: name, names: null });
      return `import ${name} (no file yet) added to ${m.name}`;
    }
    case "refuse": {
      const why = pick<Refusal>(["unreadable", "too_large", "not_utf8"]);
      // The root rarely: then nothing else is read.
      if (m.name === "main" && random() < 0.7) return "refuse: the root";
      p.refused.set(pathOf(m.name), why);
      return `${pathOf(m.name)} ${why}`;
    }
    case "undo": {
      if (p.history.length < 2) return "undo: no history";
      // The state before the edit just recorded, or one before it.
      const at = p.history.length - 2 - Math.floor(random() * (p.history.length - 1));
      const state = structuredClone(p.history[at]);
      p.modules = state.modules;
      p.broken = state.broken;
      p.refused = new Map(state.refused);
      return `back to the state of ${p.history.length - 1 - at} edits ago`;
    }
    case "typo": {
      if (fns.length === 0) return "typo: no function";
      // A name one letter off one this module sees unqualified: "did you mean" reads it.
      const seen: string[] = [];
      for (const owner of p.modules) {
        for (const d of owner.defs) {
          const name = d.kind === "fn" && d.params.length === 1 ? nameIn(m, owner, d) : null;
          if (name !== null && !name.includes(".") && name !== "main") seen.push(name);
        }
      }
      if (seen.length === 0) return "typo: nothing in scope";
      const near = `${pick(seen)}q`;
      pick(fns).terms.push(`${near}(1)`);
      return `typo ${near} in ${m.name}`;
    }
    case "generic": {
      const targets: (FnDef | RecordDef | EnumDef)[] = [...fns, ...types];
      if (targets.length === 0) return "generic: nothing";
      const d = pick(targets);
      if (d.kind === "fn") {
        const before = d.typeParam;
        d.typeParam = before === null ? "T" : random() < 0.5 ? null : `U${p.next++}`;
        return `type parameter of ${m.name}::${d.name}: ${before} to ${d.typeParam}`;
      }
      const what = Math.floor(random() * 4);
      if (what === 0 || d.typeParams.length === 0) {
        d.typeParams.push(`P${p.next++}`);
        return `type parameter added to ${m.name}::${d.name}`;
      }
      const i = Math.floor(random() * d.typeParams.length);
      if (what === 1) {
        d.typeParams[i] = `Q${p.next++}`;
        return `type parameter ${i} of ${m.name}::${d.name} renamed`;
      }
      if (what === 2) {
        d.typeParams.pop();
        return `last type parameter of ${m.name}::${d.name} removed`;
      }
      // A field or payload becomes of the type parameter.
      if (d.kind === "record" && d.fields.length > 0) d.fields[d.fields.length - 1][1] = i;
      if (d.kind === "enum") {
        const v = d.variants.find(([, t]) => t !== null);
        if (v !== undefined) v[1] = i;
      }
      return `a field of ${m.name}::${d.name} of type parameter ${i}`;
    }
    case "variants": {
      const enums = types.filter((t): t is EnumDef => t.kind === "enum");
      if (enums.length === 0) return "variants: no enum";
      const e = pick(enums);
      e.variants.reverse();
      return `variants of ${m.name}::${e.name} reversed`;
    }
    case "collide": {
      const named = m.defs.filter((d) => !(d.kind === "fn" && d.name === "main"));
      // An imported name, or an import's alias (a module named like the definition).
      const taken = m.imports.flatMap((i) => i.names ?? [alias(i.module)]);
      if (named.length === 0 || taken.length === 0) return "collide: nothing";
      const d = pick(named);
      const old = d.name;
      d.name = pick(taken);
      return `rename ${m.name}::${old} onto the imported ${d.name}`;
    }
    case "syntax_error": {
      if (p.broken !== null) return "syntax error: one already";
      const text = printModule(m);
      const at = Math.floor(random() * text.length);
      const junk = pick(["fn (((", "}", "let = ;", "match {", "\u00e9 \u{1F389} ("]);
      p.broken = { path: pathOf(m.name), text: text.slice(0, at) + junk + text.slice(at) };
      return `syntax error in ${pathOf(m.name)} at ${at}`;
    }
    case "unknown_name": {
      if (fns.length === 0) return "unknown name: no function";
      const elsewhere = p.modules.filter((o) => o !== m).flatMap((o) =>
        o.defs.filter((d): d is FnDef => d.kind === "fn" && d.params.length === 1)
      );
      if (elsewhere.length === 0) return "unknown name: none";
      const target = pick(elsewhere);
      pick(fns).terms.push(`${target.name}(1)`);
      return `unknown name ${target.name} in ${m.name}`;
    }
  }
}
