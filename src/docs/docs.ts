/**
 * The two questions the documentation answers: what sections there are
 * (`docsIndex`) and what one section says (`docsSection`). Plain data in,
 * plain data out; the CLI and the server print these objects unchanged.
 *
 * @module
 */
import { COMPILER, confinedReader, isDigest, LineIndex } from "../base/mod.ts";
import {
  answer,
  type DocsIndexAnswer,
  type DocsIndexReason,
  type DocsSectionAnswer,
  type DocsSectionReason,
  type Outcome,
  refuse,
} from "../contracts/mod.ts";
import { loadCorpus, type ReadFile, sectionText } from "./corpus.ts";

/** Options every call accepts. */
export interface DocsReadOptions {
  /** How files are read: the confined read over the docs repository unless a test wraps it. */
  readonly readFile?: ReadFile;
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
): Outcome<DocsIndexAnswer, DocsIndexReason> {
  const loaded = loadCorpus(docsRoot, options.readFile ?? confinedReader(docsRoot));
  const requested = options.document === undefined ? {} : { document: options.document };
  if (loaded.kind === "refusal") {
    return refuse("unavailable", loaded.value.reason, loaded.value.message, requested);
  }
  const corpus = loaded.value;
  const documents = options.document === undefined
    ? corpus.documents
    : corpus.documents.filter((d) => d.id === options.document);
  if (documents.length === 0) {
    return refuse(
      "refused",
      "not_found",
      `No document of the corpus has the id ${JSON.stringify(options.document)}`,
      requested,
    );
  }
  return answer({
    schema: "nazm.docs-index/1",
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
  });
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
): Outcome<DocsSectionAnswer, DocsSectionReason> {
  const echo = { id: request.id };
  if (!isDigest(request.state)) {
    return refuse(
      "refused",
      "invalid_request",
      "The state must be the 64-digit lowercase hex state of a nazm.docs_index answer",
      echo,
    );
  }
  const loaded = loadCorpus(docsRoot, request.readFile ?? confinedReader(docsRoot));
  if (loaded.kind === "refusal") {
    return refuse("unavailable", loaded.value.reason, loaded.value.message, echo);
  }
  const corpus = loaded.value;
  if (corpus.state !== request.state) {
    return refuse(
      "refused",
      "stale_state",
      "The documentation has changed since that state; ask nazm.docs_index for a fresh one",
      echo,
    );
  }
  for (const document of corpus.documents) {
    const section = document.sections.find((s) => s.id === request.id);
    if (section === undefined) continue;
    const lines = new LineIndex(document.bytes);
    return answer({
      schema: "nazm.docs-section/1",
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
    });
  }
  return refuse("refused", "not_found", "No section of the corpus has that id", echo);
}
