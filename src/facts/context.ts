/**
 * nazm.context/4: the semantic context packet of the function, record
 * or enum declared or used at a position (docs/architecture.md §7.29).
 *
 * @module
 */
import { COMPILER, type Place } from "../base/mod.ts";
import {
  type Compilation,
  type Definition,
  definitionAt,
  findDefinition,
  type Link as ModelLink,
} from "../semantics/mod.ts";
import { diagnosticIds } from "./diagnostic_ids.ts";
import {
  answer,
  type ContextInput,
  type ContextPacket,
  type ContextReason,
  type Link,
  type Outcome,
  refuse,
} from "../contracts/mod.ts";
import {
  compileRoot,
  type FactOptions,
  matchFile,
  type RootConfig,
  rootModule,
  sourceState,
  UNSUPPORTED,
} from "./source.ts";

export type ContextRequest = ContextInput;
export type ContextLink = Link;

const decoder = new TextDecoder();

/** The packet for the definition at `request`, from the disk as it is now. */
export function semanticContext(
  config: RootConfig,
  request: ContextRequest,
  options: FactOptions = {},
): Outcome<ContextPacket, ContextReason> {
  const compilation = compileRoot(config, options);
  return contextOf(compilation, request);
}

/** The packet for the definition at `request` in a loaded compilation. */
export function contextOf(
  compilation: Compilation,
  request: ContextRequest,
): Outcome<ContextPacket, ContextReason> {
  const echo = { file: request.file, position: request.position };
  if (compilation.rootError !== null) {
    return refuse("unavailable", "root_unreadable", "the root file cannot be read now", echo);
  }
  const file = matchFile(compilation, request.file);
  if (file === null) {
    return refuse(
      "unavailable",
      "file_not_in_compilation",
      "the file is not one the root's compilation loaded; no other file is read",
      echo,
    );
  }
  if (compilation.needsSyntaxRecovery) {
    return refuse(
      "unavailable",
      "syntax_recovery",
      "the compilation has syntax errors, so it has no semantic context; nazm.diagnostics lists them",
      echo,
    );
  }
  const offset = file.lineIndex.offset(request.position.line, request.position.column);
  const target = offset === null ? null : targetAt(compilation, file.path, offset);
  if (target === null) {
    return refuse(
      "unavailable",
      "no_definition",
      "no function, record or enum is declared or used at that position",
      echo,
    );
  }
  return answer(packet(compilation, target));
}

/**
 * The definition a position is on: the one named there (a declaration's name
 * or a use), else the declaration that encloses it — its doc comment,
 * keywords, signature or body — so that `pub fn area` asked at column 1 is
 * `area`. Definitions do not nest, so at most one encloses an offset.
 */
function targetAt(compilation: Compilation, file: string, offset: number): Definition | null {
  const named = definitionAt(compilation.model, file, offset);
  if (named !== null) return named;
  return compilation.model.definitions.find((def) =>
    def.file === file && def.span.start <= offset && offset < def.span.end
  ) ?? null;
}

function packet(compilation: Compilation, target: Definition): ContextPacket {
  const files = new Map(compilation.files.map((f) => [f.path, f]));
  const placeIn = (path: string, start: number, end: number): Place => {
    const file = files.get(path);
    if (file === undefined) throw new Error(`definition in a file that was not loaded: ${path}`);
    return file.lineIndex.place(path, { start, end });
  };
  const links = (list: readonly ModelLink[]): ContextLink[] =>
    list.map((link) => {
      const linked = findDefinition(compilation.model, link.key);
      if (linked === null) throw new Error(`link to an unknown definition: ${link.key}`);
      return {
        key: linked.key,
        kind: linked.kind,
        name: linked.name,
        place: placeIn(linked.file, linked.nameSpan.start, linked.nameSpan.end),
      };
    });
  const ids = diagnosticIds(compilation);
  const file = files.get(target.file)!;
  return {
    schema: "nazm.context/4",
    status: "ok",
    compiler: COMPILER,
    root: rootModule(compilation),
    state: { source: sourceState(compilation) },
    target: {
      key: target.key,
      kind: target.kind,
      name: target.name,
      module: target.module,
      exported: target.exported,
      place: placeIn(target.file, target.span.start, target.span.end),
      name_place: placeIn(target.file, target.nameSpan.start, target.nameSpan.end),
      signature: target.signature,
      doc: target.doc,
      source: decoder.decode(file.bytes.subarray(target.span.start, target.span.end)),
    },
    uses: links(target.uses),
    types: links(target.types),
    used_by: links(target.usedBy),
    calls: links(target.calls),
    called_by: links(target.calledBy),
    diagnostics: target.diagnostics.map((d) => {
      const id = ids.get(d);
      if (id === undefined || d.file === null || d.span === null) {
        throw new Error(`a definition's diagnostic is not one of the compilation's: ${d.code}`);
      }
      return {
        id,
        code: d.code,
        severity: d.severity,
        place: placeIn(d.file, d.span.start, d.span.end),
      };
    }),
    unsupported: [...UNSUPPORTED],
  };
}
