/**
 * How a rejected argument is described, the same at every boundary that
 * checks a tool's input: the server's gate (a -32602 error's message and
 * data) and the command line (a usage error).
 *
 * @module
 */
import type { z } from "zod";

/** One problem with the arguments: where, zod's code, and what is wrong. */
export interface ArgumentIssue {
  readonly path: string;
  readonly code: string;
  readonly message: string;
  readonly keys?: readonly string[];
}

/** The issues of a rejected input, and one line that names them all. */
export function describeIssues(
  error: z.ZodError,
): { readonly issues: ArgumentIssue[]; readonly summary: string } {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    code: issue.code,
    message: issue.message,
    ...(issue.code === "unrecognized_keys" ? { keys: issue.keys } : {}),
  }));
  const summary = issues.map((issue) =>
    issue.code === "unrecognized_keys"
      ? `unknown argument${issue.keys!.length > 1 ? "s" : ""} ${issue.keys!.join(", ")}`
      : `${issue.path || "arguments"}: ${issue.message}`
  ).join("; ");
  return { issues, summary };
}
