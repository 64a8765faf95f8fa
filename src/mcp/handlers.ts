/**
 * What each tool does, by name: the analysis worker's half of the registry.
 * registry.ts holds the other half, the main thread's: names, descriptions
 * and the zod shapes the main thread checks every call's arguments with
 * before it sends them here, so a handler takes them as they come.
 *
 * Why two halves. zod and the schemas declared with it took a cold worker
 * some 100 ms to load and evaluate before the first answer could start
 * (bench/README.md, "mcp"), and the worker never validates: this module
 * reaches the contracts with `import type` alone, and the facts through
 * facts/mod.ts, which loads no zod. The documentation and repository tools
 * read a manifest that zod validates (docs/manifest.ts), so their layers
 * load apart, while the worker starts ({@link preloadLayers}), not before
 * the modules every fact needs.
 *
 * @module
 */
import type { z } from "zod";
import type {
  CommandSummaryInput,
  ContextInput,
  DeltaInput,
  DiagnosticDetailInput,
  DiagnosticsInput,
  DocsIndexInput,
  DocsSectionInput,
  PatchInput,
  RepositoryMapInput,
  SnapshotInput,
  TaskContextInput,
} from "../contracts/mod.ts";
import {
  commandSummary,
  diagnosticDetail,
  diagnosticsIndex,
  patchRequestOf,
  readBaseline,
  semanticContext,
  semanticDelta,
  semanticPatch,
  semanticSnapshot,
} from "../facts/mod.ts";
import type { ToolContext, ToolHandler, ToolOutcome } from "./types.ts";

let docsLayer: Promise<typeof import("../docs/mod.ts")> | undefined;
let repoLayer: Promise<typeof import("../repo/mod.ts")> | undefined;
/** The documentation layer, loaded once, by {@link preloadLayers} or its tools' first call. */
const docs = () => docsLayer ??= import("../docs/mod.ts");
/** The repository layer, loaded once, likewise. */
const repo = () => repoLayer ??= import("../repo/mod.ts");

/**
 * Loads the documentation and repository layers ahead of their tools' first
 * call: worker.ts does it at its start, and says it is ready once they are
 * loaded, since a worker may load no module once the process's read
 * permission is revoked (worker_host.ts). A layer that cannot load rejects
 * here (the worker fails loudly: a broken build) and at each of its tools'
 * calls.
 */
export function preloadLayers(): Promise<unknown> {
  return Promise.all([docs(), repo()]);
}

/** A handler of the arguments a tool's input shape gives (`z.output`). */
function handle<Input extends z.ZodType>(
  run: (args: z.output<Input>, context: ToolContext) => ToolOutcome | Promise<ToolOutcome>,
): ToolHandler {
  return run as ToolHandler;
}

/** Every tool's handler, by the tool's name (registry.ts `TOOLS`, the same names). */
export const HANDLERS: Readonly<Record<string, ToolHandler>> = Object.freeze({
  "nazm.semantic_context": handle<typeof ContextInput>((args, { paths, facts }) =>
    semanticContext(paths, args, facts)
  ),
  "nazm.semantic_snapshot": handle<typeof SnapshotInput>((_args, { paths, facts }) =>
    semanticSnapshot(paths, facts)
  ),
  "nazm.semantic_delta": handle<typeof DeltaInput>((args, { paths, facts }) => {
    // Over stdio the baseline arrives as the bytes of its JSON text, cut out
    // of the message unparsed (src/mcp/transport.ts), and is read exactly as
    // `nazm delta` reads a file; a caller in this process may pass the object.
    if (args.baseline instanceof Uint8Array) {
      const read = readBaseline(args.baseline);
      return read.kind === "refusal" ? read : semanticDelta(paths, read.value, facts);
    }
    return semanticDelta(paths, args.baseline, facts);
  }),
  "nazm.semantic_patch": handle<typeof PatchInput>((args, { paths, facts }) =>
    semanticPatch(paths, patchRequestOf(args), facts)
  ),
  "nazm.diagnostics": handle<typeof DiagnosticsInput>((_args, { paths, facts }) =>
    diagnosticsIndex(paths, facts)
  ),
  "nazm.diagnostic_detail": handle<typeof DiagnosticDetailInput>((args, { paths, facts }) =>
    diagnosticDetail(paths, args, facts)
  ),
  // Without the cache, as `nazm check` loads the root: the summary is what
  // the command line concludes, by the same path.
  "nazm.command_summary": handle<typeof CommandSummaryInput>((_args, { paths }) =>
    commandSummary(paths)
  ),
  "nazm.docs_index": handle<typeof DocsIndexInput>(async (args, { paths }) => {
    const { docsIndex } = await docs();
    return docsIndex(paths.docsRoot, { document: args.document });
  }),
  "nazm.docs_section": handle<typeof DocsSectionInput>(async (args, { paths }) => {
    const { docsSection } = await docs();
    return docsSection(paths.docsRoot, { id: args.id, state: args.state });
  }),
  "nazm.repository_map": handle<typeof RepositoryMapInput>(async (_args, { paths }) => {
    const { repositoryMap } = await repo();
    return repositoryMap(paths.docsRoot);
  }),
  "nazm.task_context": handle<typeof TaskContextInput>(async (args, { paths }) => {
    const { taskContext } = await repo();
    return taskContext(paths.docsRoot, {
      seeds: args.seeds,
      state: args.state,
      intent: args.intent,
      budget: args.budget,
    });
  }),
});
