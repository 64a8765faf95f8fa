/**
 * Loading the documentation corpus: the manifest, then each document it
 * names, in manifest order, split into sections and digested. Nothing else
 * is opened, and nothing is kept: every call loads afresh.
 *
 * @module
 */
import { join } from "node:path";
import { blake3, blake3Framed, type ConfinedReader } from "../base/mod.ts";
import { answer, type Availability, type Outcome, refuse } from "../contracts/mod.ts";
import { type Authority, type Manifest, MANIFEST_PATH, parseManifest } from "./manifest.ts";
import { type RawSection, splitSections } from "./sections.ts";

/**
 * How the corpus reads a file: the one confined read of src/base/files.ts
 * over the docs repository (`confinedReader(docsRoot)`), or, in tests, a
 * wrapper of it that records what was asked for.
 */
export type ReadFile = ConfinedReader;

/** Documents larger than this are not read (the same limit as a source file). */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

/** One section with its digest, as the corpus holds it. */
export interface CorpusSection extends RawSection {
  /** BLAKE3 of the section's own bytes. */
  readonly digest: string;
}

export interface CorpusDocument {
  readonly id: string;
  readonly path: string;
  readonly title: string;
  readonly authority: Authority;
  readonly availability: Availability;
  /** The file's bytes; empty unless present. */
  readonly bytes: Uint8Array;
  /** BLAKE3 of the file's bytes; null unless present. */
  readonly digest: string | null;
  /** The sections, root first, in document order; empty unless present. */
  readonly sections: readonly CorpusSection[];
}

export interface Corpus {
  readonly manifest: Manifest;
  readonly manifestBytes: Uint8Array;
  readonly documents: readonly CorpusDocument[];
  /** The corpus state: see {@link corpusState}. */
  readonly state: string;
}

/** Why the corpus could not be loaded at all. */
/** Why the corpus cannot be loaded at all: only the manifest can fail it. */
export type CorpusFailure = "manifest_unavailable" | "manifest_invalid";

// ignoreBOM keeps a leading byte order mark in the text, so a text is its bytes exactly.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Loads the corpus under `docsRoot`: `nazm-repo.json`, then every document
 * it names. A document that is missing or unreadable is listed as such with
 * no sections; only the manifest's own absence or invalidity fails the load.
 */
export function loadCorpus(docsRoot: string, read: ReadFile): Outcome<Corpus, CorpusFailure> {
  const manifestBytes = read(join(docsRoot, MANIFEST_PATH), MAX_DOCUMENT_BYTES);
  if (!(manifestBytes instanceof Uint8Array)) {
    return refuse(
      "unavailable",
      "manifest_unavailable",
      manifestBytes.error === "not_found"
        ? `The docs repository has no ${MANIFEST_PATH}`
        : `The docs repository's ${MANIFEST_PATH} could not be read: ${manifestBytes.message}`,
    );
  }
  const parsed = parseManifest(manifestBytes);
  if (parsed.kind === "refusal") return parsed;
  const manifest = parsed.value;

  const documents = manifest.documents.map((entry): CorpusDocument => {
    const base = {
      id: entry.id,
      path: entry.path,
      title: entry.title,
      authority: entry.authority,
    };
    const absent = (availability: Availability): CorpusDocument => ({
      ...base,
      availability,
      bytes: new Uint8Array(0),
      digest: null,
      sections: [],
    });
    const bytes = read(join(docsRoot, entry.path), MAX_DOCUMENT_BYTES);
    if (!(bytes instanceof Uint8Array)) {
      return absent(bytes.error === "not_found" ? "missing" : bytes.error);
    }
    if (bytes.length > MAX_DOCUMENT_BYTES) return absent("too_large");
    try {
      utf8.decode(bytes);
    } catch {
      return absent("not_utf8");
    }
    const sections = splitSections(entry.id, bytes, entry.title).map((s) => ({
      ...s,
      digest: blake3(bytes.subarray(s.start, s.end)),
    }));
    return { ...base, availability: "present", bytes, digest: blake3(bytes), sections };
  });

  return answer({
    manifest,
    manifestBytes,
    documents,
    state: corpusState(manifestBytes, documents),
  });
}

/**
 * The corpus state: BLAKE3 over the length-framed sequence of the manifest's
 * bytes, then for each document in manifest order its id, its availability
 * and its bytes (empty when not present). Any edit of the manifest or of a
 * document, or a document appearing or vanishing, changes it.
 */
export function corpusState(
  manifestBytes: Uint8Array,
  documents: readonly Pick<CorpusDocument, "id" | "availability" | "bytes">[],
): string {
  const parts: (Uint8Array | string)[] = [manifestBytes];
  for (const d of documents) parts.push(d.id, d.availability, d.bytes);
  return blake3Framed(parts);
}

/** The text of a present document's section (always valid UTF-8: the document was checked). */
export function sectionText(document: CorpusDocument, section: RawSection): string {
  return utf8.decode(document.bytes.subarray(section.start, section.end));
}
