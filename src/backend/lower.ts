/**
 * Lowering: a checked program to JavaScript statements, one function at a
 * time. Nazm is expression-oriented and JavaScript is not, so every
 * expression is lowered either to a JS expression (when it needs no
 * statement) or into a target — returned, assigned to a variable, or
 * discarded — with `if` chains for `if` and `match`.
 *
 * Evaluation order is Nazm's (left to right, docs/specification.md §13.1):
 * when a later operand needs statements, the earlier operands that could
 * observe them are first saved in temporaries, in order.
 *
 * A call in tail position to the function itself becomes a jump: the
 * parameters are reassigned and the function's loop continues, so a self
 * tail call runs in constant stack.
 *
 * Every place a runtime error can be raised or a call made carries a
 * marker (see {@link Markers}): the assembler turns them into the map from
 * generated lines and columns back to Nazm places.
 *
 * @module
 */
import type {
  BinaryExpr,
  Block,
  CallExpr,
  Expr,
  FieldExpr,
  MatchExpr,
  NameDecl,
  NameRef,
  Pattern,
  RecordLit,
  Statement,
} from "../syntax/mod.ts";
import type { EnumView, FunctionView, ProgramView, TestView } from "./checked.ts";
import { ownedListParams } from "./owned_lists.ts";
import { recursiveFunctions } from "./recursion.ts";

/**
 * The BigInt twins of Int literals that are operands of arithmetic, one
 * module-level constant each: an operation that leaves the fast path then
 * converts nothing for its literal operand (`checksum % 1000000007`).
 */
export class BigConstants {
  readonly #names = new Map<bigint, string>();

  /** The constant's name. */
  of(value: bigint): string {
    let name = this.#names.get(value);
    if (name === undefined) {
      name = `$K${this.#names.size}`;
      this.#names.set(value, name);
    }
    return name;
  }

  /** Their declarations. */
  declarations(): string[] {
    return [...this.#names].map(([value, name]) => `const ${name} = ${value}n;`);
  }
}

/**
 * Where a marker points: a file, a byte offset, the function it is in. A
 * marker is placed in an expression's text right before a callee (or an
 * operator) as `\u0001id\u0002`; when the expression's line is emitted the
 * marker is taken out and its column kept beside the line. JSON strings
 * escape U+0001, so the text of a program never holds one.
 */
export class Markers {
  readonly places: number[] = [];

