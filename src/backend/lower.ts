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
  RecordLit,
  Statement,
} from "../syntax/mod.ts";
import type { FunctionView, ProgramView } from "./checked.ts";
import { ownedListParams } from "./owned_lists.ts";
import {
  asciiJson,
  type BigConstants,
  type CodeLines,
  DISCARD,
  floatLiteral,
  indent,
  INT_OPS,
  type IntLiterals,
  type JsExpr,
  jsName,
  type LineMarks,
  type Markers,
  NUMBER_LIMIT,
  RETURN,
  shiftMarks,
  SIMPLE_NAME,
  stripParens,
  takeMarkers,
  type Target,
  UNIT,
  variantValue,
} from "./emit.ts";
import { patternBindings, patternTests } from "./lower_patterns.ts";

/** Lowers one function or test body. */
export class FunctionLowering {
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
  readonly #virtual = new Map<NameDecl, { readonly param: string; readonly dropped: number }>();

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

  /** Declares a pattern's binding with its value. */
  readonly #bind = (name: NameDecl, value: string): void => {
    this.#emit(`const ${this.#declare(name)} = ${value};`);
  };

  #emit(line: string): void {
    const prefix = indent(this.#depth);
    const [clean, marks] = takeMarkers(line);
    this.lines.push(prefix + clean);
    this.marks.push(shiftMarks(marks, prefix.length));
  }

  // ------------------------------------------------------------ statements

  #deliver(t: Target, x: JsExpr): void {
    if (t.kind === "return") this.#emit(`return ${x.code};`);
    else if (t.kind === "assign") this.#emit(`${t.name} = ${x.code};`);
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
      this.#into(st.value, { kind: "assign", name });
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
        if (t.kind === "return" && this.#isSelfCall(e)) {
          this.#tailCall(e);
          return;
        }
        break;
      case "BinaryExpr":
        // In tail position the right operand of `&&` and `||` is a tail too.
        if (t.kind === "return" && (e.op === "&&" || e.op === "||")) {
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
    return r !== undefined && r.kind === "function" && r.key === this.self.key;
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
      if (r?.kind === "local") {
        if (this.#names.get(r.decl) === param) return { code: param, pure: true };
        const rest = this.#virtual.get(r.decl);
        if (rest?.param === param) {
          return { code: `(${param}.s += ${rest.dropped}, ${param})`, pure: false };
        }
      }
    } else if (e.kind === "CallExpr" && e.callee.kind === "NameExpr" && e.args.length === 2) {
      const r = this.program.value(e.callee.name);
      const first = stripParens(e.args[0]);
      const own = first.kind === "NameExpr" ? this.program.value(first.name) : undefined;
      if (
        r?.kind === "prelude" && r.name === "push" && own?.kind === "local" &&
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
    const owned = t.kind === "return" && e.scrutinee.kind === "NameExpr"
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
      patternTests(this.program, (v) => this.#int(v), arm.pattern, subject, tests);
      if (tests.length === 0) {
        this.#emit(first ? "{" : "} else {");
      } else {
        this.#emit(`${first ? "if" : "} else if"} (${tests.join(" && ")}) {`);
      }
      this.#depth++;
      if (owned !== null && arm.pattern.kind === "ListPattern" && arm.pattern.rest?.binding) {
        this.#virtual.set(arm.pattern.rest.binding, {
          param: owned,
          dropped: arm.pattern.elements.length,
        });
        arm.pattern.elements.forEach((el, i) =>
          patternBindings(el, `$at(${subject}, ${i})`, this.#bind)
        );
      } else patternBindings(arm.pattern, subject, this.#bind);
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
    this.#into(e, { kind: "assign", name });
    return { code: name, pure: true };
  }

  /** The JS name of the owned parameter a name denotes itself, or null. */
  #ownedParam(ref: NameRef): string | null {
    const r = this.program.value(ref);
    if (r?.kind !== "local") return null;
    const name = this.#names.get(r.decl);
    const index = name === undefined ? -1 : this.#params.indexOf(name);
    return index >= 0 && this.#owned.has(index) ? name! : null;
  }

  #valueName(ref: NameRef): string {
    const r = this.program.value(ref);
    if (r === undefined) throw new Error(`no resolution for \`${ref.text}\``);
    switch (r.kind) {
      case "local": {
        const rest = this.#virtual.get(r.decl);
        // A rest used where it must be a list of its own (the loop ends there).
        if (rest !== undefined) return `$drop(${rest.param}, ${rest.dropped})`;
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
    switch (r.kind) {
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
        throw new Error(`\`.${e.name.text}\` resolved to a ${r.kind}`);
    }
  }

  #call(e: CallExpr): JsExpr {
    const callee = stripParens(e.callee);
    const r = this.program.callee(e);
    const at = this.#mark(callee.kind === "FieldExpr" ? callee.name.start : callee.start);
    if (r !== undefined && r.kind !== "local" && r.kind !== "field") {
      const args = this.#sequence(e.args);
      const list = args.map((a) => a.code).join(", ");
      switch (r.kind) {
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
        this.#into(e.right, { kind: "assign", name });
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
