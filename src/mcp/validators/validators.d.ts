/**
 * The types of the generated validators (dotted.js, underscore.js), which
 * `deno task schemas` writes: Ajv's standalone code, one function per tool.
 */

/** One of Ajv's errors, as far as the server reads it. */
export interface ValidationError {
  readonly instancePath: string;
  readonly message?: string;
}

/** A compiled schema: true when `data` is valid; otherwise its first error is in `errors`. */
export interface GeneratedValidator {
  (data: unknown): boolean;
  readonly errors?: readonly ValidationError[] | null;
}

/** The validator of each tool's published schema, keyed by canonical tool name. */
export const validators: Readonly<Record<string, GeneratedValidator>>;
