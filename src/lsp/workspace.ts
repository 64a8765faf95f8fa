/**
 * What the server knows between messages: the workspace and compilation
 * roots, the open buffers, and the analysis of the buffers over the disk as
 * they were at its generation. An analysis is made when it is needed (a
 * request, or the debounced diagnostics after edits) and kept until the next
 * edit; it is a plain function of the buffers and the disk, so a request
 * answered from it says what a fresh analysis would.
 *
 * @module
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver/node";
import type { Diagnostic } from "../base/mod.ts";
import {
  diagnosticIds,
  type FactCache,
  newFactCache,
  type RootConfig,
  sourceState,
} from "../facts/mod.ts";
import type { Compilation, CompiledFile, Resolutions } from "../semantics/mod.ts";
import { parse, type ParseResult } from "../syntax/mod.ts";
import { compileSources } from "./sources.ts";
import { TextMap } from "./text.ts";

const encoder = new TextEncoder();

/** A buffer past this size is not parsed outside the compilation either (the loader's limit). */
export const MAX_BUFFER_BYTES = 8 * 1024 * 1024;

/** One analysis of the compilation: the buffers over the disk at one generation. */
export class Analysis {
  readonly #maps = new Map<string, TextMap>();
  readonly #files: Map<string, CompiledFile>;
  #ids: Map<Diagnostic, string> | null = null;
  #state: string | null = null;
  #resolved: Compilation | null = null;
  readonly #resolutions = new Map<string, Resolutions | null>();

  /**
   * `resolve` makes the same sources' compilation with the checker's
   * resolutions, by a whole analysis: what {@link resolutionsOf} falls back
   * to once the engine has moved past this analysis. Made once, on the
   * first such request, so that typing pays for the incremental analysis
   * alone.
   */
  constructor(
    readonly compilation: Compilation,
    readonly generation: number,
    private readonly resolve: () => Compilation,
  ) {
    this.#files = new Map(compilation.files.map((f) => [f.path, f]));
  }

  /**
   * The checker's resolutions for the nodes of a file of the compilation
   * (inferred types, what a name or member denotes): its module checked
   * again alone while this is the engine's last analysis, else the whole
   * analysis of {@link resolve}. Kept per module for this analysis.
   */
  resolutionsOf(path: string): Resolutions | null {
    const file = this.#files.get(path);
    if (file === undefined) return null;
    let found = this.#resolutions.get(file.module);
    if (found === undefined) {
      found = this.#resolved === null ? this.compilation.resolutionsOf(file.module) : null;
      if (found === null) {
        this.#resolved ??= this.resolve();
        found = this.#resolved.checked?.resolutions ?? null;
      }
      this.#resolutions.set(file.module, found);
    }
    return found;
  }

  file(path: string): CompiledFile | undefined {
    return this.#files.get(path);
  }

  /** Positions in any file the compilation read (parsed or rejected). */
  textOf(path: string): TextMap | null {
    const cached = this.#maps.get(path);
    if (cached !== undefined) return cached;
    const file = this.#files.get(path) ?? this.compilation.rejected.find((f) => f.path === path);
    if (file === undefined) return null;
    const map = new TextMap(file.bytes, file.lineIndex);
    this.#maps.set(path, map);
    return map;
  }

  /** The diagnostic ids nazm-mcp publishes, for the fix plans of code actions. */
  get ids(): Map<Diagnostic, string> {
    return this.#ids ??= diagnosticIds(this.compilation);
  }

  /** `state.source`: what a fix plan is bound to. */
  get state(): string {
    return this.#state ??= sourceState(this.compilation);
  }
}

/** An open buffer outside the compilation: answered from its syntax alone. */
export interface SyntaxOnly {
  readonly map: TextMap;
  /** Null when the buffer is over {@link MAX_BUFFER_BYTES}: then not parsed at all. */
  readonly parse: ParseResult | null;
}

/** Where a document is, for the compiler. */
export type Located =
  | { readonly kind: "compiled"; readonly path: string; readonly analysis: Analysis }
  | { readonly kind: "syntax"; readonly uri: string; readonly syntax: SyntaxOnly };

/** The positions of a located document's text, as its answers read it. */
export function textMapOf(located: Located): TextMap {
  return located.kind === "compiled" ? located.analysis.textOf(located.path)! : located.syntax.map;
}

export class Workspace {
  readonly folder: string;
  /** Null when the folder has no compilation root: every file is answered from syntax alone. */
  readonly config: RootConfig | null;
  readonly #documents = new Map<string, TextDocument>();
  readonly #buffers = new Map<string, Uint8Array>();
  /** The client's URI of each open buffer of the compilation, by absolute path. */
  readonly #openUris = new Map<string, string>();
  readonly #syntax = new Map<string, { version: number; syntax: SyntaxOnly }>();
  readonly #cache: FactCache = newFactCache();
  #generation = 0;
  #analysis: Analysis | null = null;

  /**
   * Why the folder has no compilation, in words for the client; null when it has one. A root
   * named in initializationOptions that is not a file is said at once: silently answering from
   * syntax alone would look like a program without errors.
   */
  readonly problem: string | null;

