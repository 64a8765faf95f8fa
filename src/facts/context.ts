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
  findDefinition,
  type Focus,
  keyAt,
  type Link as ModelLink,
  type LoadedFiles,
  moduleOfKey,
  type ParsedCompilation,
} from "../semantics/mod.ts";
import { diagnosticIds } from "./diagnostic_ids.ts";
import { answer, refuse } from "../contracts/plain.ts";
import type {
  ContextInput,
  ContextPacket,
  ContextReason,
  Link,
  Outcome,
} from "../contracts/mod.ts";
import {
  compileRoot,
  type FactOptions,
  hasAnalysis,
  matchFile,
  parseRoot,
  type RootConfig,
  rootModule,
  sourceState,
  UNSUPPORTED,
} from "./source.ts";

export type ContextRequest = ContextInput;
export type ContextLink = Link;

const decoder = new TextDecoder();

/**
 * The packet for the definition at `request`, from the disk as it is now.
 * With a whole analysis at hand (the server's cache, after its first), from
 * the next one, which costs what changed since; without one, from a focus
 * on the target's module (semantics/focus.ts): the same packet, without
 * checking the bodies of modules that cannot name the target.
 */
export function semanticContext(
  config: RootConfig,
  request: ContextRequest,
  options: FactOptions = {},
): Outcome<ContextPacket, ContextReason> {
  if (hasAnalysis(options)) return contextOf(compileRoot(config, options), request);
  return focusedContext(parseRoot(config, options), request);
}

/**
 * The packet for the definition at `request` in a parsed compilation, from
 * a focus on the module of the position (and on the target's, when the
 * position names another module's definition): equal to {@link contextOf}
 * of the whole compilation.
 */
export function focusedContext(
  parsed: ParsedCompilation,
  request: ContextRequest,
): Outcome<ContextPacket, ContextReason> {
  return contextIn(parsed, request, (module) => parsed.focus([module]));
}

/** The packet for the definition at `request` in a loaded compilation. */
export function contextOf(
  compilation: Compilation,
  request: ContextRequest,
): Outcome<ContextPacket, ContextReason> {
  const whole: Facts = {
    diagnostics: compilation.diagnostics,
    get model() {
      return compilation.model;
    },
    identity: (key) => findDefinition(compilation.model, key),
  };
  return contextIn(compilation, request, () => whole);
}

/**
 * What a packet reads about a module: its definitions, its file's index
 * and diagnostics, and where any definition it links to is. A focus on the
 * module, or the whole analysis seen as one.
 */
type Facts = Focus;

/** The packet, with `factsOf` giving the facts of a module (a focus, or the whole analysis). */
function contextIn(
  compilation: LoadedFiles,
  request: ContextRequest,
  factsOf: (module: string) => Facts,
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
  const target = offset === null ? null : targetAt(file.path, file.module, offset, factsOf);
  if (target === null) {
    return refuse(
      "unavailable",
      "no_definition",
      "no function, record or enum is declared or used at that position",
      echo,
    );
  }
  return answer(packet(compilation, target.facts, target.definition));
}

/**
 * The definition a position is on: the one named there (a declaration's name
 * or a use), else the declaration that encloses it — its doc comment,
 * keywords, signature or body — so that `pub fn area` asked at column 1 is
 * `area`. Definitions do not nest, so at most one encloses an offset. With
 * the facts of its own module: a name may be another module's definition.
 */
function targetAt(
  file: string,
  module: string,
  offset: number,
  factsOf: (module: string) => Facts,
): { definition: Definition; facts: Facts } | null {
  const here = factsOf(module);
  const key = keyAt(here.model, file, offset);
  if (key !== null) {
    const owner = moduleOfKey(key);
    const facts = owner === module ? here : factsOf(owner);
    const named = findDefinition(facts.model, key);
    if (named !== null) return { definition: named, facts };
  }
  const enclosing = here.model.definitions.find((def) =>
    def.file === file && def.span.start <= offset && offset < def.span.end
  );
  return enclosing === undefined ? null : { definition: enclosing, facts: here };
}

function packet(compilation: LoadedFiles, facts: Facts, target: Definition): ContextPacket {
  const files = new Map(compilation.files.map((f) => [f.path, f]));
  const placeIn = (path: string, start: number, end: number): Place => {
    const file = files.get(path);
    if (file === undefined) throw new Error(`definition in a file that was not loaded: ${path}`);
    return file.lineIndex.place(path, { start, end });
  };
  const links = (list: readonly ModelLink[]): ContextLink[] =>
    list.map((link) => {
      const linked = facts.identity(link.key);
      if (linked === null) throw new Error(`link to an unknown definition: ${link.key}`);
      return {
        key: linked.key,
        kind: linked.kind,
        name: linked.name,
        place: placeIn(linked.file, linked.nameSpan.start, linked.nameSpan.end),
      };
    });
  const ids = diagnosticIds(facts);
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
