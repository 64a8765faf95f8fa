/**
 * nazm.patch/2: a planned rename or diagnostic fix, as minimal
 * exact-byte edits bound to the state they were planned on
 * (docs/architecture.md §7.31). Nothing is applied and no plan is kept.
 *
 * Three freshness layers let a client check before it applies anything:
 * `baseline.snapshot` (BLAKE3 of the canonical nazm.snapshot/4 the plan was
 * made on), each touched file's BLAKE3, and each edit's expected bytes.
 *
 * @module
 */
import { blake3, COMPILER, type Diagnostic, type Span } from "../base/mod.ts";
import {
  type Binding,
  type Compilation,
  type CompiledFile,
  type Definition,
  definitionAt,
  PRELUDE_FUNCTIONS,
  PRELUDE_TYPES,
  PRELUDE_VARIANTS,
  renameConflict,
  withArticle,
} from "../semantics/mod.ts";
import { type Import, isIdentifier, walk } from "../syntax/mod.ts";
import { diagnosticIds } from "./diagnostic_ids.ts";
import { isSyntaxCode } from "./diagnostics.ts";
import { answer, refuse } from "../contracts/plain.ts";
import type { Outcome, PatchAnswer, PatchInput, PatchReason } from "../contracts/mod.ts";
import { snapshotDigest, snapshotOf } from "./snapshot.ts";
import { type PlannedChange, spliced, type Verification, verifyPlan } from "./verify.ts";
import {
  compileRoot,
  type FactOptions,
  matchFile,
  type RootConfig,
  rootModule,
  sourceState,
} from "./source.ts";

/**
 * A nazm.semantic_patch request as its input validates it: one operation
 * with exactly that operation's fields.
 */
export type PatchRequest =
  | { readonly operation: "rename" } & Required<Pick<PatchInput, "file" | "position" | "new_name">>
  | { readonly operation: "fix" } & Required<Pick<PatchInput, "diagnostic" | "fix" | "state">>;

/** The request a validated nazm.semantic_patch input makes: its operation's fields only. */
export function patchRequestOf(input: PatchInput): PatchRequest {
  return input.operation === "rename"
    ? {
      operation: "rename",
      file: input.file!,
      position: input.position!,
      new_name: input.new_name!,
    }
    : { operation: "fix", diagnostic: input.diagnostic!, fix: input.fix!, state: input.state! };
}

/**
 * nazm.patch/2. `verification` is null only for a plan made with
 * `verify: false` (measurement, never published).
 */
export type Patch = Omit<PatchAnswer, "verification"> & {
  readonly verification: PatchAnswer["verification"] | null;
};

/** One exact-byte edit: apply it only where `expected` still is. */
export type PatchEdit = PatchAnswer["edits"][number];

interface RawEdit {
  readonly file: string;
  readonly span: Span;
  readonly replacement: string;
}

const decoder = new TextDecoder();

/** How a plan is made; never what it is. */
export interface PatchOptions extends FactOptions {
  /**
   * False plans without verifying: only to measure what verification costs
   * (bench/patch.ts). Every plan the server and the command line return is
   * verified.
   */
  readonly verify?: boolean;
}

/** Plans the requested rename or fix against the root's compilation on disk now. */
export function semanticPatch(
  config: RootConfig,
  request: PatchRequest,
  options: PatchOptions = {},
): Outcome<Patch, PatchReason> {
  return semanticPatchOf(compileRoot(config, options), request, options);
}

/** Plans the requested rename or fix against a loaded compilation. */
export function semanticPatchOf(
  compilation: Compilation,
  request: PatchRequest,
  options: PatchOptions = {},
): Outcome<Patch, PatchReason> {
  if (compilation.rootError !== null) {
    return refuse("unavailable", "root_unreadable", "the root file cannot be read now");
  }
  return request.operation === "rename"
    ? planRename(compilation, request, options)
    : planFix(compilation, request, options);
}

// ---------------------------------------------------------------- fix

