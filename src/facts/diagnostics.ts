/**
 * The diagnostics index, one diagnostic in full, and what
 * `nazm check` concludes (docs/architecture.md §7.32, §7.33).
 *
 * @module
 */
import { COMPILER, type Diagnostic, isSyntaxCode } from "../base/mod.ts";
import { answer, refuse } from "../contracts/plain.ts";
import type {
  CommandSummaryAnswer,
  CommandSummaryReason,
  DiagnosticAnswer,
  DiagnosticIndexAnswer,
  DiagnosticIndexReason,
  DiagnosticReason,
  FixCounts,
  Outcome,
} from "../contracts/mod.ts";
import {
  type Compilation,
  fileLookup,
  primaryPlace,
  serializeDiagnostic,
} from "../semantics/mod.ts";
import { diagnosticIds } from "./diagnostic_ids.ts";
import {
  compileRoot,
  type FactOptions,
  type RootConfig,
  rootModule,
  sourceState,
} from "./source.ts";

/** nazm.diagnostic-index/2. */
export type DiagnosticIndex = DiagnosticIndexAnswer;
/** One entry of the index. */
export type IndexEntry = DiagnosticIndex["diagnostics"][number];
/** nazm.diagnostic/2 as the server and `nazm check --json` publish it. */
export type DiagnosticDocument = DiagnosticAnswer;
/** nazm.command-summary/1. */
export type CommandSummary = CommandSummaryAnswer;
/** One diagnostic as the check summary lists it. */
export type SummaryEntry = CommandSummary["diagnostics"][number];

/** Syntax diagnostics (the code table's `syntax` group): their fixes cannot be planned as patches. */
export { isSyntaxCode };

function fixCounts(d: Diagnostic): FixCounts {
  let automatic = 0;
  for (const fix of d.fixes) if (fix.applicability === "automatic") automatic++;
  return { automatic, needs_review: d.fixes.length - automatic };
}

function owners(compilation: Compilation): Map<Diagnostic, string> {
  const owner = new Map<Diagnostic, string>();
  for (const def of compilation.model.definitions) {
    for (const d of def.diagnostics) owner.set(d, def.key);
  }
  return owner;
}

function rootUnreadable(): Outcome<never, "root_unreadable"> {
  return refuse("unavailable", "root_unreadable", "the root file cannot be read now");
}

/** Every current diagnostic that has a place, compactly: no message, help or label text. */
export function diagnosticsIndex(
  config: RootConfig,
  options: FactOptions = {},
): Outcome<DiagnosticIndex, DiagnosticIndexReason> {
  const compilation = compileRoot(config, options);
  if (compilation.rootError !== null) return rootUnreadable();
  return answer(indexOf(compilation));
}

/** The index of a loaded compilation. */
export function indexOf(compilation: Compilation): DiagnosticIndex {
  const ids = diagnosticIds(compilation);
  const owner = owners(compilation);
  const lookup = fileLookup(compilation);
  const diagnostics: IndexEntry[] = [];
  for (const d of compilation.diagnostics) {
    const id = ids.get(d);
    if (id === undefined) continue;
    const place = primaryPlace(d, lookup)!;
    diagnostics.push({
      id,
      code: d.code,
      severity: d.severity,
      file: place.file,
      start: place.start,
      end: place.end,
      owner: owner.get(d) ?? null,
      fixes: fixCounts(d),
    });
  }
  return {
    schema: "nazm.diagnostic-index/2",
    compiler: COMPILER,
    root: rootModule(compilation),
    state: { source: sourceState(compilation) },
    diagnostics,
  };
}

/** One diagnostic exactly as nazm.diagnostic/2 publishes it, with the patch request of each fix. */
export function documentOf(
  compilation: Compilation,
  d: Diagnostic,
  id: string | null,
  state: string,
): DiagnosticDocument {
  const json = serializeDiagnostic(d, fileLookup(compilation));
  return {
    ...json,
    id,
    // A fix is plannable only where nazm.semantic_patch plans it: not for a syntax
    // diagnostic, nor in a compilation that needed syntax recovery (no snapshot to bind to).
    fixes: json.fixes.map((fix, index) => ({
      ...fix,
      request: id === null || isSyntaxCode(d.code) || compilation.needsSyntaxRecovery
        ? null
        : { operation: "fix", diagnostic: id, fix: index, state },
    })),
    facts: "unavailable",
  };
}

/** Every diagnostic of a loaded compilation as nazm.diagnostic/2, in its order. */
export function documentsOf(compilation: Compilation): DiagnosticDocument[] {
  const ids = diagnosticIds(compilation);
  const state = sourceState(compilation);
  return compilation.diagnostics.map((d) => documentOf(compilation, d, ids.get(d) ?? null, state));
}

/** One diagnostic in full, by the id and state of an index. */
export function diagnosticDetail(
  config: RootConfig,
  request: { readonly id: string; readonly state: string },
  options: FactOptions = {},
): Outcome<DiagnosticDocument, DiagnosticReason> {
  const compilation = compileRoot(config, options);
  if (compilation.rootError !== null) return rootUnreadable();
  const state = sourceState(compilation);
  const echo = { id: request.id, state: request.state };
  if (request.state !== state) {
    return refuse(
      "refused",
      "stale_state",
      "the sources have changed since that state; ask nazm.diagnostics for a fresh index",
      echo,
    );
  }
  for (const [d, id] of diagnosticIds(compilation)) {
    if (id === request.id) return answer(documentOf(compilation, d, id, state));
  }
  return refuse("refused", "not_found", "no current diagnostic has that id", echo);
}

/** What `nazm check` concludes for the root now. */
export function commandSummary(
  config: RootConfig,
  options: FactOptions = {},
): Outcome<CommandSummary, CommandSummaryReason> {
  const compilation = compileRoot(config, options);
  if (compilation.rootError !== null) return rootUnreadable();
  return answer(summaryOf(compilation));
}

/** The check summary of a loaded compilation. */
export function summaryOf(compilation: Compilation): CommandSummary {
  const ids = diagnosticIds(compilation);
  const lookup = fileLookup(compilation);
  let errors = 0;
  let warnings = 0;
  const diagnostics = compilation.diagnostics.map((d): SummaryEntry => {
    if (d.severity === "error") errors++;
    else warnings++;
    return {
      code: d.code,
      severity: d.severity,
      place: primaryPlace(d, lookup),
      fixes: fixCounts(d),
      id: ids.get(d) ?? null,
    };
  });
  return {
    schema: "nazm.command-summary/1",
    command: "check",
    compiler: COMPILER,
    root: rootModule(compilation),
    status: errors > 0 ? "failed" : "ok",
    exit_status: errors > 0 ? 1 : 0,
    errors,
    warnings,
    diagnostics,
  };
}
