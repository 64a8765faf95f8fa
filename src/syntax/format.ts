/**
 * The canonical layout printer (`nazm fmt`). It prints the tree, not the
 * tokens, so the layout depends only on the program, its comments and its
 * blank lines: that is what makes it idempotent. Comments are placed at the
 * line level (between items, statements, arms, fields, variants, or at the
 * end of such a line). A comment anywhere else (inside an expression) keeps
 * its whole statement, arm or item exactly as written, so no comment is
 * ever lost or moved. A file with a syntax error is refused.
 *
 * Layout, in short (docs/grammar.md §5 has the full list): two-space
 * indentation, lines of at most 100 columns where a break is possible, a
 * blank line between items, at most one blank line kept elsewhere,
 * trailing commas on every multi-line list.
 *
 * @module
 */
import type { Diagnostic } from "../base/mod.ts";
import type * as A from "./ast.ts";
import { TokenKind as T, type TokenStream } from "./lexer.ts";
import { parse } from "./parser.ts";
import { BINARY_PRECEDENCE } from "./operators.ts";

/** The formatted text, or the first syntax error (which has the place). */
export type FormatResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly diagnostic: Diagnostic };

/** The widest line the printer aims for. */
export const LINE_WIDTH = 100;

/**
 * A record declaration stays on one line when its fields, written flat,
 * take at most this many characters (rustfmt's `struct_lit_width`):
 * `{ x: Int, y: Int }` does, a record of three real fields does not.
 */
export const RECORD_DECL_FLAT_WIDTH = 18;

const INDENT = "  ";

/** Formats a file. Refuses (with the first diagnostic) a file with any syntax error. */
export function format(source: Uint8Array, file = ""): FormatResult {
  const r = parse(source, file);
  if (r.diagnostics.length > 0) return { ok: false, diagnostic: r.diagnostics[0] };
  return { ok: true, text: new Printer(r.tokens).file(r.tree) };
}

type Entry = { readonly comment: number } | { readonly node: A.Node };

class Printer {
  readonly #tokens: TokenStream;
  /** Token indices of every comment, in order. */
  readonly #comments: number[] = [];
  readonly #commentStarts: number[] = [];
  #emitted: Uint8Array;

  constructor(tokens: TokenStream) {
    this.#tokens = tokens;
    for (let i = 0; i < tokens.count; i++) {
      const k = tokens.kinds[i];
      if (k === T.LineComment || k === T.DocComment || k === T.BlockComment) {
        this.#comments.push(i);
        this.#commentStarts.push(tokens.starts[i]);
      }
    }
    this.#emitted = new Uint8Array(this.#comments.length);
  }

  // ------------------------------------------------------------ comments

