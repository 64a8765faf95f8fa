/**
 * The syntax layer's codes in the registry's shape. The syntax table states
 * its fixes in words ("Insert … (automatic, precondition none) …"); the
 * applicability and precondition are read from those words so that the
 * syntax layer stays the one place that describes its codes.
 *
 * @module
 */
import type { Applicability, Precondition } from "../base/mod.ts";
import { SYNTAX_DIAGNOSTICS } from "../syntax/mod.ts";
import type { CodeInfo, FixKind } from "./registry.ts";

const PRECONDITIONS: readonly Precondition["kind"][] = [
  "intended_name",
  "intended_definition",
  "placeholders_to_complete",
  "removal_intended",
  "none",
];

function fixKinds(text: string): FixKind[] {
  if (text.trim() === "") return [];
  const applicability: Applicability = /\bautomatic\b/.test(text) ? "automatic" : "needs_review";
  const precondition = PRECONDITIONS.find((p) => text.includes(p)) ?? "none";
  const title = text.split(" (")[0].replace(/\.$/, "");
  return [{ title: title.charAt(0).toLowerCase() + title.slice(1), applicability, precondition }];
}

export const SYNTAX_CODE_TABLE: readonly CodeInfo[] = SYNTAX_DIAGNOSTICS.map((d) => ({
  code: d.code,
  severity: "error",
  group: "syntax",
  title: d.title,
  explanation: d.explanation,
  example: d.example,
  fixes: fixKinds(d.fixes),
}));
