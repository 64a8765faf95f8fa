/**
 * Writes docs/diagnostics.md from the diagnostic registry
 * (src/base/codes.ts). `--check` compares instead of writing and
 * exits 1 when the committed file differs.
 *
 * Run: deno run --allow-read --allow-write scripts/gen_diagnostics_doc.ts [--check]
 *
 * @module
 */
import { CODE_GROUPS, type CodeInfo, REGISTRY } from "../src/base/mod.ts";

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function fixesText(c: CodeInfo): string {
  if (c.fixes.length === 0) return "none";
  return c.fixes.map((f) => `${f.title} (${f.applicability}, precondition \`${f.precondition}\`)`)
    .join("; ");
}

/** The whole document. */
export function diagnosticsDoc(): string {
  const out: string[] = [
    // Generated text is kept exactly as generated, so the formatter leaves it alone.
    "<!-- deno-fmt-ignore-file -->",
    "",
    "# Nazm diagnostics",
    "",
    "<!-- Generated from src/base/codes.ts by scripts/gen_diagnostics_doc.ts; do not edit. -->",
    "",
    "Every diagnostic has a stable code, a severity, a primary place, a message that stands alone, optional labels and help, and zero or more fixes. A fix is `automatic` (safe to apply unread) or `needs_review`, with a structured precondition. Each diagnostic names the section below that explains its code (`docs_section`, such as `diagnostics/types-n03xx/n0301`): what is wrong, a program a newcomer might write with it, the same program repaired, and the fixes it may carry. A program of several modules gives each file after a `// @file: path` line.",
    "",
    "| Code | Severity | Title | Fixes |",
    "| --- | --- | --- | --- |",
    ...REGISTRY.map((c) =>
      `| [${c.code}](#${c.code.toLowerCase()}) | ${c.severity} | ${cell(c.title)} | ${
        cell(fixesText(c))
      } |`
    ),
    "",
  ];
  for (const { group, heading } of CODE_GROUPS) {
    out.push(`## ${heading}`, "");
    for (const c of REGISTRY.filter((x) => x.group === group)) {
      out.push(`### ${c.code}`, "", `**${c.title}** (${c.severity})`, "", c.explanation, "");
      out.push("Wrong:", "", "```nazm", c.example, "```", "");
      out.push("Repaired:", "", "```nazm", c.repair, "```", "");
      out.push(`Fixes: ${fixesText(c)}.`, "");
    }
  }
  return out.join("\n");
}

if (import.meta.main) {
  const path = new URL("../docs/diagnostics.md", import.meta.url);
  const text = diagnosticsDoc();
  if (Deno.args.includes("--check")) {
    let current = "";
    try {
      current = Deno.readTextFileSync(path);
    } catch {
      current = "";
    }
    if (current !== text) {
      console.error("docs/diagnostics.md is out of date: run scripts/gen_diagnostics_doc.ts");
      Deno.exit(1);
    }
  } else {
    Deno.writeTextFileSync(path, text);
  }
}
