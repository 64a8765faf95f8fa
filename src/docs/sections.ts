/**
 * Splitting one Markdown document into sections by its ATX headings.
 *
 * The rules (docs/architecture.md §7.34 states them for users):
 *
 * - A heading is an ATX heading at the top level of the document: up to three
 *   spaces, one to six `#`, then a space, a tab or the end of the line.
 *   Setext headings (a line underlined with `===` or `---`) are not used in
 *   Nazm's documents and are not recognised; neither are headings inside
 *   block quotes or list items, or inside HTML blocks.
 * - Lines inside a fenced code block (``` or ~~~, at least three, closed by
 *   a fence of the same character at least as long) are never headings. An
 *   unclosed fence runs to the end of the document.
 * - Every document has a root section whose id is the document id. When the
 *   document's first heading is its only level-1 heading, that heading is the
 *   document's title and begins the root section; otherwise the root section
 *   is the bytes before the first heading, titled with the manifest's title.
 * - A section's own text runs from the start of its heading line to the start
 *   of the next heading of any level (its first subsection, or the next
 *   heading of the same or a higher level), byte for byte. So the sections'
 *   texts, in order, concatenate to the whole file.
 * - A section id is `<document id>/<slug>/<slug>...`, one slug per heading on
 *   the path from the document's top down to the section. It depends on the
 *   heading titles and their nesting only, so an edit of a section's body never
 *   changes any id.
 *
 * @module
 */

/** One section of one document, before digests are taken. */
export interface RawSection {
  /** Stable id: `<document id>` for the root, else `<document id>/<slug path>`. */
  readonly id: string;
  /** The heading's text with its closing `#` sequence removed, trimmed. */
  readonly title: string;
  /** The enclosing section's id; null for the root section. */
  readonly parent: string | null;
  /** The heading's level, 1 to 6; 0 for a root section that has no heading of its own. */
  readonly level: number;
  /** Half-open byte range of the section's own text in the file. */
  readonly start: number;
  readonly end: number;
}

/** A heading found in the document: its line's byte range, level and title. */
export interface Heading {
  readonly start: number;
  readonly level: number;
  readonly title: string;
}

// Strips a leading byte order mark, so a first-line heading after one is still a heading.
const decoder = new TextDecoder();

/**
 * Every top-level ATX heading of a document, in order, with code fences
 * honoured. Accepts LF and CRLF line endings.
 */
export function findHeadings(bytes: Uint8Array): Heading[] {
  const headings: Heading[] = [];
  let fence: { char: string; length: number } | null = null;
  let lineStart = 0;
  while (lineStart < bytes.length) {
    let lineEnd = bytes.indexOf(0x0a, lineStart);
    if (lineEnd < 0) lineEnd = bytes.length;
    let contentEnd = lineEnd;
    if (contentEnd > lineStart && bytes[contentEnd - 1] === 0x0d) contentEnd--;
    const line = decoder.decode(bytes.subarray(lineStart, contentEnd));
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
    } else {
      const opened = opensFence(line);
      if (opened !== null) {
        fence = opened;
      } else {
        const heading = atxHeading(line);
        if (heading !== null) headings.push({ start: lineStart, ...heading });
      }
    }
    lineStart = lineEnd + 1;
  }
  return headings;
}

/** Leading spaces (not tabs) of a line. */
function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && line[i] === " ") i++;
  return i;
}

function opensFence(line: string): { char: string; length: number } | null {
  const indent = indentOf(line);
  if (indent > 3) return null;
  const match = /^(`{3,}|~{3,})(.*)$/.exec(line.slice(indent));
  if (match === null) return null;
  const [, run, info] = match;
  // A backtick fence's info string may not contain a backtick (CommonMark 4.5).
  if (run[0] === "`" && info.includes("`")) return null;
  return { char: run[0], length: run.length };
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const indent = indentOf(line);
  if (indent > 3) return false;
  const rest = line.slice(indent);
  let run = 0;
  while (run < rest.length && rest[run] === fence.char) run++;
  return run >= fence.length && /^[ \t]*$/.test(rest.slice(run));
}

function atxHeading(line: string): { level: number; title: string } | null {
  const indent = indentOf(line);
  if (indent > 3) return null;
  const match = /^(#{1,6})(?:[ \t](.*))?$/.exec(line.slice(indent));
  if (match === null) return null;
  let title = (match[2] ?? "").trim();
  // The optional closing sequence: `#`s preceded by a space or tab, or alone.
  if (/^#+$/.test(title)) title = "";
  else title = title.replace(/[ \t]+#+$/, "").trim();
  return { level: match[1].length, title };
}

/**
 * The slug of one heading title: a leading section number (`7.34`, `§7.34`,
 * `2.`) is dropped, so renumbering keeps ids; the rest is lowercased (after
 * NFC normalisation) and every run of characters other than letters and
 * digits becomes one `-`, with none at either end. An empty slug is `section`.
 */
export function slug(title: string): string {
  const unnumbered = title.replace(/^§?\s*\d+(?:\.\d+)*\.?(?:\s+|$)/u, "");
  const text = unnumbered.normalize("NFC").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return text === "" ? "section" : text;
}

/**
 * The sections of one document, in document order: the root section first,
 * then one per heading. `fallbackTitle` titles a root section that has no
 * heading of its own.
 *
 * Duplicate ids (two headings with the same slug under the same parent) are
 * made unique in document order: the first keeps its id, the next gets `-2`,
 * then `-3`, skipping any id already taken.
 */
export function splitSections(
  documentId: string,
  bytes: Uint8Array,
  fallbackTitle: string,
): RawSection[] {
  const headings = findHeadings(bytes);
  const levelOnes = headings.filter((h) => h.level === 1).length;
  const titled = headings.length > 0 && headings[0].level === 1 && levelOnes === 1;
  const body = titled ? headings.slice(1) : headings;

  const endOf = (index: number) => index < body.length ? body[index].start : bytes.length;
  const sections: RawSection[] = [{
    id: documentId,
    title: titled ? headings[0].title : fallbackTitle,
    parent: null,
    level: titled ? 1 : 0,
    start: 0,
    end: endOf(0),
  }];

  const taken = new Set<string>([documentId]);
  // The open ancestors: level and id, innermost last. The root sits below every level.
  const stack: { level: number; id: string }[] = [{ level: 0, id: documentId }];
  body.forEach((heading, index) => {
    while (stack.length > 1 && stack[stack.length - 1].level >= heading.level) stack.pop();
    const parent = stack[stack.length - 1].id;
    const natural = `${parent}/${slug(heading.title)}`;
    let id = natural;
    for (let n = 2; taken.has(id); n++) id = `${natural}-${n}`;
    taken.add(id);
    sections.push({
      id,
      title: heading.title,
      parent,
      level: heading.level,
      start: heading.start,
      end: endOf(index + 1),
    });
    stack.push({ level: heading.level, id });
  });
  return sections;
}