  /** Index of the first comment starting at or after `offset`. */
  #firstComment(offset: number): number {
    const starts = this.#commentStarts;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #hasComments(start: number, end: number): boolean {
    const c = this.#firstComment(start);
    return c < this.#comments.length && this.#commentStarts[c] < end;
  }

  #allEmitted(start: number, end: number): boolean {
    for (let c = this.#firstComment(start); c < this.#comments.length; c++) {
      if (this.#commentStarts[c] >= end) break;
      if (this.#emitted[c] === 0) return false;
    }
    return true;
  }

  #markEmitted(start: number, end: number): void {
    for (let c = this.#firstComment(start); c < this.#comments.length; c++) {
      if (this.#commentStarts[c] >= end) break;
      this.#emitted[c] = 1;
    }
  }

  #commentText(c: number): string {
    const t = this.#comments[c];
    const text = this.#tokens.text(t);
    return this.#tokens.kinds[t] === T.BlockComment ? text : text.trimEnd();
  }

  /** Index of the token starting exactly at `offset` (or the first after it). */
  #tokenAt(offset: number): number {
    const starts = this.#tokens.starts;
    let lo = 0;
    let hi = this.#tokens.count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The comments on the same line after `offset` (past separators), as
   * text to append; they are marked emitted. Also returns where they end.
   */
  #trailing(offset: number): { text: string; end: number } {
    const tokens = this.#tokens;
    let text = "";
    let end = offset;
    for (let t = this.#tokenAt(offset); t < tokens.count; t++) {
      const k = tokens.kinds[t];
      if (k === T.Whitespace || k === T.Comma || k === T.Semi) continue;
      // A doc comment is never a line's end: it documents what follows.
      if (k !== T.LineComment && k !== T.BlockComment) break;
      const c = this.#firstComment(tokens.starts[t]);
      if (this.#emitted[c] === 1) break;
      // A multi-line block comment is no line's end: leave it to its own line.
      if (k === T.BlockComment && this.#commentText(c).includes("\n")) break;
      this.#emitted[c] = 1;
      text += " " + this.#commentText(c);
      end = tokens.ends[t];
    }
    return { text, end };
  }

  /** True when a blank line separates the offsets (nothing but spacing between them is assumed). */
  #blankBetween(a: number, b: number): boolean {
    const src = this.#tokens.source;
    let newlines = 0;
    for (let i = a; i < b; i++) {
      const c = src[i];
      if (c === 0x0a) {
        if (++newlines >= 2) return true;
      } else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) newlines = 0;
    }
    return false;
  }

  /** The exact source text of a node: the fallback that keeps odd comments in place. */
  #verbatim(node: A.NodeBase): string {
    this.#markEmitted(node.start, node.end);
    return this.#tokens.slice(node.start, node.end);
  }

  /** Renders a line-level node, falling back to its source text when a comment inside would be lost. */
  #checked(node: A.Node, render: () => string): string {
    const text = render();
    return this.#allEmitted(node.start, node.end) ? text : this.#verbatim(node);
  }

  /**
   * Lines for a sequence of line-level nodes between `from` and `to`, with
   * the comments among them, each line indented by `ind`. `blankBefore`
   * forces a blank line before an entry; otherwise one blank line of the
   * source is kept.
   */
  #lines(
    nodes: readonly A.Node[],
    from: number,
    to: number,
    ind: string,
    render: (node: A.Node) => string,
    options: {
      suffix?: (node: A.Node) => string;
      blankBefore?: (prev: Entry, cur: Entry, next: A.Node | null) => boolean;
    } = {},
  ): string[] {
    const out: string[] = [];
    let prev: Entry | null = null;
    let prevEnd = from;
    let j = 0;
    let c = this.#firstComment(from);
    while (true) {
      while (c < this.#comments.length && this.#emitted[c] === 1) c++;
      const commentStart = c < this.#comments.length ? this.#commentStarts[c] : Infinity;
      const node = j < nodes.length ? nodes[j] : null;
      let entry: Entry;
      let start: number;
      if (commentStart < to && (node === null || commentStart < node.start)) {
        entry = { comment: c };
        start = commentStart;
      } else if (node !== null) {
        entry = { node };
        start = node.start;
        j++;
      } else break;
      if (prev !== null) {
        const forced = options.blankBefore?.(prev, entry, j < nodes.length ? nodes[j] : null) ??
          false;
        if (forced || this.#blankBetween(prevEnd, start)) out.push("");
      }
      if ("comment" in entry) {
        this.#emitted[entry.comment] = 1;
        const text = this.#commentText(entry.comment);
        out.push(ind + text);
        prevEnd = this.#tokens.ends[this.#comments[entry.comment]];
      } else {
        const n = entry.node;
        let text = this.#checked(n, () => render(n));
        text += options.suffix?.(n) ?? "";
        const trailing = this.#trailing(n.end);
        out.push(ind + text + trailing.text);
        prevEnd = Math.max(n.end, trailing.end);
      }
      prev = entry;
    }
    return out;
  }

  // ------------------------------------------------------------ file and items

  file(tree: A.SourceFile): string {
    const nodes: A.Node[] = [...tree.imports, ...tree.items].sort((a, b) => a.start - b.start);
    const isImport = (e: Entry) => "node" in e && e.node.kind === "Import";
    const lines = this.#lines(nodes, 0, tree.end, "", (n) => this.#topLevel(n), {
      // Items are separated by a blank line; consecutive imports keep the
      // source's choice. A comment sticks to what follows it.
      blankBefore: (prev, cur, next) => {
        if (!("node" in prev)) return false;
        if (!isImport(prev)) return true;
        const following = "node" in cur ? cur.node : next;
        return following !== null && following.kind !== "Import";
      },
    });
    return lines.length === 0 ? "" : lines.join("\n") + "\n";
  }

  #topLevel(node: A.Node): string {
    switch (node.kind) {
      case "Import":
        return this.#import(node);
      case "FnDecl":
        return this.#doc(node) + this.#fn(node);
      case "RecordDecl":
        return this.#doc(node) + this.#record(node);
      case "EnumDecl":
        return this.#doc(node) + this.#enum(node);
      case "TestDecl":
        return this.#doc(node) + `test fn ${node.name.text}() ${this.#blockLines(node.body, "")}`;
      default:
        return this.#verbatim(node);
    }
  }

  #doc(item: A.FnDecl | A.RecordDecl | A.EnumDecl | A.TestDecl): string {
    if (item.doc === null) return "";
    let out = "";
    for (let c = this.#firstComment(item.doc.start); c < this.#comments.length; c++) {
      if (this.#commentStarts[c] >= item.doc.end) break;
      this.#emitted[c] = 1;
      out += this.#commentText(c) + "\n";
    }
    return out;
  }

  #import(node: A.Import): string {
    const head = "import " + node.path.map((n) => n.text).join(".");
    if (node.alias !== null) return `${head} as ${node.alias.text}`;
    if (node.names === null) return head;
    const flat = `${head}.{${node.names.map((n) => n.text).join(", ")}}`;
    if (flat.length <= LINE_WIDTH && !this.#hasComments(node.start, node.end)) return flat;
    const lines = this.#lines(
      node.names,
      node.start,
      node.end,
      INDENT,
      (n) => (n as A.NameRef).text,
      {
        suffix: () => ",",
      },
    );
    return `${head}.{\n${lines.join("\n")}\n}`;
  }

  #typeParams(params: readonly A.NameDecl[]): string {
    return params.length === 0 ? "" : `[${params.map((p) => p.text).join(", ")}]`;
  }

  #fn(node: A.FnDecl): string {
    const pub = node.pub !== null ? "pub " : "";
    const head = `${pub}fn ${node.name.text}${this.#typeParams(node.typeParams)}`;
    const ret = node.returnType !== null ? ` -> ${this.#type(node.returnType)}` : "";
    const params = node.params.map((p) => `${p.name.text}: ${this.#type(p.type)}`);
    let header = `${head}(${params.join(", ")})${ret}`;
    const paramsEnd = node.returnType?.start ?? node.body.start;
    if (
      header.length + 2 > LINE_WIDTH ||
      this.#hasComments(node.name.end, paramsEnd)
    ) {
      const lines = this.#lines(
        node.params,
        node.name.end,
        paramsEnd,
        INDENT,
        (p) => `${(p as A.Param).name.text}: ${this.#type((p as A.Param).type)}`,
        { suffix: () => "," },
      );
      header = `${head}(\n${lines.join("\n")}\n)${ret}`;
    }
    return `${header} ${this.#blockLines(node.body, "")}`;
  }

  #record(node: A.RecordDecl): string {
    const pub = node.pub !== null ? "pub " : "";
    const head = `${pub}record ${node.name.text}${this.#typeParams(node.typeParams)}`;
    const fields = node.fields.map((f) => `${f.name.text}: ${this.#type(f.type)}`).join(", ");
    const inner = this.#hasComments(node.name.end, node.end);
    if (!inner && node.fields.length === 0) return `${head} {}`;
    if (!inner && fields.length <= RECORD_DECL_FLAT_WIDTH) return `${head} { ${fields} }`;
    const lines = this.#lines(
      node.fields,
      node.name.end,
      node.end,
      INDENT,
      (f) => `${(f as A.FieldDecl).name.text}: ${this.#type((f as A.FieldDecl).type)}`,
      { suffix: () => "," },
    );
    return `${head} {\n${lines.join("\n")}\n}`;
  }

  #enum(node: A.EnumDecl): string {
    const pub = node.pub !== null ? "pub " : "";
    const head = `${pub}enum ${node.name.text}${this.#typeParams(node.typeParams)}`;
    if (node.variants.length === 0 && !this.#hasComments(node.name.end, node.end)) {
      return `${head} {}`;
    }
    const lines = this.#lines(node.variants, node.name.end, node.end, INDENT, (v) => {
      const variant = v as A.VariantDecl;
      if (variant.fields.length === 0) return variant.name.text;
      return `${variant.name.text}(${variant.fields.map((t) => this.#type(t)).join(", ")})`;
    }, { suffix: () => "," });
    return `${head} {\n${lines.join("\n")}\n}`;
  }

  // ------------------------------------------------------------ types and patterns

  #type(t: A.TypeExpr): string {
    switch (t.kind) {
      case "NamedType": {
        const path = t.path.map((n) => n.text).join(".");
        return t.args.length === 0
          ? path
          : `${path}[${t.args.map((a) => this.#type(a)).join(", ")}]`;
      }
      case "FnType":
        return `fn(${t.params.map((p) => this.#type(p)).join(", ")}) -> ${this.#type(t.result)}`;
      case "UnitType":
        return "()";
      default:
        return this.#verbatim(t);
    }
  }

  /** A call's type arguments as written (N0312 reports them; formatting keeps them). */
  #typeArgs(e: A.CallExpr): string {
    return e.typeArgs === null ? "" : `[${e.typeArgs.types.map((t) => this.#type(t)).join(", ")}]`;
  }

  #pattern(p: A.Pattern): string {
    switch (p.kind) {
      case "WildcardPattern":
        return "_";
      case "BindingPattern":
        return p.name.text;
      case "LiteralPattern":
        if (p.literal.kind === "UnitLit") return "()";
        return this.#tokens.slice(p.start, p.end).replace(/^-\s+/, "-");
      case "VariantPattern": {
        const path = p.path.map((n) => n.text).join(".");
        return p.args === null
          ? path
          : `${path}(${p.args.map((a) => this.#pattern(a)).join(", ")})`;
      }
      case "ListPattern": {
        const parts = p.elements.map((e) => this.#pattern(e));
        if (p.rest !== null) {
          // `..` and `.._` mean the same; keep the one written.
          const wild = this.#tokens.slice(p.rest.start, p.rest.end).trimEnd().endsWith("_");
          parts.push(".." + (p.rest.binding?.text ?? (wild ? "_" : "")));
        }
        return `[${parts.join(", ")}]`;
      }
      default:
        return this.#verbatim(p);
    }
  }

  // ------------------------------------------------------------ blocks and statements

  /** A block over several lines (a function body, or a block that cannot be flat). */
  #blockLines(b: A.Block, ind: string): string {
    const inner = ind + INDENT;
    const nodes: A.Node[] = b.tail === null ? [...b.statements] : [...b.statements, b.tail];
    if (nodes.length === 0 && !this.#hasComments(b.start, b.end)) return "{}";
    const lines = this.#lines(nodes, b.start + 1, b.end - 1, inner, (n) => {
      if (n === b.tail) return this.#expr(n as A.Expr, inner, inner.length);
      return this.#statement(n as A.Statement, inner);
    });
    return `{\n${lines.join("\n")}\n${ind}}`;
  }

  #statement(s: A.Statement, ind: string): string {
    if (s.kind === "LetStmt") {
      const name = s.binding.kind === "NameDecl" ? s.binding.text : "_";
      const type = s.type !== null ? `: ${this.#type(s.type)}` : "";
      const head = `let ${name}${type} = `;
      return head + this.#expr(s.value, ind, ind.length + head.length, 1) + ";";
    }
    const semi = this.#tokens.source[s.end - 1] === 0x3b ? ";" : "";
    return this.#expr(s.expr, ind, ind.length, semi.length) + semi;
  }

  // ------------------------------------------------------------ expressions

  /**
   * `e` starting at column `col` on a line indented by `ind`, followed on
   * its last line by `after` more characters (a statement's `;`): flat when
   * all of it fits, else broken.
   */
  #expr(e: A.Expr, ind: string, col: number, after = 0): string {
    // Comments inside rule out the flat form: the broken one has lines for them.
    if (!this.#hasComments(e.start, e.end)) {
      const flat = this.#flat(e);
      if (flat !== null && col + flat.length + after <= LINE_WIDTH) return flat;
    }
    return this.#broken(e, ind, col, after);
  }

  #literal(e: A.NodeBase): string {
    return this.#tokens.slice(e.start, e.end);
  }

  /** `e` on one line, or null when it cannot be (a match, a block with statements, a comment). */
  #flat(e: A.Expr): string | null {
    switch (e.kind) {
      case "IntLit":
      case "FloatLit":
      case "StringLit":
        return this.#literal(e);
      case "BoolLit":
        return e.value ? "true" : "false";
      case "UnitLit":
        return "()";
      case "NameExpr":
        return e.name.text;
      case "FieldExpr": {
        const target = this.#flat(e.target);
        return target === null ? null : `${target}.${e.name.text}`;
      }
      case "CallExpr": {
        const callee = this.#flat(e.callee);
        const args = this.#flatList(e.args);
        return callee === null || args === null ? null : `${callee}${this.#typeArgs(e)}(${args})`;
      }
      case "RecordLit": {
        const fields: string[] = [];
        for (const f of e.fields) {
          if (f.value === null) fields.push(f.name.text);
          else {
            const v = this.#flat(f.value);
            if (v === null) return null;
            fields.push(`${f.name.text}: ${v}`);
          }
        }
        const type = this.#type(e.type);
        return fields.length === 0 ? `${type} {}` : `${type} { ${fields.join(", ")} }`;
      }
      case "ListLit": {
        const elements = this.#flatList(e.elements);
        return elements === null ? null : `[${elements}]`;
      }
      case "UnaryExpr": {
        const operand = this.#flat(e.operand);
        return operand === null ? null : e.op + operand;
      }
      case "BinaryExpr": {
        const left = this.#flat(e.left);
        const right = this.#flat(e.right);
        return left === null || right === null ? null : `${left} ${e.op} ${right}`;
      }
      case "ParenExpr": {
        const inner = this.#flat(e.inner);
        return inner === null ? null : `(${inner})`;
      }
      case "ReturnExpr": {
        if (e.value === null) return "return";
        const value = this.#flat(e.value);
        return value === null ? null : `return ${value}`;
      }
      case "Block":
        // Only an empty block is flat on its own; `{ x }` is for if branches.
        return e.statements.length === 0 && e.tail === null && !this.#hasComments(e.start, e.end)
          ? "{}"
          : null;
      case "IfExpr": {
        // One line only for a plain `if c { a } else { b }`: an `else if`
        // chain reads better one branch per line.
        if (e.otherwise !== null && e.otherwise.kind === "IfExpr") return null;
        const cond = this.#flat(e.condition);
        const then = this.#flatBranch(e.then);
        if (cond === null || then === null) return null;
        if (e.otherwise === null) return `if ${cond} ${then}`;
        const otherwise = this.#flatBranch(e.otherwise);
        return otherwise === null ? null : `if ${cond} ${then} else ${otherwise}`;
      }
      case "MatchExpr": {
        if (e.arms.length > 0 || this.#hasComments(e.start, e.end)) return null;
        const scrutinee = this.#flat(e.scrutinee);
        return scrutinee === null ? null : `match ${scrutinee} {}`;
      }
      default:
        return null;
    }
  }

  /** An if branch on one line: `{}` or `{ x }` with a simple `x`. */
  #flatBranch(b: A.Block): string | null {
    if (this.#hasComments(b.start, b.end) || b.statements.length > 0) return null;
    if (b.tail === null) return "{}";
    if (isBlockLike(b.tail)) return null;
    const tail = this.#flat(b.tail);
    return tail === null ? null : `{ ${tail} }`;
  }

  #flatList(items: readonly A.Expr[]): string | null {
    const parts: string[] = [];
    for (const item of items) {
      const f = this.#flat(item);
      if (f === null) return null;
      parts.push(f);
    }
    return parts.join(", ");
  }

  /**
   * `e` over several lines: its own parts broken, its children flat where
   * they fit; `after` characters follow it on its last line.
   */
  #broken(e: A.Expr, ind: string, col: number, after = 0): string {
    switch (e.kind) {
      case "FieldExpr": {
        const target = this.#expr(e.target, ind, col);
        return `${target}.${e.name.text}`;
      }
      case "CallExpr": {
        const callee = this.#expr(e.callee, ind, col) + this.#typeArgs(e);
        if (e.args.length === 0) return `${callee}()`;
        return callee + this.#brokenList("(", ")", e.args, e.start, e.end, ind);
      }
      case "ListLit":
        if (e.elements.length === 0) return "[]";
        return this.#brokenList("[", "]", e.elements, e.start, e.end, ind);
      case "RecordLit": {
        const inner = ind + INDENT;
        const lines = this.#lines(e.fields, e.type.end, e.end, inner, (n) => {
          const f = n as A.FieldInit;
          if (f.value === null) return f.name.text;
          const head = `${f.name.text}: `;
          return head + this.#expr(f.value, inner, inner.length + head.length);
        }, { suffix: () => "," });
        return `${this.#type(e.type)} {\n${lines.join("\n")}\n${ind}}`;
      }
      case "UnaryExpr":
        return e.op + this.#expr(e.operand, ind, col + 1, after);
      case "BinaryExpr":
        return this.#brokenBinary(e, ind, col, after);
      case "ParenExpr":
        return `(${this.#expr(e.inner, ind, col + 1, after + 1)})`;
      case "ReturnExpr":
        return e.value === null ? "return" : `return ${this.#expr(e.value, ind, col + 7, after)}`;
      case "Block":
        return this.#blockLines(e, ind);
      case "IfExpr":
        return this.#brokenIf(e, ind, col);
      case "MatchExpr": {
        const scrutinee = this.#expr(e.scrutinee, ind, col + 6);
        const inner = ind + INDENT;
        if (e.arms.length === 0 && !this.#hasComments(e.start, e.end)) {
          return `match ${scrutinee} {}`;
        }
        const lines = this.#lines(e.arms, e.scrutinee.end, e.end, inner, (n) => {
          const arm = n as A.MatchArm;
          const head = `${this.#pattern(arm.pattern)} => `;
          return head + this.#expr(arm.body, inner, inner.length + head.length);
        }, { suffix: () => "," });
        return `match ${scrutinee} {\n${lines.join("\n")}\n${ind}}`;
      }
      default: {
        const flat = this.#flat(e);
        return flat ?? this.#verbatim(e);
      }
    }
  }

  /**
   * A chain of operators of one precedence, filled greedily: operands stay
   * on the line while they fit, then the line breaks after an operator and
   * continues one level deeper. An operand is followed on its line by the
   * operator that breaks it (` ==`), the last one by `after` characters.
   */
  #brokenBinary(e: A.BinaryExpr, ind: string, col: number, after: number): string {
    const level = PRECEDENCE[e.op];
    const operands: A.Expr[] = [];
    const ops: A.BinaryOp[] = [];
    let cur: A.Expr = e;
    while (cur.kind === "BinaryExpr" && PRECEDENCE[cur.op] === level) {
      operands.push(cur.right);
      ops.push(cur.op);
      cur = cur.left;
    }
    operands.push(cur);
    operands.reverse();
    ops.reverse();
    const cont = ind + INDENT;
    // What follows operand i on its line: the next operator, or the chain's `after`.
    const trailing = (i: number) => i + 1 < operands.length ? ops[i].length + 1 : after;
    let out = this.#expr(operands[0], ind, col, trailing(0));
    let at = endColumn(out, col);
    for (let i = 1; i < operands.length; i++) {
      const operand = operands[i];
      const flat = this.#hasComments(operand.start, operand.end) ? null : this.#flat(operand);
      if (flat !== null && at + ops[i - 1].length + 2 + flat.length + trailing(i) <= LINE_WIDTH) {
        out += ` ${ops[i - 1]} ${flat}`;
        at += ops[i - 1].length + 2 + flat.length;
      } else {
        const text = this.#expr(operand, cont, cont.length, trailing(i));
        out += ` ${ops[i - 1]}\n${cont}${text}`;
        at = endColumn(text, cont.length);
      }
    }
    return out;
  }

  #brokenList(
    open: string,
    close: string,
    items: readonly A.Expr[],
    from: number,
    to: number,
    ind: string,
  ): string {
    const inner = ind + INDENT;
    const lines = this.#lines(
      items,
      from,
      to,
      inner,
      (n) => this.#expr(n as A.Expr, inner, inner.length),
      { suffix: () => "," },
    );
    return `${open}\n${lines.join("\n")}\n${ind}${close}`;
  }

  #brokenIf(e: A.IfExpr, ind: string, col: number): string {
    const cond = this.#expr(e.condition, ind, col + 3);
    let out = `if ${cond} ${this.#blockLines(e.then, ind)}`;
    if (e.otherwise !== null) {
      out += " else ";
      out += e.otherwise.kind === "IfExpr"
        ? this.#brokenIf(e.otherwise, ind, endColumn(out, col))
        : this.#blockLines(e.otherwise, ind);
    }
    return out;
  }
}

const PRECEDENCE = BINARY_PRECEDENCE;

function isBlockLike(e: A.Expr): boolean {
  return e.kind === "Block" || e.kind === "IfExpr" || e.kind === "MatchExpr";
}

/** The column after printing `text` from column `col`. */
function endColumn(text: string, col: number): number {
  const nl = text.lastIndexOf("\n");
  return nl < 0 ? col + text.length : text.length - nl - 1;
}
