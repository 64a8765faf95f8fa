/**
 * What every fact, documentation and repository function returns: an
 * answer, or a refusal that says why the well-formed request cannot be
 * answered, with a reason from the tool's closed list. Plain data; src/mcp
 * turns it into a tool result and src/cli into printed JSON and an exit
 * status — neither looks inside it.
 *
 * @module
 */

/**
 * A well-formed request that cannot be answered. `Reason` is the closed
 * list its contract declares (the refusal branch of the published schema),
 * so a reason outside it does not compile. Fields beyond the three echo the
 * request (id, state, file, ...) as the schema allows.
 */
export interface Refusal<Reason extends string = string> {
  readonly status: "refused" | "unavailable";
  readonly reason: Reason;
  /** One sentence for a reader. */
  readonly message: string;
  readonly [field: string]: unknown;
}

/** An answer, or a refusal with one of `Reason`. */
export type Outcome<Answer, Reason extends string = string> =
  | { readonly kind: "answer"; readonly value: Answer }
  | { readonly kind: "refusal"; readonly value: Refusal<Reason> };

/** The answer outcome. */
export function answer<Answer>(value: Answer): { readonly kind: "answer"; readonly value: Answer } {
  return { kind: "answer", value };
}

/**
 * The refusal outcome. `extra` comes after the three fixed fields, so the
 * published JSON keeps its field order: status, reason, message, then the
 * request's echo.
 */
export function refuse<Reason extends string>(
  status: Refusal["status"],
  reason: Reason,
  message: string,
  extra: Readonly<Record<string, unknown>> = {},
): { readonly kind: "refusal"; readonly value: Refusal<Reason> } {
  return { kind: "refusal", value: { status, reason, message, ...extra } };
}

/**
 * A type derived from a contract (`z.infer` gives mutable arrays and
 * fields), read-only all the way down: what a layer computes is never
 * changed by whoever receives it, and read-only data of the same shape is
 * accepted where a contract's type is expected.
 */
export type Frozen<T> = T extends readonly (infer Item)[] ? readonly Frozen<Item>[]
  : T extends object ? { readonly [Key in keyof T]: Frozen<T[Key]> }
  : T;
