/**
 * The facts layer: one module per published fact, each a plain function of
 * the root's compilation on disk now, returning an answer or a refusal as
 * plain data. src/mcp and src/cli both call these, so the server and the
 * command line say the same thing by construction.
 *
 * @module
 */
export { answer, type Outcome, refuse, type Refused } from "./outcome.ts";
export {
  compileEdited,
  compileRoot,
  type FactCache,
  type FactOptions,
  matchFile,
  newFactCache,
  type RootConfig,
  type RootIdentity,
  rootIdentity,
  rootModule,
  sourceState,
  UNSUPPORTED,
} from "./source.ts";
export { diagnosticIds } from "./diagnostic_ids.ts";
/** The pattern of every definition key (`module.path::name`, `#2` after a duplicate's name). */
export { DEFINITION_KEY } from "../semantics/mod.ts";
export {
  type ContextLink,
  contextOf,
  type ContextPacket,
  type ContextRequest,
  semanticContext,
} from "./context.ts";
export {
  BASELINE_PROBLEMS,
  type BaselineProblem,
  baselineSize,
  checkBaseline,
  type Delta,
  deltaBetween,
  MAX_BASELINE_BYTES,
  MAX_BASELINE_DEPTH,
  MAX_BASELINE_VALUES,
  readBaseline,
  refuseBaseline,
  type SectionName,
  SECTIONS,
  semanticDelta,
  semanticSnapshot,
  type Snapshot,
  snapshotDigest,
  snapshotOf,
} from "./snapshot.ts";
export {
  type CommandSummary,
  commandSummary,
  diagnosticDetail,
  type DiagnosticDocument,
  type DiagnosticIndex,
  diagnosticsIndex,
  documentOf,
  documentsOf,
  type FixCounts,
  type FixRequest,
  type IndexEntry,
  indexOf,
  isSyntaxCode,
  type SummaryEntry,
  summaryOf,
} from "./diagnostics.ts";
export {
  applyPatch,
  type Patch,
  type PatchEdit,
  type PatchOptions,
  type PatchRequest,
  type PatchSubject,
  semanticPatch,
  semanticPatchOf,
} from "./patch.ts";
export {
  type PlannedChange,
  type PlannedEdit,
  type Resolution,
  type Verdict,
  type Verification,
  verifyPlan,
  type VerifyProblem,
} from "./verify.ts";
