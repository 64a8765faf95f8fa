/**
 * The one serialization of a diagnostic, `nazm.diagnostic/2`, shared by the
 * CLI (`nazm check --json`) and the server. Byte offsets become places
 * (offset, 1-based line, character column) through each file's line index;
 * each edit carries the exact text it expects to replace; `docs_section`
 * names the docs section that explains the code, so that an agent can read
 * it with `nazm.docs_section`.
 *
 * @module
 */
import {
  type Diagnostic,
  docsSectionOf,
  type LineIndex,
  type Place,
  type Precondition,
} from "../base/mod.ts";

export interface EditJson {
  readonly place: Place;
  /** The text the edit replaces, exactly (empty for an insertion). */
  readonly expected: string;
  readonly replacement: string;
}

export interface FixJson {
  readonly title: string;
  readonly applicability: "automatic" | "needs_review";
  readonly precondition: Precondition;
  readonly edits: readonly EditJson[];
}

export interface DiagnosticJson {
  readonly schema: "nazm.diagnostic/2";
  readonly code: string;
  /** The docs section id that explains the code (docs/diagnostics.md). */
  readonly docs_section: string;
  readonly severity: "error" | "warning";
  readonly message: string;
  readonly place: Place | null;
  readonly labels: readonly { readonly place: Place; readonly message: string }[];
  readonly help: string | null;
  readonly fixes: readonly FixJson[];
}

/** What serialization needs of a file. */
export interface SourceText {
  readonly bytes: Uint8Array;
  readonly lineIndex: LineIndex;
}

/** Finds a file of the compilation by its relative path. */
export type FileLookup = (path: string) => SourceText | undefined;

/** A lookup over a compilation's files (anything with `files: {path, bytes, lineIndex}[]`). */
export function fileLookup(
  compilation: {
    readonly files: readonly (SourceText & { readonly path: string })[];
    readonly rejected?: readonly (SourceText & { readonly path: string })[];
  },
): FileLookup {
  const map = new Map(
    [...(compilation.rejected ?? []), ...compilation.files].map((f) => [f.path, f]),
  );
  return (path) => map.get(path);
}

const decoder = new TextDecoder();

function placeOf(lookup: FileLookup, file: string, start: number, end: number): Place {
  const source = lookup(file);
  if (source === undefined) {
    // A file that could not be read at all: its diagnostics sit at offset 0.
    return {
      file,
      start: { offset: start, line: 1, column: start + 1 },
      end: { offset: end, line: 1, column: end + 1 },
    };
  }
  return source.lineIndex.place(file, { start, end });
}

/** A diagnostic's primary place, or null for a program-level one. */
export function primaryPlace(d: Diagnostic, lookup: FileLookup): Place | null {
  return d.file === null || d.span === null
    ? null
    : placeOf(lookup, d.file, d.span.start, d.span.end);
}

/** The docs section of a code; a code outside the table is a bug. */
function docsSectionOfCode(code: string): string {
  const section = docsSectionOf(code);
  if (section === null) throw new Error(`diagnostic code ${code} is not in the code table`);
  return section;
}

/** A diagnostic as `nazm.diagnostic/2`. */
export function serializeDiagnostic(d: Diagnostic, lookup: FileLookup): DiagnosticJson {
  return {
    schema: "nazm.diagnostic/2",
    code: d.code,
    docs_section: docsSectionOfCode(d.code),
    severity: d.severity,
    message: d.message,
    place: primaryPlace(d, lookup),
    labels: d.labels.map((l) => ({
      place: placeOf(lookup, l.file, l.span.start, l.span.end),
      message: l.message,
    })),
    help: d.help,
    fixes: d.fixes.map((f) => ({
      title: f.title,
      applicability: f.applicability,
      precondition: f.precondition,
      edits: f.edits.map((e) => {
        const bytes = lookup(e.file)?.bytes;
        return {
          place: placeOf(lookup, e.file, e.span.start, e.span.end),
          expected: bytes === undefined
            ? ""
            : decoder.decode(bytes.subarray(e.span.start, e.span.end)),
          replacement: e.replacement,
        };
      }),
    })),
  };
}

/** Every diagnostic of a compilation, in its order. */
export function serializeDiagnostics(
  compilation: {
    readonly files: readonly (SourceText & { readonly path: string })[];
    readonly diagnostics: readonly Diagnostic[];
  },
): DiagnosticJson[] {
  const lookup = fileLookup(compilation);
  return compilation.diagnostics.map((d) => serializeDiagnostic(d, lookup));
}