  /** A marker's text. */
  add(file: number, offset: number, fn: number): string {
    const id = this.places.length / 3;
    this.places.push(file, offset, fn);
    return `\u0001${id}\u0002`;
  }
}

/** A line's markers: column (0-based, UTF-16 units) and marker id, in pairs. */
export type LineMarks = number[] | undefined;

/** A line without its markers, and where they were. */
function takeMarkers(text: string): [string, LineMarks] {
  let open = text.indexOf("\u0001");
  if (open < 0) return [text, undefined];
  const marks: number[] = [];
  let clean = "";
  let at = 0;
  while (open >= 0) {
    const close = text.indexOf("\u0002", open);
    clean += text.slice(at, open);
    marks.push(clean.length, Number(text.slice(open + 1, close)));
    at = close + 1;
    open = text.indexOf("\u0001", at);
  }
  return [clean + text.slice(at), marks];
}

/** Moves a line's markers right by `by` columns, in place (each line owns its list). */
function shiftMarks(marks: LineMarks, by: number): LineMarks {
  if (marks !== undefined && by !== 0) { for (let i = 0; i < marks.length; i += 2) marks[i] += by; }
  return marks;
}

/** Lines of code and, beside each, its markers. */
export interface CodeLines {
  readonly lines: string[];
  readonly marks: LineMarks[];
}

const jsNames = new Map<string, string>();

/** The JavaScript name of a definition's key: `geometry.shapes::area` is `geometry$shapes$$area`. */
export function jsName(key: string): string {
  let name = jsNames.get(key);
  if (name === undefined) {
    const at = key.indexOf("::");
    name = `${key.slice(0, at).split(".").join("$")}$$${key.slice(at + 2)}`;
    if (jsNames.size > 100_000) jsNames.clear(); // a cache, not a leak
    jsNames.set(key, name);
  }
  return name;
}

/**
 * A JSON value as ASCII JavaScript: characters past U+007E escaped. A
 * module that is all ASCII stays a one-byte string in V8, half the memory
 * and faster to join and encode than a two-byte one.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const INDENTS = Array.from({ length: 64 }, (_, i) => "  ".repeat(i));

function indent(depth: number): string {
  return depth < INDENTS.length ? INDENTS[depth] : "  ".repeat(depth);
}

/** A test's JavaScript name: `m::t` is `m$$$t` (a definition's name never starts with `$`). */
export function testJsName(key: string): string {
  const at = key.indexOf("::");
  return `${key.slice(0, at).split(".").join("$")}$$$${key.slice(at + 2)}`;
}

/**
 * Which Int literals are written as JavaScript numbers: the runtime's own
 * representation (`safe`: |v| ≤ 2^53 − 1, the rest BigInt), or one of the
 * alternatives bench/ measures it against (`int32`, `bigint`: always BigInt).
 */
export type IntLiterals = "safe" | "int32" | "bigint";

const NUMBER_LIMIT: Record<IntLiterals, bigint> = {
  safe: 9007199254740991n,
  int32: 2147483647n,
  bigint: -1n,
};

function floatLiteral(value: number): string {
  return Object.is(value, -0) ? "-0" : String(value);
}

interface JsExpr {
  readonly code: string;
  /** Evaluating it has no effect and cannot fail, so it may be evaluated later. */
  readonly pure: boolean;
}

type Target =
  | { readonly k: "return" }
  | { readonly k: "assign"; readonly name: string }
  | { readonly k: "discard" };

const RETURN: Target = { k: "return" };
const DISCARD: Target = { k: "discard" };
const UNIT: JsExpr = { code: "undefined", pure: true };

const SIMPLE_NAME = /^[A-Za-z_$][\w$]*$/;

const INT_OPS: Partial<Record<BinaryExpr["op"], string>> = {
  "+": "$add",
  "-": "$sub",
  "*": "$mul",
  "/": "$div",
  "%": "$rem",
};

function stripParens(e: Expr): Expr {
  while (e.kind === "ParenExpr") e = e.inner;
  return e;
}

/** The JavaScript value of an enum variant named without arguments. */
function variantValue(en: EnumView, index: number): string {
  const name = en.variants[index].name;
  return en.prelude ? `$${name}` : `${jsName(en.key)}$${name}`;
}

/** Lowers one function or test body. */
class FunctionLowering {
  readonly #numberLimit: bigint;
  readonly lines: string[] = [];
  readonly marks: LineMarks[] = [];
  /** Scratch variables of inline arithmetic, declared at the function's start. */
  readonly scratch: string[] = [];
  /** The functions it calls by name, and those it names as values (recursion.ts's graph). */
  readonly calls = new Set<string>();
  readonly values = new Set<string>();
  /** Whether it calls a function value, which may be any function named as a value. */
  callsValues = false;
  usesResult = false;
  #depth = 1;
  readonly #names = new Map<NameDecl, string>();
  readonly #used = new Map<string, number>();
  #temps = 0;
  #tailCalled = false;
  readonly #needs = new Map<Expr, boolean>();
  readonly #params: string[];
  /** List parameters copied at entry and then updated in place (owned_lists.ts). */
  readonly #owned: ReadonlySet<number>;
  /** Rests of a `match` on an owned parameter: that parameter, `k` elements on. */
  readonly #virtual = new Map<NameDecl, { readonly param: string; readonly k: number }>();

  constructor(
    readonly program: ProgramView,
    readonly markers: Markers,
    readonly constants: BigConstants,
    readonly fnIndex: number,
    readonly file: number,
    readonly self: FunctionView | null,
    intLiterals: IntLiterals,
  ) {
    this.#numberLimit = NUMBER_LIMIT[intLiterals];
    this.#params = self === null ? [] : self.node.params.map((p) => this.#declare(p.name));
    this.#owned = self === null ? new Set() : ownedListParams(self, program);
  }

  #jsName = "";
  #halt: [string, LineMarks] = ["", undefined];

  /** Lowers the body; {@link emit} writes it out once the program's cycles are known. */
  lowerBody(jsFnName: string, name: NameRef | NameDecl, body: Block): this {
    this.#depth = 1;
    this.#jsName = jsFnName;
    this.#halt = takeMarkers(`if ($stop[0] !== 0) ${this.#mark(name.start)}$halt();`);
    this.#into(body, RETURN);
    return this;
  }

  /**
   * The function's lines, appended to `out`; `recursive` when it is on a
   * cycle of calls (recursion.ts), so that it reads the stop flag.
   */
  emit(out: CodeLines, recursive: boolean): void {
    const [halt, haltMarks] = this.#halt;
    out.lines.push(`function ${this.#jsName}(${this.#params.join(", ")}) {`);
    out.marks.push(undefined);
    for (const i of this.#owned) {
      out.lines.push(`  ${this.#params[i]} = $own(${this.#params[i]});`);
      out.marks.push(undefined);
    }
    // Constant stack: a self tail call reassigns the parameters and loops.
    const loops = this.#tailCalled;
    if (loops) {
      out.lines.push("  for (;;) {");
      out.marks.push(undefined);
    }
    const shift = loops ? 2 : 0;
    // Only a loop or a function on a cycle of calls can run without end: the stop flag is read there.
    if (loops || recursive) {
      out.lines.push(indent(loops ? 2 : 1) + halt);
      out.marks.push(shiftMarks(haltMarks, 2 + shift));
    }
    const scratch = this.usesResult ? ["_$t", ...this.scratch] : this.scratch;
    if (scratch.length > 0) {
      out.lines.push(`${indent(loops ? 2 : 1)}let ${scratch.join(", ")};`);
      out.marks.push(undefined);
    }
    for (let i = 0; i < this.lines.length; i++) {
      out.lines.push(loops ? "  " + this.lines[i] : this.lines[i]);
      out.marks.push(shiftMarks(this.marks[i], shift));
    }
    if (loops) {
      out.lines.push("  }");
      out.marks.push(undefined);
    }
    out.lines.push("}");
    out.marks.push(undefined);
  }

