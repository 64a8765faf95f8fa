/**
 * The documentation layer: the repository manifest, the documentation corpus
 * it names, and its sections with stable ids and digests. Plain functions
 * over plain data; no MCP, no compiler. The repository map (src/repo) builds
 * on the manifest and the corpus.
 *
 * @module
 */
export * from "./docs.ts";
export * from "./manifest.ts";
export {
  type Corpus,
  type CorpusDocument,
  type CorpusFailure,
  type CorpusSection,
  corpusState,
  loadCorpus,
  MAX_DOCUMENT_BYTES,
  type ReadFile,
  sectionText,
} from "./corpus.ts";
export { findHeadings, type Heading, type RawSection, slug, splitSections } from "./sections.ts";