function planFix(
  compilation: Compilation,
  request: Extract<PatchRequest, { operation: "fix" }>,
  options: PatchOptions,
): Outcome<Patch, PatchReason> {
  const echo = { diagnostic: request.diagnostic, fix: request.fix };
  if (request.state !== sourceState(compilation)) {
    return refuse(
      "refused",
      "stale_state",
      "the sources have changed since that state; ask nazm.diagnostics for a fresh index",
      echo,
    );
  }
  let found: Diagnostic | null = null;
  for (const [d, id] of diagnosticIds(compilation)) if (id === request.diagnostic) found = d;
  if (found === null) {
    return refuse("refused", "no_current_diagnostic", "no current diagnostic has that id", echo);
  }
  if (isSyntaxCode(found.code)) {
    return refuse(
      "refused",
      "syntax_diagnostic",
      "a syntax diagnostic's fix is not planned: its compilation has no snapshot to bind a plan to",
      echo,
    );
  }
  if (compilation.needsSyntaxRecovery) return syntaxRecovery(echo);
  const fix = found.fixes[request.fix];
  if (fix === undefined) {
    return refuse(
      "refused",
      "no_such_fix",
      `the diagnostic has ${found.fixes.length} fix(es); there is no fix ${request.fix}`,
      echo,
    );
  }
  return plan(
    compilation,
    {
      operation: "fix",
      target: {
        kind: "diagnostic",
        id: request.diagnostic,
        code: found.code,
        fix: request.fix,
        title: fix.title,
      },
      applicability: fix.applicability,
      precondition: fix.precondition,
    },
    fix.edits,
    { change: { kind: "fix", diagnostic: found }, echo, options },
  );
}

function syntaxRecovery(echo: Record<string, unknown>): Outcome<never, "syntax_recovery"> {
  return refuse(
    "unavailable",
    "syntax_recovery",
    "the compilation has syntax errors, so nothing can be planned against it; nazm.diagnostics lists them",
    echo,
  );
}

// ---------------------------------------------------------------- rename

function planRename(
  compilation: Compilation,
  request: Extract<PatchRequest, { operation: "rename" }>,
  options: PatchOptions,
): Outcome<Patch, PatchReason> {
  const echo = { file: request.file, position: request.position, new_name: request.new_name };
  const file = matchFile(compilation, request.file);
  if (file === null) {
    return refuse(
      "refused",
      "file_not_in_compilation",
      "the file is not one the root's compilation loaded; no other file is read",
      echo,
    );
  }
  if (compilation.needsSyntaxRecovery) return syntaxRecovery(echo);
  const offset = file.lineIndex.offset(request.position.line, request.position.column);
  const definition = offset === null ? null : definitionAt(compilation.model, file.path, offset);
  if (definition !== null) {
    return renameDefinition(compilation, definition, request.new_name, echo, options);
  }
  const local = offset === null ? null : localAt(compilation, file, offset);
  if (local !== null) {
    return renameLocal(compilation, local.owner, local.index, request.new_name, echo, options);
  }
  return refuse(
    "refused",
    "not_a_definition",
    "no function, record, enum, local or parameter is declared or used at that position",
    echo,
  );
}

/** What a rename names: its case rule and how a message calls it. */
type NameKind = "function" | "record" | "enum" | "type_parameter" | "local";

/** Why `name` cannot name a thing of this kind; patterns and record literals read the first letter. */
function nameProblem(name: string, current: string, kind: NameKind): string | null {
  if (name === current) return `it is already named \`${name}\``;
  if (!isIdentifier(name)) return `\`${name}\` is not an identifier, or is a keyword`;
  const first = name.charCodeAt(0);
  const isUpper = first >= 0x41 && first <= 0x5a;
  switch (kind) {
    case "type_parameter":
      return isUpper
        ? null
        : "a type parameter's name starts with an upper-case letter A–Z (`T`, `Item`)";
    case "record":
    case "enum":
      return isUpper ? null : `${withArticle(kind)}'s name starts with an upper-case letter A–Z`;
    case "function":
    case "local":
      return !isUpper
        ? null
        : `${
          kind === "function" ? "a function's" : "a value's"
        } name starts with a lower-case letter or \`_\`: an upper-case name in a pattern is a variant`;
  }
}