  // ------------------------------------------------------------ names

  #declare(decl: NameDecl): string {
    const n = this.#used.get(decl.text) ?? 0;
    this.#used.set(decl.text, n + 1);
    const name = n === 0 ? `${decl.text}$` : `${decl.text}$${n}`;
    this.#names.set(decl, name);
    return name;
  }

  #int(value: bigint): string {
    const limit = this.#numberLimit;
    return value <= limit && value >= -limit ? String(value) : `${value}n`;
  }

  #temp(): string {
    return `_$${++this.#temps}`;
  }

  #mark(offset: number): string {
    return this.markers.add(this.file, offset, this.fnIndex);
  }

  #emit(line: string): void {
    const prefix = indent(this.#depth);
    const [clean, marks] = takeMarkers(line);
    this.lines.push(prefix + clean);
    this.marks.push(shiftMarks(marks, prefix.length));
  }

  // ------------------------------------------------------------ statements

  #deliver(t: Target, x: JsExpr): void {
    if (t.k === "return") this.#emit(`return ${x.code};`);
    else if (t.k === "assign") this.#emit(`${t.name} = ${x.code};`);
    else if (!x.pure) this.#emit(`${x.code};`);
  }

  #statement(st: Statement): void {
    if (st.kind === "ExprStmt") {
      this.#into(st.expr, DISCARD);
      return;
    }
    if (st.binding.kind !== "NameDecl") {
      this.#into(st.value, DISCARD);
      return;
    }
    if (this.#needsStatements(st.value)) {
      const name = this.#declare(st.binding);
      this.#emit(`let ${name};`);
      this.#into(st.value, { k: "assign", name });
      return;
    }
    const value = this.#expr(st.value);
    this.#emit(`const ${this.#declare(st.binding)} = ${value.code};`);
  }

  /** Lowers `e` so that its value goes to `t`. */
  #into(e: Expr, t: Target): void {
    switch (e.kind) {
      case "ParenExpr":
        this.#into(e.inner, t);
        return;
      case "Block":
        for (const st of e.statements) this.#statement(st);
        if (e.tail !== null) this.#into(e.tail, t);
        else this.#deliver(t, UNIT);
        return;
      case "IfExpr": {
        const c = this.#expr(e.condition);
        this.#emit(`if (${c.code}) {`);
        this.#depth++;
        this.#into(e.then, e.otherwise === null ? DISCARD : t);
        this.#depth--;
        if (e.otherwise === null) {
          this.#emit("}");
          this.#deliver(t, UNIT);
          return;
        }
        this.#emit("} else {");
        this.#depth++;
        this.#into(e.otherwise, t);
        this.#depth--;
        this.#emit("}");
        return;
      }
      case "MatchExpr":
        this.#match(e, t);
        return;
      case "ReturnExpr":
        if (e.value === null) this.#deliver(RETURN, UNIT);
        else this.#into(e.value, RETURN);
        return;
      case "CallExpr":
        if (t.k === "return" && this.#isSelfCall(e)) {
          this.#tailCall(e);
          return;
        }
        break;
      case "BinaryExpr":
        // In tail position the right operand of `&&` and `||` is a tail too.
        if (t.k === "return" && (e.op === "&&" || e.op === "||")) {
          const l = this.#expr(e.left);
          this.#emit(`if (${e.op === "&&" ? "!" : ""}${l.code}) return ${e.op === "||"};`);
          this.#into(e.right, RETURN);
          return;
        }
        break;
    }
    this.#deliver(t, this.#expr(e));
  }

  #isSelfCall(e: CallExpr): boolean {
    if (this.self === null) return false;
    const r = this.program.callee(e);
    return r !== undefined && r.k === "function" && r.key === this.self.key;
  }

  #tailCall(e: CallExpr): void {
    const args = this.#sequence(
      this.#owned.size === 0
        ? e.args
        : e.args.map((a, i) => this.#owned.has(i) ? () => this.#ownArg(a, i) : a),
    );
    this.#tailCalled = true;
    const assign: string[] = [];
    const temps: string[] = [];
    args.forEach((a, i) => {
      const param = this.#params[i];
      if (a.code === param) return;
      const temp = this.#temp();
      temps.push(`${temp} = ${a.code}`);
      assign.push(`${param} = ${temp};`);
    });
    if (temps.length > 0) this.#emit(`const ${temps.join(", ")};`);
    for (const line of assign) this.#emit(line);
    this.#emit("continue;");
  }

  /** The next value of owned parameter `i`, in the shapes owned_lists.ts allows: updated in place. */
  #ownArg(arg: Expr, i: number): JsExpr {
    const param = this.#params[i];
    const e = stripParens(arg);
    if (e.kind === "NameExpr") {
      const r = this.program.value(e.name);
      if (r?.k === "local") {
        if (this.#names.get(r.decl) === param) return { code: param, pure: true };
        const rest = this.#virtual.get(r.decl);
        if (rest?.param === param) {
          return { code: `(${param}.s += ${rest.k}, ${param})`, pure: false };
        }
      }
    } else if (e.kind === "CallExpr" && e.callee.kind === "NameExpr" && e.args.length === 2) {
      const r = this.program.value(e.callee.name);
      const first = stripParens(e.args[0]);
      const own = first.kind === "NameExpr" ? this.program.value(first.name) : undefined;
      if (
        r?.k === "prelude" && r.name === "push" && own?.k === "local" &&
        this.#names.get(own.decl) === param
      ) {
        const at = this.#mark(e.callee.start);
        const item = this.#expr(e.args[1]);
        return { code: `${at}$pushOwn(${param}, ${item.code})`, pure: false };
      }
    } else if (
      e.kind === "IfExpr" && e.otherwise !== null && e.otherwise.kind === "Block" &&
      e.then.statements.length === 0 && e.then.tail !== null &&
      e.otherwise.statements.length === 0 && e.otherwise.tail !== null
    ) {
      const [c, a, b] = this.#sequence([
        () => this.#expr(e.condition),
        () => this.#ownArg(e.then.tail!, i),
        () => this.#ownArg((e.otherwise as Block).tail!, i),
      ]);
      return { code: `(${c.code} ? ${a.code} : ${b.code})`, pure: false };
    }
    // Any other list becomes the parameter's own copy.
    return { code: `$own(${this.#expr(arg).code})`, pure: false };
  }

  #match(e: MatchExpr, t: Target): void {
    // A tail match on an owned parameter: its rests are the parameter moved on, not new lists.
    const owned = t.k === "return" && e.scrutinee.kind === "NameExpr"
      ? this.#ownedParam(e.scrutinee.name)
      : null;
    const s = this.#expr(e.scrutinee);
    let subject = s.code;
    if (!(s.pure && SIMPLE_NAME.test(s.code))) {
      subject = this.#temp();
      this.#emit(`const ${subject} = ${s.code};`);
    }
    let first = true;
    for (const arm of e.arms) {
      const tests: string[] = [];
      this.#patternTests(arm.pattern, subject, tests);
      if (tests.length === 0) {
        this.#emit(first ? "{" : "} else {");
      } else {
        this.#emit(`${first ? "if" : "} else if"} (${tests.join(" && ")}) {`);
      }
      this.#depth++;
      if (owned !== null && arm.pattern.kind === "ListPattern" && arm.pattern.rest?.binding) {
        this.#virtual.set(arm.pattern.rest.binding, {
          param: owned,
          k: arm.pattern.elements.length,
        });
        arm.pattern.elements.forEach((el, i) => this.#patternBindings(el, `$at(${subject}, ${i})`));
      } else this.#patternBindings(arm.pattern, subject);
      this.#into(arm.body, t);
      this.#depth--;
      first = false;
      if (tests.length === 0) {
        this.#emit("}");
        return;
      }
    }
    // Exhaustiveness was checked: no value gets here.
    if (first) this.#emit("$nomatch();");
    else {
      this.#emit("} else {");
      this.#emit("  $nomatch();");
      this.#emit("}");
    }
  }

  #patternTests(p: Pattern, path: string, out: string[]): void {
    switch (p.kind) {
      case "WildcardPattern":
      case "BindingPattern":
        return;
      case "LiteralPattern": {
        const lit = p.literal;
        switch (lit.kind) {
          case "IntLit":
            out.push(`${path} === ${this.#int(lit.value!)}`);
            return;
          case "FloatLit":
            out.push(`${path} === ${floatLiteral(lit.value!)}`);
            return;
          case "StringLit":
            out.push(`${path} === ${asciiJson(lit.value)}`);
            return;
          case "BoolLit":
            out.push(lit.value ? path : `!${path}`);
            return;
          case "UnitLit":
            return;
        }
        return;
      }
      case "VariantPattern": {
        const r = this.program.variant(p);
        const en = this.program.enumByKey(r.enumKey);
        if (en.variants.length > 1) out.push(`${path}.$$t === ${r.index}`);
        (p.args ?? []).forEach((a, i) => this.#patternTests(a, `${path}.$${i}`, out));
        return;
      }
      case "ListPattern": {
        const n = p.elements.length;
        out.push(`$size(${path}) ${p.rest === null ? "===" : ">="} ${n}`);
        p.elements.forEach((el, i) => this.#patternTests(el, `$at(${path}, ${i})`, out));
        return;
      }
      case "Error":
        throw new Error("lowering a pattern the parser could not read");
    }
  }

  #patternBindings(p: Pattern, path: string): void {
    switch (p.kind) {
      case "BindingPattern":
        this.#emit(`const ${this.#declare(p.name)} = ${path};`);
        return;
      case "VariantPattern":
        (p.args ?? []).forEach((a, i) => this.#patternBindings(a, `${path}.$${i}`));
        return;
      case "ListPattern":
        p.elements.forEach((el, i) => this.#patternBindings(el, `$at(${path}, ${i})`));
        if (p.rest !== null && p.rest.binding !== null) {
          this.#emit(
            `const ${this.#declare(p.rest.binding)} = $drop(${path}, ${p.elements.length});`,
          );
        }
        return;
      default:
        return;
    }
  }

  // ------------------------------------------------------------ expressions

  /** Whether lowering `e` emits statements (it then cannot be a plain JS expression). */
  #needsStatements(e: Expr): boolean {
    switch (e.kind) {
      case "IntLit":
      case "FloatLit":
      case "StringLit":
      case "BoolLit":
      case "UnitLit":
      case "NameExpr":
        return false;
    }
    const known = this.#needs.get(e);
    if (known !== undefined) return known;
    let needs: boolean;
    switch (e.kind) {
      case "Block":
        needs = e.statements.length > 0 || (e.tail !== null && this.#needsStatements(e.tail));
        break;
      case "IfExpr":
        needs = e.otherwise === null || this.#needsStatements(e.condition) ||
          this.#needsStatements(e.then) || this.#needsStatements(e.otherwise);
        break;
      case "MatchExpr":
      case "ReturnExpr":
        needs = true;
        break;
      case "ParenExpr":
        needs = this.#needsStatements(e.inner);
        break;
      case "CallExpr":
        needs = this.#needsStatements(e.callee) || e.args.some((a) => this.#needsStatements(a));
        break;
      case "FieldExpr":
        needs = this.#needsStatements(e.target);
        break;
      case "UnaryExpr":
        needs = this.#needsStatements(e.operand);
        break;
      case "BinaryExpr":
        needs = this.#needsStatements(e.left) || this.#needsStatements(e.right);
        break;
      case "ListLit":
        needs = e.elements.some((el) => this.#needsStatements(el));
        break;
      case "RecordLit":
        needs = e.fields.some((f) => f.value !== null && this.#needsStatements(f.value));
        break;
      default:
        needs = false;
    }
    this.#needs.set(e, needs);
    return needs;
  }

  /**
   * Evaluates in order: when an item emits statements, every earlier item
   * that is not pure is saved in a temporary before them.
   */
  #sequence(items: readonly (Expr | (() => JsExpr))[]): JsExpr[] {
    const out: JsExpr[] = [];
    for (const item of items) {
      const mark = this.lines.length;
      const x = typeof item === "function" ? item() : this.#expr(item);
      if (this.lines.length > mark) {
        const spills: string[] = [];
        const spillMarks: LineMarks[] = [];
        const prefix = indent(this.#depth);
        for (let i = 0; i < out.length; i++) {
          if (out[i].pure) continue;
          const temp = this.#temp();
          const [clean, marks] = takeMarkers(`const ${temp} = ${out[i].code};`);
          spills.push(prefix + clean);
          spillMarks.push(shiftMarks(marks, prefix.length));
          out[i] = { code: temp, pure: true };
        }
        this.lines.splice(mark, 0, ...spills);
        this.marks.splice(mark, 0, ...spillMarks);
      }
      out.push(x);
    }
    return out;
  }

  #expr(e: Expr): JsExpr {
    switch (e.kind) {
      case "IntLit":
        return { code: this.#int(e.value!), pure: true };
      case "FloatLit":
        return { code: floatLiteral(e.value!), pure: true };
      case "StringLit":
        return { code: asciiJson(e.value), pure: true };
      case "BoolLit":
        return { code: String(e.value), pure: true };
      case "UnitLit":
        return UNIT;
      case "ParenExpr":
        return this.#expr(e.inner);
      case "NameExpr":
        return { code: this.#valueName(e.name), pure: true };
      case "FieldExpr":
        return this.#field(e);
      case "CallExpr":
        return this.#call(e);
      case "RecordLit":
        return this.#record(e);
      case "ListLit": {
        const items = this.#sequence(e.elements);
        return {
          code: `$list([${items.map((i) => i.code).join(", ")}])`,
          pure: items.every((i) => i.pure),
        };
      }
      case "UnaryExpr": {
        if (e.op === "-") {
          const inner = stripParens(e.operand);
          if (inner.kind === "IntLit") return { code: this.#int(-inner.value!), pure: true };
          if (inner.kind === "FloatLit") return { code: floatLiteral(-inner.value!), pure: true };
        }
        const x = this.#expr(e.operand);
        if (e.op === "!") return { code: `!${x.code}`, pure: x.pure };
        if (this.program.operands(e) === "Float") return { code: `(-${x.code})`, pure: x.pure };
        if (this.#numberLimit < 0n) {
          return { code: `${this.#mark(e.start)}$neg(${x.code})`, pure: false };
        }
        // The fast path inline (per-site type feedback); the runtime for BigInts and overflow.
        const [prefix, a] = this.#operand(x);
        const check = this.#numberLimit === NUMBER_LIMIT.int32 ? `${a} !== -2147483648` : "true";
        return {
          code: `(${prefix}typeof ${a} === "number" && ${check} ? 0 - ${a} : ${
            this.#mark(e.start)
          }$neg(${a}))`,
          pure: false,
        };
      }
      case "BinaryExpr":
        return this.#binary(e);
      case "IfExpr": {
        if (!this.#needsStatements(e)) {
          const c = this.#expr(e.condition);
          const a = this.#expr(e.then);
          const b = this.#expr(e.otherwise!);
          return { code: `(${c.code} ? ${a.code} : ${b.code})`, pure: c.pure && a.pure && b.pure };
        }
        return this.#viaTemp(e);
      }
      case "Block":
        if (!this.#needsStatements(e)) return e.tail === null ? UNIT : this.#expr(e.tail);
        return this.#viaTemp(e);
      case "MatchExpr":
        return this.#viaTemp(e);
      case "ReturnExpr":
        this.#into(e, RETURN);
        return UNIT; // never evaluated: the function has returned
      case "Error":
        throw new Error("lowering an expression the parser could not read");
    }
  }

  /**
   * An operand usable twice: itself when it is a name or a number, or a
   * scratch variable assigned first (the prefix, for a comma expression).
   */
  #operand(x: JsExpr): [string, string] {
    if (/^-?[\w$]+(\.[\w$]+)*$/.test(x.code) && !x.code.includes("\u0001")) return ["", x.code];
    const name = this.#scratch();
    return [`${name} = ${x.code}, `, name];
  }

  #scratch(): string {
    const name = `_$s${this.scratch.length}`;
    this.scratch.push(name);
    return name;
  }

  /**
   * Int arithmetic with its fast path inline, so that each operation has
   * its own type feedback and V8 keeps small values unboxed: both operands
   * numbers and the result in the representation's number range; anything
   * else (a BigInt, an overflow, a division by zero) goes to the runtime.
   */
  #intOperation(e: BinaryExpr, l: JsExpr, r: JsExpr, twins: string): string {
    const slow = (a: string, b: string) =>
      `${this.#mark(e.opStart)}${INT_OPS[e.op]}(${a}, ${b}${twins})`;
    if (this.#numberLimit < 0n) return slow(l.code, r.code);
    // A BigInt literal never takes the fast path; a number literal needs no check.
    if (/^-?[0-9]+n$/.test(l.code) || /^-?[0-9]+n$/.test(r.code)) return slow(l.code, r.code);
    const [pa, a] = this.#operand(l);
    const [pb, b] = this.#operand(r);
    const isNumber = (x: string) => (/^-?[0-9]+$/.test(x) ? [] : [`typeof ${x} === "number"`]);
    const t = "_$t";
    this.usesResult = true;
    const conditions = [...isNumber(a), ...isNumber(b)];
    let value: string;
    switch (e.op) {
      case "+":
      case "-":
      case "*": {
        // $M and $N are the runtime's ±(2^53 − 1): module constants V8 folds.
        conditions.push(`(${t} = ${a} ${e.op} ${b}) <= $M`, `${t} >= $N`);
        // `+ 0` turns the -0 of `0 * -1` into 0, which Int does not have.
        value = e.op === "*" ? `${t} + 0` : t;
        if (this.#numberLimit === NUMBER_LIMIT.int32) {
          conditions.splice(conditions.length - 2, 2, `((${t} = ${a} ${e.op} ${b}) | 0) === ${t}`);
        }
        break;
      }
      case "/":
        conditions.push(`${b} !== 0`);
        value = `Math.trunc(${a} / ${b}) + 0`;
        if (this.#numberLimit === NUMBER_LIMIT.int32) {
          conditions.push(`((${t} = Math.trunc(${a} / ${b}) + 0) | 0) === ${t}`);
          value = t;
        }
        break;
      default:
        conditions.push(`${b} !== 0`);
        value = `(${a} % ${b}) + 0`;
    }
    if (conditions.length === 0) return slow(a, b);
    return `(${pa}${pb}${conditions.join(" && ")} ? ${value} : ${slow(a, b)})`;
  }

  /** The BigInt constant for an Int literal operand in the safe range (written as a number). */
  #literalTwin(e: Expr): string | null {
    let inner = stripParens(e);
    let negative = false;
    if (inner.kind === "UnaryExpr" && inner.op === "-") {
      negative = true;
      inner = stripParens(inner.operand);
    }
    if (inner.kind !== "IntLit" || inner.value === null) return null;
    const value = negative ? -inner.value : inner.value;
    const limit = this.#numberLimit;
    return value <= limit && value >= -limit ? this.constants.of(value) : null;
  }

  #viaTemp(e: Expr): JsExpr {
    const name = this.#temp();
    this.#emit(`let ${name};`);
    this.#into(e, { k: "assign", name });
    return { code: name, pure: true };
  }

  /** The JS name of the owned parameter a name denotes itself, or null. */
  #ownedParam(ref: NameRef): string | null {
    const r = this.program.value(ref);
    if (r?.k !== "local") return null;
    const name = this.#names.get(r.decl);
    const index = name === undefined ? -1 : this.#params.indexOf(name);
    return index >= 0 && this.#owned.has(index) ? name! : null;
  }

  #valueName(ref: NameRef): string {
    const r = this.program.value(ref);
    if (r === undefined) throw new Error(`no resolution for \`${ref.text}\``);
    switch (r.k) {
      case "local": {
        const rest = this.#virtual.get(r.decl);
        // A rest used where it must be a list of its own (the loop ends there).
        if (rest !== undefined) return `$drop(${rest.param}, ${rest.k})`;
        const name = this.#names.get(r.decl);
        if (name === undefined) throw new Error(`local \`${ref.text}\` used before it is declared`);
        return name;
      }
      case "function":
        this.values.add(r.key);
        return jsName(r.key);
      case "prelude":
        return `$${r.name}`;
      case "variant":
        return variantValue(this.program.enumByKey(r.enumKey), r.index);
      case "field":
        throw new Error("a bare name is never a field");
    }
  }

  #field(e: FieldExpr): JsExpr {
    const r = this.program.value(e);
    if (r === undefined) throw new Error(`no resolution for \`.${e.name.text}\``);
    switch (r.k) {
      case "function":
        this.values.add(r.key);
        return { code: jsName(r.key), pure: true };
      case "variant":
        return { code: variantValue(this.program.enumByKey(r.enumKey), r.index), pure: true };
      case "field": {
        const target = this.#expr(e.target);
        const field = this.program.recordByKey(r.recordKey).fields[r.index];
        return { code: `${target.code}.$${field}`, pure: target.pure };
      }
      default:
        throw new Error(`\`.${e.name.text}\` resolved to a ${r.k}`);
    }
  }

  #call(e: CallExpr): JsExpr {
    const callee = stripParens(e.callee);
    const r = this.program.callee(e);
    const at = this.#mark(callee.kind === "FieldExpr" ? callee.name.start : callee.start);
    if (r !== undefined && r.k !== "local" && r.k !== "field") {
      const args = this.#sequence(e.args);
      const list = args.map((a) => a.code).join(", ");
      switch (r.k) {
        case "function":
          this.calls.add(r.key);
          return { code: `${at}${jsName(r.key)}(${list})`, pure: false };
        case "prelude":
          if (this.program.preludeTakesFunction(r.name)) this.callsValues = true;
          return { code: `${at}$${r.name}(${list})`, pure: false };
        case "variant": {
          const en = this.program.enumByKey(r.enumKey);
          const width = Math.max(...en.variants.map((v) => v.arity));
          const pads = Array.from({ length: width - args.length }, () => ", undefined").join("");
          const cls = en.prelude ? en.name : jsName(en.key);
          return {
            code: `new ${cls}(${r.index}${args.map((a) => `, ${a.code}`).join("")}${pads})`,
            pure: args.every((a) => a.pure),
          };
        }
      }
    }
    this.callsValues = true;
    const [fn, ...args] = this.#sequence([e.callee, ...e.args]);
    return { code: `${at}${fn.code}(${args.map((a) => a.code).join(", ")})`, pure: false };
  }

  #record(e: RecordLit): JsExpr {
    const rec = this.program.record(e);
    const values = this.#sequence(
      e.fields.map((f) => () =>
        f.value === null ? { code: this.#valueName(f.name), pure: true } : this.#expr(f.value)
      ),
    );
    const byField = new Map<string, JsExpr>();
    const written = e.fields.map((f) => f.name.text);
    const inOrder = written.every((name, i) => rec.fields[i] === name);
    e.fields.forEach((f, i) => {
      let v = values[i];
      // The constructor takes declaration order: keep the written order of effects.
      if (!inOrder && !v.pure) {
        const temp = this.#temp();
        this.#emit(`const ${temp} = ${v.code};`);
        v = { code: temp, pure: true };
      }
      byField.set(f.name.text, v);
    });
    const args = rec.fields.map((name) => byField.get(name)!);
    return {
      code: `new ${jsName(rec.key)}(${args.map((a) => a.code).join(", ")})`,
      pure: args.every((a) => a.pure),
    };
  }

  #binary(e: BinaryExpr): JsExpr {
    if (e.op === "&&" || e.op === "||") {
      const l = this.#expr(e.left);
      if (this.#needsStatements(e.right)) {
        const name = this.#temp();
        this.#emit(`let ${name} = ${l.code};`);
        this.#emit(`if (${e.op === "&&" ? "" : "!"}${name}) {`);
        this.#depth++;
        this.#into(e.right, { k: "assign", name });
        this.#depth--;
        this.#emit("}");
        return { code: name, pure: true };
      }
      const r = this.#expr(e.right);
      return { code: `(${l.code} ${e.op} ${r.code})`, pure: l.pure && r.pure };
    }
    const [l, r] = this.#sequence([e.left, e.right]);
    const kind = this.program.operands(e);
    const pure = l.pure && r.pure;
    switch (e.op) {
      case "==":
      case "!=": {
        if (kind !== "other") {
          return { code: `(${l.code} ${e.op === "==" ? "===" : "!=="} ${r.code})`, pure };
        }
        return { code: `${e.op === "==" ? "" : "!"}$eq(${l.code}, ${r.code})`, pure };
      }
      case "<":
      case "<=":
      case ">":
      case ">=":
        if (kind === "String") return { code: `($scmp(${l.code}, ${r.code}) ${e.op} 0)`, pure };
        return { code: `(${l.code} ${e.op} ${r.code})`, pure };
      default: {
        if (kind === "Int") {
          const bigR = this.#literalTwin(e.right);
          const bigL = this.#literalTwin(e.left);
          const twins = bigL !== null
            ? `, ${bigR ?? "undefined"}, ${bigL}`
            : bigR !== null
            ? `, ${bigR}`
            : "";
          return { code: this.#intOperation(e, l, r, twins), pure: false };
        }
        if (kind === "String") {
          // Joining can exceed what a string can hold: mark the operator, where V8 reports it.
          return { code: `(${l.code} ${this.#mark(e.opStart)}+ ${r.code})`, pure };
        }
        return { code: `(${l.code} ${e.op} ${r.code})`, pure };
      }
    }
  }
}

