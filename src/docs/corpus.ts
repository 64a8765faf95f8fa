/**
 * Loading the documentation corpus: the manifest, then each document it
 * names, in manifest order, split into sections and digested. Nothing else
 * is opened, and nothing is kept: every call loads afresh.
 *
 * @module
 */
import { join } from "node:path";
import { blake3, blake3Framed, isWithin } from "../base/mod.ts";
import { type Authority, type Manifest, MANIFEST_PATH, parseManifest } from "./manifest.ts";
import { type RawSection, splitSections } from "./sections.ts";

/** Reads a whole file synchronously; throws as `Deno.readFileSync` does. */
export type ReadFile = (path: string) => Uint8Array;

/** Documents larger than this are not split (the same limit as a source file). */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

/** Whether a document named by the manifest could be read as UTF-8 text. */
export type Availability = "present" | "missing" | "unreadable" | "not_utf8" | "too_large";

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
export interface CorpusFailure {
  readonly reason: "manifest_unavailable" | "manifest_invalid";
  readonly message: string;
}

// ignoreBOM keeps a leading byte order mark in the text, so a text is its bytes exactly.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Loads the corpus under `docsRoot`: `nazm-repo.json`, then every document
 * it names. A document that is missing or unreadable is listed as such with
 * no sections; only the manifest's own absence or invalidity fails the load.
 */
export function loadCorpus(docsRoot: string, readFile: ReadFile): Corpus | CorpusFailure {
  const read = confine(docsRoot, readFile);
  let manifestBytes: Uint8Array;
  try {
    manifestBytes = read(join(docsRoot, MANIFEST_PATH));
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound;
    return {
      reason: "manifest_unavailable",
      message: missing
        ? `The docs repository has no ${MANIFEST_PATH}`
        : `The docs repository's ${MANIFEST_PATH} could not be read`,
    };
  }
  const parsed = parseManifest(manifestBytes);
  if ("error" in parsed) return { reason: "manifest_invalid", message: parsed.error };
  const manifest = parsed.manifest;

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
    let bytes: Uint8Array;
    try {
      bytes = read(join(docsRoot, entry.path));
    } catch (error) {
      return absent(error instanceof Deno.errors.NotFound ? "missing" : "unreadable");
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

  return { manifest, manifestBytes, documents, state: corpusState(manifestBytes, documents) };
}

/**
 * A reader that refuses any path whose real location (symbolic links
 * resolved) is not inside `root`'s real location, without opening it.
 * Deno's read permission checks the path as given, not where a symbolic link
 * leads (measured on 2.9.6: a worker allowed only a folder still reads
 * /etc/hostname through a link inside it), so the check is made here. A
 * path that does not exist throws `NotFound`; one outside, `PermissionDenied`.
 */
export function confine(root: string, read: ReadFile): ReadFile {
  let realRoot: string | null = null;
  return (path: string) => {
    realRoot ??= Deno.realPathSync(root);
    const real = Deno.realPathSync(path);
    if (real === realRoot || !isWithin(realRoot, real)) {
      throw new Deno.errors.PermissionDenied(`${path} resolves outside ${root}`);
    }
    return read(path);
  };
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
