/**
 * What a fact function returns: an answer, or a refusal that says why the
 * well-formed request cannot be answered. Plain data; src/mcp maps it to a
 * tool result and src/cli to an exit status.
 *
 * @module
 */

/** A well-formed request that cannot be answered, with a closed-list reason. */
export interface Refused {
  readonly status: "refused" | "unavailable";
  readonly reason: string;
  readonly message: string;
  readonly [field: string]: unknown;
}

export type Outcome<A> =
  | { readonly kind: "answer"; readonly value: A }
  | { readonly kind: "refusal"; readonly value: Refused };

export function answer<A>(value: A): Outcome<A> {
  return { kind: "answer", value };
}

export function refuse<A = never>(
  status: Refused["status"],
  reason: string,
  message: string,
  extra: Record<string, unknown> = {},
): Outcome<A> {
  return { kind: "refusal", value: { status, reason, message, ...extra } };
}
