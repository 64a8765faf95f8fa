/**
 * The two questions the documentation answers: what sections there are
 * (`docsIndex`) and what one section says (`docsSection`). Plain data in,
 * plain data out; the CLI and the server print these objects unchanged.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { COMPILER, confinedReader, isDigest, LineIndex, type Position } from "../base/mod.ts";
import type { Authority } from "./manifest.ts";
import {
  type Availability,
  type Corpus,
  loadCorpus,
  type ReadFile,
  sectionText,
} from "./corpus.ts";

export const DOCS_INDEX_SCHEMA = "nazm.docs-index/1";
export const DOCS_SECTION_SCHEMA = "nazm.docs-section/1";

/** One section as the index lists it: no text. */
export interface DocsIndexSection {
  readonly id: string;
  readonly title: string;
  readonly parent: string | null;
  readonly level: number;
  /** BLAKE3 of the section's own text. */
  readonly digest: string;
  /** Length of the section's own text in bytes. */
  readonly bytes: number;
}

export interface DocsIndexDocument {
  readonly id: string;
  readonly title: string;
  readonly path: string;
  readonly authority: Authority;
  readonly availability: Availability;
  readonly digest: string | null;
  readonly bytes: number;
  readonly sections: readonly DocsIndexSection[];
}

export interface DocsIndex {
  readonly schema: typeof DOCS_INDEX_SCHEMA;
  readonly compiler: string;
  readonly state: string;
  readonly documents: readonly DocsIndexDocument[];
}

export interface DocsSection {
  readonly schema: typeof DOCS_SECTION_SCHEMA;
  readonly compiler: string;
  readonly id: string;
  readonly document: string;
  readonly authority: Authority;
  readonly title: string;
  readonly parent: string | null;
  readonly level: number;
  /** Where the text lies in its file; `file` is relative to the docs repository. */
  readonly place: { readonly file: string; readonly start: Position; readonly end: Position };
  /** The section's own text, byte for byte. */
  readonly text: string;
  readonly digest: string;
  readonly state: string;
}

export type DocsIndexReason = "not_found" | "manifest_unavailable" | "manifest_invalid";
export type DocsSectionReason =
  | "stale_state"
  | "not_found"
  | "invalid_request"
  | "manifest_unavailable"
  | "manifest_invalid";

/** A well-formed request that cannot be answered. */
export type DocsRefusal<R extends string> = {
  readonly status: "refused" | "unavailable";
  readonly reason: R;
  readonly message: string;
};

export type DocsIndexRefusal = DocsRefusal<DocsIndexReason> & {
  readonly document?: string;
};
export type DocsSectionRefusal = DocsRefusal<DocsSectionReason> & {
  readonly id: string;
};

/** Options every call accepts. */
export interface DocsReadOptions {
  /** How files are read: the confined read over the docs repository unless a test wraps it. */
  readonly readFile?: ReadFile;
}

/**
 * The docs repository this program was built from: the folder holding
 * `nazm-repo.json`, two levels above this module. In a compiled binary it is
 * the embedded copy, read through the same code.
 */
export function defaultDocsRoot(): string {
  return fileURLToPath(new URL("../../", import.meta.url));
}

/**
 * Every document of the corpus with its authority and every section's id,
 * title, parent, level and digest, and the corpus state; with `document`, only
 * that document (the state is still the whole corpus's). An unknown document
 * is `not_found`.
 */
export function docsIndex(
  docsRoot: string,
  options: { readonly document?: string } & DocsReadOptions = {},
): DocsIndex | DocsIndexRefusal {
  const corpus = loadCorpus(docsRoot, options.readFile ?? confinedReader(docsRoot));
  const requested = options.document === undefined ? {} : { document: options.document };
  if ("reason" in corpus) {
    return {
      status: "unavailable",
      reason: corpus.reason,
      message: corpus.message,
      ...requested,
    };
  }
  const documents = options.document === undefined
    ? corpus.documents
    : corpus.documents.filter((d) => d.id === options.document);
  if (documents.length === 0) {
    return {
      status: "refused",
      reason: "not_found",
      message: `No document of the corpus has the id ${JSON.stringify(options.document)}`,
      ...requested,
    };
  }
  return {
    schema: DOCS_INDEX_SCHEMA,
    compiler: COMPILER,
    state: corpus.state,
    documents: documents.map((d) => ({
      id: d.id,
      title: d.title,
      path: d.path,
      authority: d.authority,
      availability: d.availability,
      digest: d.digest,
      bytes: d.bytes.length,
      sections: d.sections.map((s) => ({
        id: s.id,
        title: s.title,
        parent: s.parent,
        level: s.level,
        digest: s.digest,
        bytes: s.end - s.start,
      })),
    })),
  };
}

/**
 * One section's own text, byte for byte, with its document's authority, for
 * an exact id and the state an index gave. The state is checked first: a
 * state the corpus no longer has is `stale_state`. An id no section has is
 * `not_found`, never the nearest one; an id is never a path, and nothing is
 * opened for it.
 */
export function docsSection(
  docsRoot: string,
  request: { readonly id: string; readonly state: string } & DocsReadOptions,
): DocsSection | DocsSectionRefusal {
  const refuse = (
    status: "refused" | "unavailable",
    reason: DocsSectionReason,
    message: string,
  ): DocsSectionRefusal => ({
    status,
    reason,
    message,
    id: request.id,
  });
  if (!isDigest(request.state)) {
    return refuse(
      "refused",
      "invalid_request",
      "The state must be the 64-digit lowercase hex state of a nazm.docs_index answer",
    );
  }
  const corpus: Corpus | { reason: "manifest_unavailable" | "manifest_invalid"; message: string } =
    loadCorpus(docsRoot, request.readFile ?? confinedReader(docsRoot));
  if ("reason" in corpus) return refuse("unavailable", corpus.reason, corpus.message);
  if (corpus.state !== request.state) {
    return refuse(
      "refused",
      "stale_state",
      "The documentation has changed since that state; ask nazm.docs_index for a fresh one",
    );
  }
  for (const document of corpus.documents) {
    const section = document.sections.find((s) => s.id === request.id);
    if (section === undefined) continue;
    const lines = new LineIndex(document.bytes);
    return {
      schema: DOCS_SECTION_SCHEMA,
      compiler: COMPILER,
      id: section.id,
      document: document.id,
      authority: document.authority,
      title: section.title,
      parent: section.parent,
      level: section.level,
      place: {
        file: document.path,
        start: lines.position(section.start),
        end: lines.position(section.end),
      },
      text: sectionText(document, section),
      digest: section.digest,
      state: corpus.state,
    };
  }
  return refuse("refused", "not_found", "No section of the corpus has that id");
}
