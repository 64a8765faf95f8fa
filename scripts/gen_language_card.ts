/**
 * Fills the generated tables of docs/language-card.md from the compiler's
 * own tables: the keywords (src/syntax/lexer.ts), the operators
 * (src/syntax/operators.ts), the prelude's signatures
 * (src/semantics/prelude.ts) and the diagnostic codes
 * (src/semantics/registry.ts). Each table sits between
 * `<!-- gen:NAME -->` and `<!-- /gen -->`; the prose around them is
 * written by hand and kept as it is. `--check` compares instead of writing
 * and exits 1 when the committed card differs.
 *
 * Run: deno task docs:card [--check]
 *
 * @module
 */
import {
  ACTIVE_KEYWORDS,
  BINARY_OPERATORS,
  RESERVED_WORDS,
  UNARY_OPERATORS,
} from "../src/syntax/mod.ts";
import { PRELUDE_FUNCTIONS, REGISTRY } from "../src/semantics/mod.ts";

export const CARD_PATH = "docs/language-card.md";

/** The most bytes the card may have, generated tables included (issue 16). */
export const CARD_MAX_BYTES = 12_000;

export interface CardCode {
  readonly code: string;
  readonly severity: "error" | "warning";
  readonly title: string;
}

/**
 * The diagnostic codes the card lists. The one place that knows where the
 * compiler keeps its code table: repoint it when that table moves.
 */
export function cardDiagnosticCodes(): readonly CardCode[] {
  return REGISTRY.map(({ code, severity, title }) => ({
    code,
    severity: severity === "warning" ? "warning" : "error",
    title,
  }));
}

const code = (text: string) => `\`${text}\``;

function keywords(): string {
  return [
    `Keywords: ${ACTIVE_KEYWORDS.map(code).join(" ")}.`,
    `Reserved (an error as a name): ${RESERVED_WORDS.map(code).join(" ")}.`,
  ].join("\n");
}

/** A table cell: a `|` inside it would end the cell. */
const cell = (text: string) => text.replaceAll("|", "\\|");

function operators(): string {
  const levels = [...new Set(BINARY_OPERATORS.map((o) => o.level))].sort((a, b) => b - a);
  const rows = levels.map((level) => {
    const ops = BINARY_OPERATORS.filter((o) => o.level === level);
    // Operators of one level take the same operands, one of them perhaps with more: say the most.
    const operands = ops.map((o) => o.operands).reduce((a, b) => (b.length > a.length ? b : a));
    return `| ${cell(ops.map((o) => code(o.op)).join(" "))} | ${
      ops[0].associativity
    } | ${operands} |`;
  });
  const unary = UNARY_OPERATORS;
  return [
    "| operators, tightest first | associativity | operands |",
    "| --- | --- | --- |",
    `| prefix ${unary.map((o) => code(o.op)).join(" ")} | | ${
      unary.map((o) => `${code(o.op)} ${o.operands}`).join(", ")
    } |`,
    ...rows,
  ].join("\n");
}

function prelude(): string {
  const lines = [...PRELUDE_FUNCTIONS.values()].map((f) => {
    const overload = f.name === "len" ? " (also `len(text: String)`)" : "";
    const doc = f.doc.replace(/\.$/, "").replace(/^./, (c) => c.toLowerCase());
    return `- ${code(f.signature)}${overload}: ${doc}`;
  });
  return lines.join("\n");
}

function diagnosticCodes(): string {
  return cardDiagnosticCodes()
    .map((c) => `${code(c.code)} ${c.title}${c.severity === "warning" ? " (warning)" : ""}`)
    .join("; ") + ".";
}

/** The generated tables, by the name their markers give. */
export function cardTables(): ReadonlyMap<string, string> {
  return new Map([
    ["keywords", keywords()],
    ["operators", operators()],
    ["prelude", prelude()],
    ["codes", diagnosticCodes()],
  ]);
}

const REGION = /(<!-- gen:([a-z]+) -->\n)([\s\S]*?)(<!-- \/gen -->)/g;

/**
 * The card with every generated region refilled. Throws on a region the
 * tables do not have or a table the card has no region for: both are bugs
 * of the card, not of its reader.
 */
export function languageCard(card: string): string {
  const tables = cardTables();
  const seen = new Set<string>();
  const out = card.replace(REGION, (_all, open: string, name: string, _body, close: string) => {
    const table = tables.get(name);
    if (table === undefined) throw new Error(`${CARD_PATH}: no generated table \`${name}\``);
    seen.add(name);
    return `${open}${table}\n${close}`;
  });
  for (const name of tables.keys()) {
    if (!seen.has(name)) throw new Error(`${CARD_PATH}: no region <!-- gen:${name} -->`);
  }
  return out;
}

if (import.meta.main) {
  const current = Deno.readTextFileSync(CARD_PATH);
  const text = languageCard(current);
  if (Deno.args.includes("--check")) {
    if (current !== text) {
      console.error(`${CARD_PATH} is out of date: run deno task docs:card`);
      Deno.exit(1);
    }
  } else if (current !== text) {
    Deno.writeTextFileSync(CARD_PATH, text);
  }
}