  /**
   * `folder`: the folder the client opened; `rootOption`: the compilation
   * root named in initializationOptions, absolute or relative to it
   * (default `main.nz` there).
   */
  constructor(folder: string, rootOption: string | null) {
    this.folder = realOrResolved(folder);
    const root = resolve(this.folder, rootOption ?? "main.nz");
    if (isFile(root)) {
      const real = realOrResolved(root);
      this.config = { root: real, sourceRoot: join(real, "..") };
      this.problem = null;
    } else {
      this.config = null;
      this.problem = rootOption === null
        ? `${root} does not exist: every file is answered from its syntax alone`
        : `the root named in initializationOptions, ${root}, is not a file: every file is answered from its syntax alone`;
    }
  }

  get generation(): number {
    return this.#generation;
  }

  /** The absolute path a file URI names (through links as the client wrote it), or null. */
  pathOf(uri: string): string | null {
    if (!uri.startsWith("file:")) return null;
    try {
      return fileURLToPath(uri);
    } catch {
      return null;
    }
  }

  /** The source-root-relative path of a URI, when it lies under the source root. */
  relativeOf(uri: string): string | null {
    const path = this.pathOf(uri);
    if (path === null || this.config === null) return null;
    for (const candidate of [path, realOrResolved(path)]) {
      const rel = relative(this.config.sourceRoot, candidate);
      if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/");
    }
    return null;
  }

  /**
   * The URI of a source-root-relative path: the client's own URI when the
   * file is open (clients encode URIs differently, and match them as text).
   */
  uriOf(path: string): string {
    const abs = join(this.config!.sourceRoot, path);
    return this.#openUris.get(abs) ?? pathToFileURL(abs).href;
  }

  document(uri: string): TextDocument | undefined {
    return this.#documents.get(uri);
  }

  openDocuments(): readonly TextDocument[] {
    return [...this.#documents.values()];
  }

  open(uri: string, languageId: string, version: number, text: string): void {
    this.#documents.set(uri, TextDocument.create(uri, languageId, version, text));
    this.#changed(uri);
  }

  /** False when the document was never opened: the notification is ignored. */
  change(
    uri: string,
    version: number,
    changes: readonly TextDocumentContentChangeEvent[],
  ): boolean {
    const document = this.#documents.get(uri);
    if (document === undefined) return false;
    this.#documents.set(uri, TextDocument.update(document, [...changes], version));
    this.#changed(uri);
    return true;
  }

  close(uri: string): boolean {
    if (!this.#documents.delete(uri)) return false;
    this.#syntax.delete(uri);
    this.#changed(uri);
    return true;
  }

  /** The disk changed under the workspace (a watched file, a save). */
  diskChanged(): void {
    this.#generation++;
    this.#analysis = null;
  }

  #changed(uri: string): void {
    const rel = this.relativeOf(uri);
    if (rel !== null) {
      const abs = join(this.config!.sourceRoot, rel);
      const document = this.#documents.get(uri);
      if (document === undefined) {
        this.#buffers.delete(abs);
        this.#openUris.delete(abs);
      } else {
        this.#buffers.set(abs, encoder.encode(document.getText()));
        this.#openUris.set(abs, uri);
      }
    }
    this.#generation++;
    this.#analysis = null;
  }

  /** True when an analysis of the current buffers exists already. */
  get fresh(): boolean {
    return this.#analysis !== null;
  }

  /** The analysis of the current buffers over the disk, made now if there is none. */
  analysis(): Analysis | null {
    if (this.config === null) return null;
    if (this.#analysis === null) {
      const config = this.config;
      const buffers = new Map(this.#buffers);
      const compilation = compileSources(config, buffers, this.#cache, false);
      this.#analysis = new Analysis(
        compilation,
        this.#generation,
        () => compileSources(config, buffers, this.#cache, true),
      );
    }
    return this.#analysis;
  }

  /** Where a document is answered from: the compilation, or its own syntax. Null: unknown. */
  locate(uri: string): Located | null {
    const rel = this.relativeOf(uri);
    if (rel !== null) {
      const analysis = this.analysis();
      // A file the compilation refused (too large, not UTF-8) has no syntax tree: its buffer's own.
      if (analysis !== null && analysis.file(rel) !== undefined) {
        return { kind: "compiled", path: rel, analysis };
      }
    }
    const syntax = this.syntaxOnly(uri);
    return syntax === null ? null : { kind: "syntax", uri, syntax };
  }

  /** An open buffer's own syntax, parsed once per version. */
  syntaxOnly(uri: string): SyntaxOnly | null {
    const document = this.#documents.get(uri);
    if (document === undefined) return null;
    const kept = this.#syntax.get(uri);
    if (kept !== undefined && kept.version === document.version) return kept.syntax;
    const map = TextMap.of(document.getText());
    const syntax: SyntaxOnly = {
      map,
      parse: map.bytes.length > MAX_BUFFER_BYTES ? null : parse(map.bytes, uri),
    };
    this.#syntax.set(uri, { version: document.version, syntax });
    return syntax;
  }
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
