/**
 * Building the exact-byte edits of fixes. Every edit is computed from the
 * file's bytes and the tree, never from re-printed source, so an edit
 * touches only what it must.
 *
 * @module
 */
import type { TextEdit } from "../base/mod.ts";
import type { Import, SourceFile } from "../syntax/mod.ts";

const SPACE = 0x20;
const TAB = 0x09;
const NL = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;

function isBlank(b: number): boolean {
  return b === SPACE || b === TAB;
}

/** Inserts `_` before a binding's name. */
export function prefixUnderscore(file: string, start: number): TextEdit {
  return { file, span: { start, end: start }, replacement: "_" };
}

/**
 * Removes a whole import, with the rest of its line when only blanks
 * follow it, so no empty line is left where it stood.
 */
export function removeImport(file: string, bytes: Uint8Array, node: Import): TextEdit {
  let end = node.end;
  while (end < bytes.length && isBlank(bytes[end])) end++;
  if (end < bytes.length && bytes[end] === CR) end++;
  if (end < bytes.length && bytes[end] === NL) end++;
  else end = node.end;
  let start = node.start;
  if (end === node.end) {
    // Not at a line end: take nothing else, the import shares its line.
    return { file, span: { start, end }, replacement: "" };
  }
  while (start > 0 && isBlank(bytes[start - 1])) start--;
  if (start > 0 && bytes[start - 1] !== NL) start = node.start;
  return { file, span: { start, end }, replacement: "" };
}

/** Removes one name of `import m.{a, b}` with its separating comma. */
export function removeImportName(
  file: string,
  bytes: Uint8Array,
  node: Import,
  index: number,
): TextEdit {
  const names = node.names!;
  if (names.length === 1) return removeImport(file, bytes, node);
  const name = names[index];
  if (index < names.length - 1) {
    // `a, ` : up to the start of the next name.
    return { file, span: { start: name.start, end: names[index + 1].start }, replacement: "" };
  }
  // The last name: from the end of the previous one (its comma and blanks go).
  let end = name.end;
  let probe = end;
  while (probe < bytes.length && (isBlank(bytes[probe]) || bytes[probe] === NL)) probe++;
  if (probe < bytes.length && bytes[probe] === COMMA) end = name.end; // keep a trailing comma
  return { file, span: { start: names[index - 1].end, end }, replacement: "" };
}

/**
 * Imports `name` from `moduleName`: into an existing `import m.{...}` of
 * that module, else as a new import line after the last import (or at the
 * top of the file).
 */
export function addImport(
  file: string,
  tree: SourceFile,
  moduleName: string,
  name: string,
): TextEdit {
  for (const imp of tree.imports) {
    const path = imp.path.map((p) => p.text).join(".");
    if (path === moduleName && imp.names !== null && imp.names.length > 0) {
      const last = imp.names[imp.names.length - 1];
      return { file, span: { start: last.end, end: last.end }, replacement: `, ${name}` };
    }
  }
  const last = tree.imports[tree.imports.length - 1];
  if (last !== undefined) {
    return {
      file,
      span: { start: last.end, end: last.end },
      replacement: `\nimport ${moduleName}.{${name}}`,
    };
  }
  return { file, span: { start: 0, end: 0 }, replacement: `import ${moduleName}.{${name}}\n\n` };
}

/** The blanks at the start of the line holding `offset`. */
export function indentationAt(bytes: Uint8Array, offset: number): string {
  let start = offset;
  while (start > 0 && bytes[start - 1] !== NL) start--;
  let end = start;
  while (end < bytes.length && isBlank(bytes[end])) end++;
  return new TextDecoder().decode(bytes.subarray(start, end));
}

/**
 * Adds match arms after the last arm (after its comma, if it has one), one
 * per line at the last arm's indentation. `bodyIsBlock` says the last arm
 * ends in a block, which needs no comma before the next arm.
 */
export function addArms(
  file: string,
  bytes: Uint8Array,
  match: { start: number; end: number },
  lastArm: { start: number; end: number; bodyIsBlock: boolean } | null,
  arms: readonly string[],
): TextEdit {
  if (lastArm === null) {
    // `match x {}`: insert after the opening brace.
    let brace = match.end - 1;
    while (brace > match.start && bytes[brace] !== 0x7d) brace--;
    const indent = indentationAt(bytes, match.start);
    const text = arms.map((a) => `\n${indent}  ${a},`).join("") + `\n${indent}`;
    return { file, span: { start: brace, end: brace }, replacement: text };
  }
  let at = lastArm.end;
  let probe = at;
  while (
    probe < bytes.length && (isBlank(bytes[probe]) || bytes[probe] === NL || bytes[probe] === CR)
  ) {
    probe++;
  }
  let lead = "";
  if (probe < bytes.length && bytes[probe] === COMMA) at = probe + 1;
  else if (!lastArm.bodyIsBlock) lead = ",";
  const indent = indentationAt(bytes, lastArm.start);
  const text = lead + arms.map((a) => `\n${indent}${a},`).join("");
  return { file, span: { start: at, end: at }, replacement: text };
}

/**
 * Edit distance counting an adjacent transposition as one edit (optimal
 * string alignment), bounded: returns `max + 1` once it exceeds `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  let before: number[] = [];
  let previous = Array.from({ length: width }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2] + 1);
      }
      current.push(value);
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/** The candidate closest to `name` within a third of its length (at least 1), ties by name. */
export function closestName(name: string, candidates: Iterable<string>): string | null {
  const max = Math.max(1, Math.floor(name.length / 3));
  let best: string | null = null;
  let bestDistance = max + 1;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase(), max);
    const dd = d === 0 ? 0.5 : d; // differing only in case is still the closest
    if (dd < bestDistance || (dd === bestDistance && best !== null && candidate < best)) {
      best = candidate;
      bestDistance = dd;
    }
  }
  return best;
}