function renameDefinition(
  compilation: Compilation,
  def: Definition,
  newName: string,
  echo: Record<string, unknown>,
  options: PatchOptions,
): Outcome<Patch, PatchReason> {
  if (def.exported) {
    return refuse(
      "refused",
      "exported_definition",
      "an exported definition is not renamed: modules outside this root's compilation may import it",
      echo,
    );
  }
  if (def.key === `${rootModule(compilation)}::main`) {
    return refuse(
      "refused",
      "exported_definition",
      "the program's `main` is its entry point, reached from outside the compilation",
      echo,
    );
  }
  const problem = nameProblem(newName, def.name, def.kind);
  if (problem !== null) return refuse("refused", "invalid_name", problem, echo);
  const conflict = definitionConflict(compilation, def, newName);
  if (conflict !== null) return refuse("refused", "name_conflict", conflict, echo);
  const edits: RawEdit[] = [];
  for (const [path, entries] of Object.entries(compilation.model.index)) {
    const named = entries.filter((entry) => entry.key === def.key);
    if (named.length === 0) continue;
    // `Ops { step }` names the function `step` as a field's value: it becomes `Ops { step: advance }`.
    const shorthand = shorthandFields(compilation.files.find((f) => f.path === path)!, null);
    for (const entry of named) {
      const field = shorthand.has(entry.start);
      edits.push({
        file: path,
        span: entry,
        replacement: field ? `${def.name}: ${newName}` : newName,
      });
    }
  }
  const newKey = `${def.module}::${newName}`;
  return plan(
    compilation,
    {
      operation: "rename",
      target: {
        kind: "definition",
        key: def.key,
        new_key: newKey,
        name: def.name,
        new_name: newName,
      },
      applicability: "automatic",
      precondition: { kind: "none" },
    },
    edits,
    {
      change: { kind: "definition", key: def.key, newKey, name: def.name, newName },
      echo,
      options,
    },
  );
}

/**
 * Why a private definition cannot take `newName`, or null. Its module's
 * top-level names and import bindings would collide; a local of that name
 * around a reference would capture the reference; and the new top-level
 * name would capture every reference in the module that now means
 * something else by it (an import, the prelude).
 */