/** The program's JavaScript (without the runtime), its lines' markers, and the functions' display names. */
export interface LoweredProgram {
  readonly code: CodeLines;
  readonly markers: Markers;
  /** Display names by function index (the markers' third number). */
  readonly names: readonly string[];
  /** The tests' JavaScript names, in {@link ProgramView.tests} order. */
  readonly tests: readonly string[];
}

/** Lowers every record, enum and function, and the tests when asked. */
export function lowerProgram(
  program: ProgramView,
  options: { readonly tests: boolean; readonly intLiterals?: IntLiterals },
): LoweredProgram {
  const ints = options.intLiterals ?? "safe";
  const markers = new Markers();
  const constants = new BigConstants();
  const declarations: string[] = [];
  const code: CodeLines = { lines: [], marks: [] };
  for (const rec of program.records) {
    const cls = jsName(rec.key);
    const params = rec.fields.map((_, i) => `$${i}`);
    const sets = rec.fields.map((f, i) => `this.$${f} = $${i};`).join(" ");
    declarations.push(`class ${cls} { constructor(${params.join(", ")}) { ${sets} } }`);
    declarations.push(
      `$record(${cls}, ${asciiJson(rec.name)}, ${asciiJson(rec.fields)});`,
    );
  }
  for (const en of program.enums) {
    const cls = jsName(en.key);
    const width = Math.max(0, ...en.variants.map((v) => v.arity));
    const params = Array.from({ length: width }, (_, i) => `$${i}`);
    const sets = params.map((p) => `this.${p} = ${p};`).join(" ");
    declarations.push(
      `class ${cls} { constructor($t${
        params.map((p) => `, ${p}`).join("")
      }) { this.$$t = $t; ${sets} } }`,
    );
    const variants = en.variants.map((v) => [v.name, v.arity]);
    declarations.push(`$enum(${cls}, ${asciiJson(en.name)}, ${asciiJson(variants)});`);
    en.variants.forEach((v, index) => {
      const pads = (from: number) =>
        Array.from({ length: width - from }, () => ", undefined").join("");
      if (v.arity === 0) {
        declarations.push(`const ${cls}$${v.name} = new ${cls}(${index}${pads(0)});`);
      } else {
        const ps = Array.from({ length: v.arity }, (_, i) => `$${i}`);
        declarations.push(
          `function ${cls}$${v.name}(${ps.join(", ")}) { return new ${cls}(${index}, ${
            ps.join(", ")
          }${pads(v.arity)}); }`,
        );
      }
    });
  }
  const names: string[] = [];
  const lowered = program.functions.map((fn) => {
    const index = names.length;
    names.push(fn.name);
    return new FunctionLowering(program, markers, constants, index, fn.file, fn, ints)
      .lowerBody(jsName(fn.key), fn.node.name, fn.node.body);
  });
  const recursive = recursiveFunctions(
    new Map(program.functions.map((fn, i) => [fn.key, lowered[i]])),
  );
  program.functions.forEach((fn, i) => lowered[i].emit(code, recursive.has(fn.key)));
  const tests: string[] = [];
  if (options.tests) {
    program.tests.forEach((t: TestView) => {
      const index = names.length;
      names.push(`test ${t.name}`);
      const name = testJsName(t.key);
      tests.push(name);
      // A test cannot be called: it is on no cycle.
      new FunctionLowering(program, markers, constants, index, t.file, null, ints)
        .lowerBody(name, t.node.name, t.node.body)
        .emit(code, false);
    });
  }
  // Constants, records and enums first: functions refer to them, and they have no markers.
  const head = [...constants.declarations(), ...declarations];
  code.lines.unshift(...head);
  code.marks.unshift(...head.map(() => undefined));
  return { code, markers, names, tests };
}
