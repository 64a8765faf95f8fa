/**
 * The facts layer: one module per published fact, each a plain function of
 * the root's compilation on disk now, returning an answer or a refusal as
 * plain data. src/mcp and src/cli both call these, so the server and the
 * command line say the same thing by construction.
 *
 * @module
 */
export { answer, type Outcome, type Refusal, refuse } from "../contracts/plain.ts";
export {
  compileEdited,
  compileRoot,
  type FactCache,
  type FactOptions,
  matchFile,
  newFactCache,
  parseRoot,
  pruneFactCache,
  type RootConfig,
  type RootIdentity,
  rootIdentity,
  rootModule,
  sourceState,
  UNSUPPORTED,
} from "./source.ts";
export { diagnosticIds } from "./diagnostic_ids.ts";
export {
  type ContextLink,
  contextOf,
  type ContextRequest,
  focusedContext,
  semanticContext,
} from "./context.ts";
export {
  type BaselineProblem,
  baselineSize,
  checkBaseline,
  deltaBetween,
  MAX_BASELINE_BYTES,
  MAX_BASELINE_DEPTH,
  MAX_BASELINE_VALUES,
  readBaseline,
  refuseBaseline,
  semanticDelta,
  semanticSnapshot,
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
  patchRequestOf,
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
