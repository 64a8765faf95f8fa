/**
 * The Int representations the runtime's was chosen against, measured on
 * benchmark "run"'s compute program (docs/architecture.md §9.2):
 *
 * - `safe` (the runtime's): a JS number while |v| ≤ 2^53 − 1, a BigInt
 *   past it; the fast path adds doubles and checks the range;
 * - `int32`: a number only within the 32-bit range, a BigInt past it; the
 *   fast path is V8's small-integer arithmetic, `(r | 0) === r`;
 * - `bigint`: always a BigInt, every operation checked against 64 bits.
 *
 * A candidate is the generated module with the runtime's Int section (from
 * its `Int` heading to the next heading) replaced, the literals lowered to
 * match (`intLiterals`), and `len` patched where the candidate needs it. The
 * benchmark checks that each candidate prints exactly what the chosen one
 * does, so a surgery that went wrong cannot give a figure.
 *
 * @module
 */
import type { IntLiterals } from "../src/backend/mod.ts";

const SECTION_START = "// ---------------------------------------------------------------- Int\n";
const SECTION_END =
  "// ---------------------------------------------------------------- Float and text";

/** What every Int section defines for the rest of the runtime. */
const SHARED = `const MAX_SAFE = 9007199254740991;
export const $M = 9007199254740991;
export const $N = -9007199254740991;
const MAX_SAFE_BIG = 9007199254740991n;
const I64_MAX = 9223372036854775807n;
const I64_MIN = -9223372036854775808n;
function big(v) {
  return typeof v === "bigint" ? v : BigInt(v);
}
`;

const INT32 = `${SHARED}
function intOf(r, op, a, b) {
  if (r >= -2147483648n && r <= 2147483647n) return Number(r);
  if (r > I64_MAX || r < I64_MIN) fail("overflow", a + " " + op + " " + b + " does not fit in Int");
  return r;
}
export function $add(a, b, bigB, bigA) {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if ((r | 0) === r) return r;
  }
  return intOf((bigA ?? big(a)) + (bigB ?? big(b)), "+", a, b);
}
export function $sub(a, b, bigB, bigA) {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if ((r | 0) === r) return r;
  }
  return intOf((bigA ?? big(a)) - (bigB ?? big(b)), "-", a, b);
}
export function $mul(a, b, bigB, bigA) {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if ((r | 0) === r) return r + 0;
  }
  return intOf((bigA ?? big(a)) * (bigB ?? big(b)), "*", a, b);
}
export function $div(a, b, bigB, bigA) {
  if (b === 0) fail("division_by_zero", a + " / 0");
  if (typeof a === "number" && typeof b === "number") {
    const r = Math.trunc(a / b) + 0;
    if ((r | 0) === r) return r;
  }
  return intOf((bigA ?? big(a)) / (bigB ?? big(b)), "/", a, b);
}
export function $rem(a, b, bigB, bigA) {
  if (b === 0) fail("division_by_zero", a + " % 0");
  if (typeof a === "number" && typeof b === "number") return (a % b) + 0;
  return intOf((bigA ?? big(a)) % (bigB ?? big(b)), "%", a, b);
}
export function $neg(a) {
  if (typeof a === "number" && a !== -2147483648) return 0 - a;
  return intOf(-big(a), "-", 0, a);
}

`;

const BIGINT = `${SHARED}
function checked(r, op, a, b) {
  if (r > I64_MAX || r < I64_MIN) fail("overflow", a + " " + op + " " + b + " does not fit in Int");
  return r;
}
export function $add(a, b) {
  return checked(a + b, "+", a, b);
}
export function $sub(a, b) {
  return checked(a - b, "-", a, b);
}
export function $mul(a, b) {
  return checked(a * b, "*", a, b);
}
export function $div(a, b) {
  if (b === 0n) fail("division_by_zero", a + " / 0");
  return checked(a / b, "/", a, b);
}
export function $rem(a, b) {
  if (b === 0n) fail("division_by_zero", a + " % 0");
  return a % b;
}
export function $neg(a) {
  return checked(-a, "-", 0n, a);
}

`;

/** A candidate: how its literals are lowered and how its module is made from the generated one. */
export interface IntCandidate {
  readonly name: IntLiterals;
  readonly label: string;
  readonly transform: (moduleText: string) => string;
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    throw new Error(`the runtime changed: \`${from.slice(0, 60)}\` is not there exactly once`);
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}

function withIntSection(text: string, section: string): string {
  const start = text.indexOf(SECTION_START);
  const end = text.indexOf(SECTION_END);
  if (start < 0 || end < start) throw new Error("the runtime's Int section was not found");
  return text.slice(0, start + SECTION_START.length) + section + text.slice(end);
}

export const INT_CANDIDATES: readonly IntCandidate[] = [
  {
    name: "safe",
    label: "number to 2^53, then BigInt (the runtime's)",
    transform: (text) => text,
  },
  {
    name: "int32",
    label: "number within 32 bits, then BigInt",
    transform: (text) => withIntSection(text, INT32),
  },
  {
    name: "bigint",
    label: "always BigInt",
    transform: (text) =>
      replaceOnce(
        withIntSection(text, BIGINT),
        `return typeof x === "string" ? charCount(x) : x.e - x.s;`,
        `return BigInt(typeof x === "string" ? charCount(x) : x.e - x.s);`,
      ),
  },
];
