/**
 * Assertions for the tests. JSR (and so `@std/assert`) is not reachable from
 * this project's machines, so these wrap Node's strict assert, which Deno ships.
 *
 * @module
 */
import strict from "node:assert/strict";

/** Deep, strict equality with a readable diff on failure. */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  strict.deepStrictEqual(actual, expected, message);
}

export function assertNotEquals<T>(actual: T, expected: T, message?: string): void {
  strict.notDeepStrictEqual(actual, expected, message);
}

export function assert(condition: unknown, message?: string): asserts condition {
  strict.ok(condition, message);
}

export function assertThrows(fn: () => unknown, message?: string): void {
  strict.throws(fn, message);
}

export async function assertRejects(fn: () => Promise<unknown>, message?: string): Promise<void> {
  await strict.rejects(fn, message);
}

export function assertMatch(actual: string, pattern: RegExp, message?: string): void {
  strict.match(actual, pattern, message);
}

export function assertStringIncludes(actual: string, expected: string, message?: string): void {
  strict.ok(
    actual.includes(expected),
    message ?? `expected ${JSON.stringify(actual)} to include ${JSON.stringify(expected)}`,
  );
}

export function fail(message: string): never {
  strict.fail(message);
}
