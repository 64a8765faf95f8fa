/**
 * nazm.semantic_patch: a planned rename or diagnostic fix, never applied
 * (N29, docs/architecture.md §7.31).
 *
 * @module
 */
import { z } from "zod";
import { type PatchRequest, semanticPatch } from "../../facts/mod.ts";
import { Digest, PositionArgument } from "../schemas/common.ts";
import { defineTool, type ToolOutcome } from "../types.ts";

const RENAME_FIELDS = ["file", "position", "new_name"] as const;
const FIX_FIELDS = ["diagnostic", "fix", "state"] as const;

/**
 * One object, typed per operation: a rename takes exactly file, position
 * and new_name; a fix exactly diagnostic, fix and state. Any other field, or
 * a field of the other operation, is a protocol error like a missing one.
 */
const input = z.strictObject({
  operation: z.enum(["rename", "fix"]).describe(
    "rename: a private function, record or enum, or a local or parameter; fix: one of a diagnostic's fixes",
  ),
  file: z.string().min(1).max(4096).optional().describe(
    "rename: a file of the root's compilation, relative to the source root",
  ),
  position: PositionArgument.optional().describe(
    "rename: 1-based line and column on the name's declaration or a use",
  ),
  new_name: z.string().min(1).max(256).optional().describe("rename: the new identifier"),
  diagnostic: z.string().min(1).max(4096).optional().describe("fix: an id from nazm.diagnostics"),
  fix: z.int().min(0).max(1000).optional().describe(
    "fix: the index of the fix in nazm.diagnostic_detail",
  ),
  state: Digest.optional().describe(
    "fix: state.source of the nazm.diagnostics answer the id came from",
  ),
}).superRefine((value, ctx) => {
  const [wanted, other] = value.operation === "rename"
    ? [RENAME_FIELDS, FIX_FIELDS]
    : [FIX_FIELDS, RENAME_FIELDS];
  for (const field of wanted) {
    if (value[field] === undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: `${value.operation} needs ${field}` });
    }
  }
  for (const field of other) {
    if (value[field] !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `${value.operation} takes no ${field}`,
      });
    }
  }
});

export default defineTool({
  name: "nazm.semantic_patch",
  title: "Plan a rename or a fix",
  description:
    "Plans, and never applies, an edit of the root's compilation as a nazm.patch/2: minimal exact-byte edits with three freshness layers — baseline.snapshot (BLAKE3 of the canonical nazm.snapshot/4 it was planned on), each touched file's BLAKE3, and each edit's expected text — plus its applicability (automatic, or needs_review: never safe to apply unread) and a structured precondition. Check all three layers before applying anything. operation \"rename\" takes file, position and new_name and renames a private function, record or enum, or a local or parameter, everywhere it is referred to; an exported definition is refused (modules outside this compilation may import it), and so is a name that is not an identifier, a keyword, or one that would collide with or capture another name. operation \"fix\" takes a diagnostic id and state from nazm.diagnostics and a fix index from nazm.diagnostic_detail (whose fixes carry this exact request); a stale state, an id with no current diagnostic, a missing fix index and any syntax diagnostic's fix are refused. Every plan is verified before it is returned: its edits are applied in memory and the edited program re-checked — it must add no diagnostic (a fix must remove its own), every name must resolve as before, and no other fact may change; the answer's verification says what was compared, and a plan that fails is refused would_break or would_change_meaning, naming the first diagnostic it would add or the name it would re-bind, with places. No other argument is accepted, and no replacement text is ever taken from the client.",
  input,
  outputSchema: "nazm.patch-2.json",
  run(args, context): ToolOutcome {
    const request: PatchRequest = args.operation === "rename"
      ? {
        operation: "rename",
        file: args.file!,
        position: args.position!,
        new_name: args.new_name!,
      }
      : { operation: "fix", diagnostic: args.diagnostic!, fix: args.fix!, state: args.state! };
    return semanticPatch(context, request, context);
  },
});
