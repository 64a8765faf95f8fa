/**
 * Ints for property tests, from every range where a representation could
 * go wrong: small, around 2^31, around ±2^53 and at both ends of 64 bits.
 *
 * @module
 */
import fc from "fast-check";

export const MIN = -(2n ** 63n);
export const MAX = 2n ** 63n - 1n;
export const SAFE = 2n ** 53n - 1n;

export const anyInt: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: -100n, max: 100n }),
  fc.bigInt({ min: -(2n ** 32n), max: 2n ** 32n }),
  fc.bigInt({ min: SAFE - 100n, max: SAFE + 100n }),
  fc.bigInt({ min: -SAFE - 100n, max: -SAFE + 100n }),
  fc.bigInt({ min: MIN, max: MIN + 100n }),
  fc.bigInt({ min: MAX - 100n, max: MAX }),
  fc.bigInt({ min: MIN, max: MAX }),
);