function definitionConflict(
  compilation: Compilation,
  def: Definition,
  newName: string,
): string | null {
  if (
    PRELUDE_TYPES.has(newName) || PRELUDE_FUNCTIONS.has(newName) || PRELUDE_VARIANTS.has(newName)
  ) {
    return `\`${newName}\` is a prelude name, which the new definition would shadow`;
  }
  const inModule = compilation.model.definitions.filter((d) => d.module === def.module);
  if (inModule.some((d) => d.name === newName)) {
    return `the module already defines \`${newName}\``;
  }
  // The first of duplicates (N0204) is what its name means: renamed, the next one would take
  // over every reference. The last one has no reference and may be renamed away.
  const ordinal = (key: string) => Number(/#(\d+)$/.exec(key)?.[1] ?? 1);
  const later = inModule.filter((d) => d.name === def.name && ordinal(d.key) > ordinal(def.key));
  if (later.length > 0) {
    // Renamed away, this one would leave its key to the next (`name#3` becomes `name#2`).
    return ordinal(def.key) === 1
      ? `\`${def.name}\` is defined more than once (N0204): rename the later definitions first, or the next one would take over its references`
      : `\`${
        later[later.length - 1].key
      }\` would be renumbered: rename the last definition of \`${def.name}\` first`;
  }
  const file = compilation.files.find((f) => f.path === def.file)!;
  for (const imp of file.parse.tree.imports) {
    if (
      imp.names?.some((n) => n.text === newName) ||
      (imp.names === null && moduleBinding(imp) === newName)
    ) {
      return `the module imports a \`${newName}\` already`;
    }
  }
  // Test bodies name definitions too, and their locals could capture a reference.
  const bodies = [...inModule, ...compilation.model.tests.filter((t) => t.module === def.module)];
  for (const d of bodies) {
    for (const outer of d.outerNames) {
      if (outer.key === def.key) {
        // A local captures a name in an expression; a type parameter, a name in a type.
        const local = d.bindings.find((b) =>
          b.name === newName && (b.kind === "type_parameter") === (outer.namespace === "type") &&
          encloses(d, b.scope, outer.scope)
        );
        if (local !== undefined) {
          const what = local.kind === "type_parameter" ? "type parameter" : "local";
          return `a ${what} \`${newName}\` in \`${d.name}\` would capture a reference to \`${def.name}\``;
        }
      } else if (outer.name === newName) {
        return `\`${d.name}\` refers to another \`${newName}\`, which the renamed definition would capture`;
      }
    }
  }
  return null;
}

/** The name `import a.b` (`b`) or `import a.b as x` (`x`) binds. */
function moduleBinding(imp: Import): string | undefined {
  return imp.alias?.text ?? imp.path[imp.path.length - 1]?.text;
}

function encloses(def: Pick<Definition, "scopes">, outer: number, inner: number): boolean {
  for (let s: number | null = inner; s !== null; s = def.scopes[s]?.parent ?? null) {
    if (s === outer) return true;
  }
  return false;
}

function contains(span: Span, offset: number): boolean {
  return span.start <= offset && offset <= span.end;
}

function localAt(
  compilation: Compilation,
  file: CompiledFile,
  offset: number,
): { owner: Definition; index: number } | null {
  for (const owner of compilation.model.definitions) {
    if (owner.file !== file.path || !contains(owner.span, offset)) continue;
    const index = owner.bindings.findIndex((b: Binding) =>
      contains(b.declSpan, offset) || b.references.some((r) => contains(r.span, offset))
    );
    if (index >= 0) return { owner, index };
  }
  return null;
}

function renameLocal(
  compilation: Compilation,
  owner: Definition,
  index: number,
  newName: string,
  echo: Record<string, unknown>,
  options: PatchOptions,
): Outcome<Patch, PatchReason> {
  const binding = owner.bindings[index];
  const kind = binding.kind === "type_parameter" ? "type_parameter" : "local";
  const problem = nameProblem(newName, binding.name, kind);
  if (problem !== null) return refuse("refused", "invalid_name", problem, echo);
  if (
    PRELUDE_FUNCTIONS.has(newName) || PRELUDE_VARIANTS.has(newName) || PRELUDE_TYPES.has(newName)
  ) {
    return refuse(
      "refused",
      "name_conflict",
      `\`${newName}\` is a prelude name, which the local would shadow`,
      echo,
    );
  }
  const conflict = renameConflict(owner, index, newName);
  if (conflict !== null) return refuse("refused", "name_conflict", conflict, echo);
  // `Point { x }` means `Point { x: x }`: renaming the local x keeps the field name.
  const shorthand = shorthandFields(
    compilation.files.find((f) => f.path === owner.file)!,
    owner.span,
  );
  const edits: RawEdit[] = [{ file: owner.file, span: binding.declSpan, replacement: newName }];
  for (const reference of binding.references) {
    const field = shorthand.has(reference.span.start);
    edits.push({
      file: owner.file,
      span: reference.span,
      replacement: field ? `${binding.name}: ${newName}` : newName,
    });
  }
  return plan(
    compilation,
    {
      operation: "rename",
      target: { kind: "local", owner: owner.key, name: binding.name, new_name: newName },
      applicability: "automatic",
      precondition: { kind: "none" },
    },
    edits,
    { change: { kind: "local", owner: owner.key, name: binding.name }, echo, options },
  );
}

/** The start of every record field shorthand's name (`Point { x }`) in a file, or within a span of it. */
function shorthandFields(file: CompiledFile, within: Span | null): Set<number> {
  const starts = new Set<number>();
  walk(file.parse.tree, (node) => {
    if (within !== null && (node.end < within.start || node.start > within.end)) return false;
    if (node.kind === "FieldInit" && node.value === null) starts.add(node.name.start);
    return true;
  });
  return starts;
}

// ---------------------------------------------------------------- the plan

/** What a plan is verified against, and what a refusal echoes. */
interface Checking {
  readonly change: PlannedChange;
  readonly echo: Record<string, unknown>;
  readonly options: PatchOptions;
}

/**
 * The plan of `raw` edits: sorted, identical ones once, each with its
 * expected bytes and places; then verified (verify.ts) — a plan that would
 * break the program or change its meaning is refused with the first thing
 * it would break or change.
 */
function plan(
  compilation: Compilation,
  head: Pick<Patch, "operation" | "target" | "applicability" | "precondition">,
  raw: readonly RawEdit[],
  checking: Checking,
): Outcome<Patch, PatchReason> {
  const files = new Map(compilation.files.map((f) => [f.path, f]));
  const sorted = [...raw].sort((a, b) =>
    a.file < b.file
      ? -1
      : a.file > b.file
      ? 1
      : a.span.start - b.span.start || a.span.end - b.span.end
  );
  const kept: RawEdit[] = [];
  const edits: PatchEdit[] = [];
  for (const edit of sorted) {
    const file = files.get(edit.file);
    if (file === undefined) throw new Error(`an edit in a file that was not loaded: ${edit.file}`);
    const previous = kept[kept.length - 1];
    if (
      previous !== undefined && previous.file === edit.file && previous.span.end > edit.span.start
    ) {
      if (
        previous.span.start === edit.span.start && previous.span.end === edit.span.end &&
        previous.replacement === edit.replacement
      ) {
        continue;
      }
      throw new Error(`overlapping edits in ${edit.file} at ${edit.span.start}`);
    }
    kept.push(edit);
    const place = file.lineIndex.place(edit.file, edit.span);
    edits.push({
      file: edit.file,
      start: place.start,
      end: place.end,
      expected: decoder.decode(file.bytes.subarray(edit.span.start, edit.span.end)),
      replacement: edit.replacement,
    });
  }
  let verification: Verification | null = null;
  if (checking.options.verify !== false) {
    const verdict = verifyPlan(compilation, checking.change, kept, checking.options);
    if (!verdict.ok) {
      const { reason, message, problem } = verdict.problem;
      return refuse("refused", reason, message, { ...checking.echo, problem });
    }
    verification = verdict.verification;
  }
  const touched = [...new Set(edits.map((e) => e.file))].sort();
  return answer({
    schema: "nazm.patch/2",
    compiler: COMPILER,
    root: rootModule(compilation),
    ...head,
    baseline: { snapshot: snapshotDigest(snapshotOf(compilation)) },
    files: touched.map((path) => ({ file: path, digest: files.get(path)!.digest })),
    edits,
    verification,
  });
}

/** What a client holds when it applies a plan: the files as they are now, and the snapshot. */
export interface PatchSubject {
  /** The bytes of a file of the compilation, by its relative path. */
  read(file: string): Uint8Array;
  /** BLAKE3 of the canonical snapshot of the compilation now (its `snapshotDigest`). */
  readonly snapshot: string;
}

/**
 * Applies a patch's edits to file contents in memory after the three
 * freshness checks a careful client makes, in order: the snapshot the plan
 * was made on (`baseline.snapshot`), each touched file's digest, and every
 * edit's expected bytes. Returns the new contents of the touched files, or
 * the first check that failed.
 */
export function applyPatch(
  patch: Patch,
  subject: PatchSubject,
): Map<string, Uint8Array> | string {
  if (patch.baseline.snapshot !== subject.snapshot) {
    return "the program has changed since the plan: its snapshot is not baseline.snapshot";
  }
  const out = new Map<string, Uint8Array>();
  for (const { file, digest } of patch.files) {
    const bytes = subject.read(file);
    if (blake3(bytes) !== digest) return `${file} has changed since the plan`;
    const edited = editedBytes(bytes, patch.edits.filter((e) => e.file === file));
    if (edited === null) return `${file}: the bytes of an edit are not the expected ones`;
    out.set(file, edited);
  }
  return out;
}

/** The bytes with the edits (sorted, not overlapping) applied; null where one's `expected` is not there. */
function editedBytes(bytes: Uint8Array, edits: readonly PatchEdit[]): Uint8Array | null {
  let at = 0;
  for (const edit of edits) {
    const expected = decoder.decode(bytes.subarray(edit.start.offset, edit.end.offset));
    if (expected !== edit.expected || edit.start.offset < at) return null;
    at = edit.end.offset;
  }
  return spliced(
    bytes,
    edits.map((e) => ({
      file: e.file,
      span: { start: e.start.offset, end: e.end.offset },
      replacement: e.replacement,
    })),
  );
}
