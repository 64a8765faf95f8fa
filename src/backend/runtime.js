// @ts-check
/**
 * The Nazm runtime. Every module the back end generates starts with this
 * file's text, verbatim; the lowered program and one line that starts it
 * follow. Plain JavaScript (ES2022), so that the generated file runs under
 * Deno and Node with nothing else.
 *
 * Importing it has no side effect: it defines values and functions only.
 * The compiler imports it too, for {@link PRELUDE}'s names, the error kinds
 * and the one renderer of a runtime error.
 *
 * Representations (docs/specification.md section 13.2):
 * - `Int`: a JS number while the value is a safe integer (|v| <= 2^53 - 1),
 *   a BigInt otherwise, never both for one value, so `===` and `<` are exact;
 * - `Float`: a JS number; `Bool`: a boolean; `String`: a string; `Unit`:
 *   undefined;
 * - `List[T]`: a {@link List}, a view on a shared buffer that only ever
 *   grows at its ends, so `tail`, `..rest` and `len` are O(1) and `push`
 *   (and prepending with `concat([x], xs)`) amortized O(1);
 * - a record: an instance of its generated class, fields `$name`;
 * - an enum: an instance of its generated class, `$$t` the variant's index,
 *   payload `$0`, `$1`, ...;
 * - a function: a JS function (top-level functions, variant constructors
 *   and prelude functions are the only function values).
 *
 * @module
 */

// ---------------------------------------------------------------- runtime errors

/**
 * Every runtime error, its title and exit status. The statuses from 101 up
 * are the tool's; 0 to 100 are the program's own (what `main` returns).
 */
export const RUNTIME_ERRORS = Object.freeze({
  panic: { status: 101, title: "panic" },
  assertion: { status: 102, title: "assertion failed" },
  overflow: { status: 103, title: "integer overflow" },
  division_by_zero: { status: 104, title: "division by zero" },
  conversion: { status: 105, title: "invalid conversion" },
  stack_overflow: { status: 106, title: "stack overflow" },
  out_of_memory: { status: 107, title: "out of memory" },
  output_limit: { status: 108, title: "output limit exceeded" },
  timeout: { status: 109, title: "timeout" },
  exit_status: { status: 110, title: "exit status out of range" },
  internal: { status: 111, title: "internal error" },
});

/** The exit statuses `main` may return; anything else is the `exit_status` error. */
export const MAX_PROGRAM_STATUS = 100;

/** How many innermost frames a runtime error's stack keeps. */
export const STACK_FRAMES = 64;

/** A runtime error raised by the program or the runtime (never a bug of the compiler). */
export class NazmError extends Error {
  /**
   * @param {keyof typeof RUNTIME_ERRORS} kind
   * @param {string} message
   */
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

/**
 * @param {keyof typeof RUNTIME_ERRORS} kind
 * @param {string} message
 * @returns {never}
 */
function fail(kind, message) {
  throw new NazmError(kind, message);
}

// ---------------------------------------------------------------- Int

const MAX_SAFE = 9007199254740991;
const MAX_SAFE_BIG = 9007199254740991n;

/** The bounds of the fast path generated code inlines: a double within them is an exact Int. */
export const $M = 9007199254740991;
export const $N = -9007199254740991;
const I64_MAX = 9223372036854775807n;
const I64_MIN = -9223372036854775808n;

/**
 * A BigInt result back into the Int representation: a number when safe,
 * the BigInt otherwise; outside 64 bits, the overflow error.
 * @param {bigint} r
 * @param {string} op
 * @param {any} a
 * @param {any} b
 * @returns {number | bigint}
 */
function intOf(r, op, a, b) {
  // Most results that get here stay large: two comparisons settle them.
  if (r > MAX_SAFE_BIG) {
    if (r <= I64_MAX) return r;
  } else if (r < -MAX_SAFE_BIG) {
    if (r >= I64_MIN) return r;
  } else return Number(r);
  const shown = b === undefined ? `-(${a})` : `${a} ${op} ${b}`;
  return fail("overflow", `${shown} does not fit in Int`);
}

/**
 * An Int as a BigInt, for the slow paths.
 * @param {number | bigint} v
 */
function big(v) {
  return typeof v === "bigint" ? v : BigInt(v);
}

/**
 * `a + b` on Int.
 * @param {any} a
 * @param {any} b
 * @param {bigint} [bigB] `b` as a BigInt, when `b` is a literal
 * @param {bigint} [bigA] `a` as a BigInt, when `a` is a literal
 */
export function $add(a, b, bigB, bigA) {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
  }
  return intOf((bigA ?? big(a)) + (bigB ?? big(b)), "+", a, b);
}

/**
 * `a - b` on Int.
 * @param {any} a
 * @param {any} b
 * @param {bigint} [bigB] `b` as a BigInt, when `b` is a literal
 * @param {bigint} [bigA] `a` as a BigInt, when `a` is a literal
 */
export function $sub(a, b, bigB, bigA) {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
  }
  return intOf((bigA ?? big(a)) - (bigB ?? big(b)), "-", a, b);
}

/**
 * `a * b` on Int. A product within the safe range is exact as a double;
 * `+ 0` turns the -0 of `0 * -1` into 0, which Int does not have.
 * @param {any} a
 * @param {any} b
 * @param {bigint} [bigB] `b` as a BigInt, when `b` is a literal
 * @param {bigint} [bigA] `a` as a BigInt, when `a` is a literal
 */
export function $mul(a, b, bigB, bigA) {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r + 0;
  }
  return intOf((bigA ?? big(a)) * (bigB ?? big(b)), "*", a, b);
}

/**
 * `a / b` on Int: truncated toward zero. For safe integers the rounded
 * double quotient never crosses an integer, so truncating it is exact.
 * @param {any} a
 * @param {any} b
 * @param {bigint} [bigB] `b` as a BigInt, when `b` is a literal
 * @param {bigint} [bigA] `a` as a BigInt, when `a` is a literal
 */
export function $div(a, b, bigB, bigA) {
  if (b === 0) fail("division_by_zero", `${a} / 0`);
  if (typeof a === "number" && typeof b === "number") return Math.trunc(a / b) + 0;
  return intOf((bigA ?? big(a)) / (bigB ?? big(b)), "/", a, b);
}

/**
 * `a % b` on Int: the remainder of truncated division (its sign is the dividend's).
 * @param {any} a
 * @param {any} b
 * @param {bigint} [bigB] `b` as a BigInt, when `b` is a literal
 * @param {bigint} [bigA] `a` as a BigInt, when `a` is a literal
 */
export function $rem(a, b, bigB, bigA) {
  if (b === 0) fail("division_by_zero", `${a} % 0`);
  if (typeof a === "number" && typeof b === "number") return (a % b) + 0;
  return intOf((bigA ?? big(a)) % (bigB ?? big(b)), "%", a, b);
}

/**
 * `-a` on Int.
 * @param {any} a
 */
export function $neg(a) {
  if (typeof a === "number") return 0 - a;
  return intOf(-big(a), "-", a, undefined);
}

// ---------------------------------------------------------------- Float and text

/**
 * A Float as text: the shortest decimal that reads back as the same value
 * (ECMAScript's Number::toString), and `NaN`, `inf`, `-inf`, `-0`.
 * @param {number} x
 */
export function floatText(x) {
  if (x === 0) return 1 / x < 0 ? "-0" : "0";
  if (x !== x) return "NaN";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  return String(x);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The number of characters (Unicode scalar values) of a string.
 * @param {string} s
 */
function charCount(s) {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/**
 * Compares two strings by Unicode code points (UTF-16 order differs for
 * characters above U+FFFF against U+E000 to U+FFFF).
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
export function $scmp(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/**
 * The UTF-8 length of a string, in bytes.
 * @param {string} s
 */
export function utf8Length(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 2; // four bytes for the pair's two units
      i++;
    } else n += 2;
  }
  return n;
}

// ---------------------------------------------------------------- lists

/**
 * The storage lists share. Logical index `i` is `a[i + o]`; `a[lo...]` is
 * in use. A slot once written is never written again, so every view on the
 * buffer sees the same elements forever.
 */
class Buf {
  /**
   * @param {any[]} a
   * @param {number} o
   * @param {number} lo
   */
  constructor(a, o, lo) {
    this.a = a;
    this.o = o;
    this.lo = lo;
  }
}

/** A list value: the elements `[s, e)` of a buffer. */
export class List {
  /**
   * @param {Buf} b
   * @param {number} s
   * @param {number} e
   */
  constructor(b, s, e) {
    this.b = b;
    this.s = s;
    this.e = e;
  }
}

/**
 * A new, empty array of V8's most general elements kind. Every list's
 * storage has that one kind, whatever it holds, so the engine's inline
 * caches at `push` and at element reads see one kind and stay fast; an
 * array of small integers would otherwise have another kind than an array
 * of records, and every list operation would go the slow, generic way.
 * @returns {any[]}
 */
function storage() {
  const a = [undefined];
  a.pop();
  return a;
}

const EMPTY = new List(new Buf(storage(), 0, 0), 0, 0);

/**
 * A list over an array that is already storage (from {@link storage} or a
 * slice of one), without copying it.
 * @param {any[]} a
 */
function wrap(a) {
  return a.length === 0 ? EMPTY : new List(new Buf(a, 0, 0), 0, a.length);
}

/**
 * A list of the elements of an array (a list literal's), copied into storage.
 * @param {any[]} items
 */
export function $list(items) {
  const a = storage();
  for (let i = 0; i < items.length; i++) a.push(items[i]);
  return wrap(a);
}

/**
 * The element at `i` (from the view's start); the caller checked the bound.
 * @param {List} xs
 * @param {number} i
 */
export function $at(xs, i) {
  const b = xs.b;
  return b.a[xs.s + i + b.o];
}

/**
 * The list without its first `k` elements (a `..rest` pattern).
 * @param {List} xs
 * @param {number} k
 */
export function $drop(xs, k) {
  return xs.s + k === xs.e ? EMPTY : new List(xs.b, xs.s + k, xs.e);
}

/**
 * A list parameter's own copy, which the function that made it may update
 * in place (src/backend/owned_lists.ts proves nothing else sees it).
 * @param {List} xs
 */
export function $own(xs) {
  return new List(xs.b, xs.s, xs.e);
}

/**
 * `push` onto an owned list, in place: its buffer's end when it owns that,
 * else a fresh buffer.
 * @param {List} xs
 * @param {any} item
 */
export function $pushOwn(xs, item) {
  const b = xs.b;
  if (xs.e + b.o === b.a.length && xs.s !== xs.e) {
    b.a.push(item);
    xs.e++;
    return xs;
  }
  return pushOwnElsewhere(xs, item);
}

/**
 * The rare case of {@link $pushOwn}, apart so that the common one stays
 * small enough for V8 to inline.
 * @param {List} xs
 * @param {any} item
 */
function pushOwnElsewhere(xs, item) {
  const a = xs.s === xs.e ? storage() : elements(xs);
  a.push(item);
  xs.b = new Buf(a, 0, 0);
  xs.s = 0;
  xs.e = a.length;
  return xs;
}

/**
 * The number of elements.
 * @param {List} xs
 */
export function $size(xs) {
  return xs.e - xs.s;
}

/**
 * The elements, copied into a fresh array.
 * @param {List} xs
 * @returns {any[]}
 */
function elements(xs) {
  const b = xs.b;
  return b.a.slice(xs.s + b.o, xs.e + b.o);
}

/**
 * `items` before the list, in place when the list starts at its buffer's
 * first used slot (growing the buffer's front if needed); null otherwise.
 * @param {List} xs
 * @param {any[]} items
 * @returns {List | null}
 */
function prependInPlace(xs, items) {
  const b = xs.b;
  if (xs.s + b.o !== b.lo) return null;
  const n = items.length;
  if (b.lo < n) {
    const extra = Math.max(n, b.a.length - b.lo, 8);
    const grown = storage();
    for (let i = 0; i < extra + b.lo; i++) grown.push(undefined);
    for (let i = b.lo; i < b.a.length; i++) grown.push(b.a[i]);
    b.a = grown;
    b.o += extra;
    b.lo += extra;
  }
  for (let i = n - 1; i >= 0; i--) b.a[--b.lo] = items[i];
  return new List(b, xs.s - n, xs.e);
}

/**
 * `items` after the list, in place when the list ends at its buffer's end; null otherwise.
 * @param {List} xs
 * @param {any[] | List} items
 * @returns {List | null}
 */
function appendInPlace(xs, items) {
  const b = xs.b;
  if (xs.e + b.o !== b.a.length) return null;
  if (items instanceof List) {
    const n = items.e - items.s;
    for (let i = 0; i < n; i++) b.a.push($at(items, i));
    return new List(b, xs.s, xs.e + n);
  }
  for (const item of items) b.a.push(item);
  return new List(b, xs.s, xs.e + items.length);
}

// ---------------------------------------------------------------- records and enums

const RECORD = 1;
const ENUM = 2;

/**
 * @typedef {{ k: 1, n: string, f: string[], p: string[] }} RecordMeta
 * @typedef {{ k: 2, n: string, v: [string, number][], p: string[], bare: boolean }} EnumMeta
 */

/**
 * Describes a generated record class, for `to_string` and `==`.
 * @param {Function} cls
 * @param {string} name
 * @param {string[]} fields
 */
export function $record(cls, name, fields) {
  /** @type {RecordMeta} */
  const meta = { k: RECORD, n: name, f: fields, p: fields.map((f) => "$" + f) };
  Object.defineProperty(cls.prototype, "$$m", { value: meta });
}

/**
 * Describes a generated enum class: its variants' names and payload sizes.
 * @param {Function} cls
 * @param {string} name
 * @param {[string, number][]} variants
 * @param {boolean} bare whether variants print unqualified (the prelude's)
 */
export function $enum(cls, name, variants, bare = false) {
  const width = Math.max(0, ...variants.map((v) => v[1]));
  /** @type {EnumMeta} */
  const meta = {
    k: ENUM,
    n: name,
    v: variants,
    p: Array.from({ length: width }, (_, i) => "$" + i),
    bare,
  };
  Object.defineProperty(cls.prototype, "$$m", { value: meta });
}

/** The prelude's `Option[T]`: `Some` is 0, `None` 1. */
export class Option {
  /**
   * @param {number} t
   * @param {any} a
   */
  constructor(t, a) {
    this.$$t = t;
    this.$0 = a;
  }
}
$enum(Option, "Option", [["Some", 1], ["None", 0]], true);

/** The prelude's `Result[T, E]`: `Ok` is 0, `Err` 1. */
export class Result {
  /**
   * @param {number} t
   * @param {any} a
   */
  constructor(t, a) {
    this.$$t = t;
    this.$0 = a;
  }
}
$enum(Result, "Result", [["Ok", 1], ["Err", 1]], true);

export const $None = new Option(1, undefined);

/**
 * The prelude variant `Some` as a function value.
 * @param {any} value
 */
export function $Some(value) {
  return new Option(0, value);
}

/**
 * The prelude variant `Ok` as a function value.
 * @param {any} value
 */
export function $Ok(value) {
  return new Result(0, value);
}

/**
 * The prelude variant `Err` as a function value.
 * @param {any} error
 */
export function $Err(error) {
  return new Result(1, error);
}

// ---------------------------------------------------------------- equality and text

/**
 * Structural equality, `==` on any type: elementwise, so a value holding
 * NaN is not equal to itself. Iterative: a deep value cannot overflow the stack.
 * @param {any} a
 * @param {any} b
 */
export function $eq(a, b) {
  const stack = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (typeof x !== "object") {
      if (x !== y) return false;
      continue;
    }
    if (x instanceof List) {
      const n = x.e - x.s;
      if (y.e - y.s !== n) return false;
      for (let i = 0; i < n; i++) stack.push($at(x, i), $at(y, i));
      continue;
    }
    const meta = x.$$m;
    if (meta.k === ENUM) {
      if (x.$$t !== y.$$t) return false;
      const size = meta.v[x.$$t][1];
      for (let i = 0; i < size; i++) stack.push(x[meta.p[i]], y[meta.p[i]]);
      continue;
    }
    for (const p of meta.p) stack.push(x[p], y[p]);
  }
  return true;
}

/**
 * A string as a Nazm literal: quoted, with `\\`, `\"`, `\n`, `\t`, `\r`,
 * `\0` and `\u{...}` for the other control characters.
 * @param {string} s
 */
function quote(s) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0) out += "\\0";
    else if (c < 0x20 || c === 0x7f) out += `\\u{${c.toString(16)}}`;
    else out += s[i];
  }
  return out + '"';
}

/**
 * How a function value prints: its Nazm name, from the generated JS name
 * (`geometry$shapes$$area` is `area`; `m$$Shape$Circle` is `Shape.Circle`;
 * `$len` is `len`).
 * @param {Function} f
 */
function functionText(f) {
  const name = f.name;
  const at = name.indexOf("$$");
  const local = at >= 0 ? name.slice(at + 2) : name.replace(/^\$/, "");
  return `<fn ${local.replace("$", ".")}>`;
}

/**
 * A value as text (`to_string`): a string is itself at the top and a quoted
 * literal inside another value. Iterative, like {@link $eq}.
 * @param {any} value
 * @param {boolean} nested
 * @returns {string}
 */
export function show(value, nested) {
  switch (typeof value) {
    case "string":
      return nested ? quote(value) : value;
    case "number":
      return floatText(value);
    case "bigint":
    case "boolean":
      return String(value);
    case "undefined":
      return "()";
  }
  /** @type {string[]} */
  const out = [];
  // Pairs: [0, text] is written as is, [1, value] is shown.
  /** @type {any[]} */
  const stack = [1, value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (stack.pop() === 0) {
      out.push(v);
      continue;
    }
    switch (typeof v) {
      case "string":
        out.push(quote(v));
        continue;
      case "number":
        out.push(floatText(v));
        continue;
      case "bigint":
      case "boolean":
        out.push(String(v));
        continue;
      case "undefined":
        out.push("()");
        continue;
      case "function":
        out.push(functionText(v));
        continue;
    }
    if (v instanceof List) {
      const n = v.e - v.s;
      out.push("[");
      stack.push(0, "]");
      for (let i = n - 1; i >= 0; i--) {
        stack.push(1, $at(v, i));
        if (i > 0) stack.push(0, ", ");
      }
      continue;
    }
    const meta = v.$$m;
    if (meta.k === ENUM) {
      const [name, size] = meta.v[v.$$t];
      out.push(meta.bare ? name : `${meta.n}.${name}`);
      if (size === 0) continue;
      out.push("(");
      stack.push(0, ")");
      for (let i = size - 1; i >= 0; i--) {
        stack.push(1, v[meta.p[i]]);
        if (i > 0) stack.push(0, ", ");
      }
      continue;
    }
    if (meta.f.length === 0) {
      out.push(`${meta.n} {}`);
      continue;
    }
    out.push(`${meta.n} { `);
    stack.push(0, " }");
    for (let i = meta.f.length - 1; i >= 0; i--) {
      stack.push(1, v[meta.p[i]]);
      stack.push(0, `${i > 0 ? ", " : ""}${meta.f[i]}: `);
    }
  }
  return out.join("");
}

// ---------------------------------------------------------------- output and the stop flag

/** Where printed text goes: set by the harness. */
let sink = (/** @type {string} */ _text) => {};
let outputBytes = 0;
let outputLimit = Infinity;

/**
 * Set by the host when the time is up; generated code checks it at every
 * turn of a self tail call's loop and at the entry of every function on a
 * cycle of calls (the only ways a program can run without end).
 */
export let $stop = new Int32Array(1);
let timeoutText = "";

/** Where a `match` found no arm: exhaustiveness was checked, so only a bug of nazm gets here. */
export function $nomatch() {
  fail("internal", "no match arm matched the value");
}

/** Stops the program where it is, with the `timeout` error and its stack. */
export function $halt() {
  fail("timeout", `the program did not finish within ${timeoutText}`);
}

/**
 * @param {string} text
 */
function write(text) {
  if (outputLimit !== Infinity) {
    const bytes = utf8Length(text);
    if (outputBytes + bytes > outputLimit) {
      fail(
        "output_limit",
        `the program printed more than the limit of ${outputLimit} bytes; the output stops before this line`,
      );
    }
    outputBytes += bytes;
  }
  sink(text);
}

// ---------------------------------------------------------------- the prelude

/**
 * @param {string} text
 */
export function $print(text) {
  write(text + "\n");
}

/**
 * @param {any} value
 */
export function $to_string(value) {
  return typeof value === "number" ? floatText(value) : show(value, false);
}

/**
 * A list's number of elements, or a string's number of characters.
 * @param {List | string} x
 */
export function $len(x) {
  return typeof x === "string" ? charCount(x) : x.e - x.s;
}

/**
 * @param {List} items
 * @param {any} item
 */
export function $push(items, item) {
  const b = items.b;
  if (items.e + b.o === b.a.length && items.s !== items.e) {
    b.a.push(item);
    return new List(b, items.s, items.e + 1);
  }
  return pushElsewhere(items, item);
}

/**
 * The rare case of {@link $push}: an empty list, or one that does not end
 * at its buffer's end, gets new storage.
 * @param {List} items
 * @param {any} item
 */
function pushElsewhere(items, item) {
  const copy = items.s === items.e ? storage() : elements(items);
  copy.push(item);
  return wrap(copy);
}

/**
 * @param {List} items
 */
export function $head(items) {
  return items.s === items.e ? $None : new Option(0, $at(items, 0));
}

/**
 * @param {List} items
 */
export function $tail(items) {
  return items.s === items.e ? EMPTY : $drop(items, 1);
}

/**
 * Both lists' elements: in place at the end of the first or the front of
 * the second when one of them owns that end, the smaller copy first.
 * @param {List} first
 * @param {List} second
 */
export function $concat(first, second) {
  const n1 = first.e - first.s;
  const n2 = second.e - second.s;
  if (n1 === 0) return second;
  if (n2 === 0) return first;
  if (n2 <= n1) {
    const r = appendInPlace(first, second) ?? prependInPlace(second, elements(first));
    if (r !== null) return r;
  } else {
    const r = prependInPlace(second, elements(first)) ?? appendInPlace(first, second);
    if (r !== null) return r;
  }
  const copy = elements(first);
  for (let i = 0; i < n2; i++) copy.push($at(second, i));
  return wrap(copy);
}

/**
 * @param {List} items
 */
export function $reverse(items) {
  return wrap(elements(items).reverse());
}

/**
 * @param {List} parts
 * @param {string} separator
 */
export function $join(parts, separator) {
  return elements(parts).join(separator);
}

/**
 * Characters `[start, end)`, each bound clamped to `[0, len(text)]`.
 * @param {string} text
 * @param {number | bigint} start
 * @param {number | bigint} end
 */
export function $substring(text, start, end) {
  const n = charCount(text);
  const from = Math.min(Math.max(Number(start), 0), n);
  const to = Math.min(Math.max(Number(end), 0), n);
  if (to <= from) return "";
  if (!SURROGATE.test(text)) return text.slice(from, to);
  return Array.from(text).slice(from, to).join("");
}

/**
 * @param {string} text
 */
export function $chars(text) {
  const a = storage();
  for (const c of text) a.push(c);
  return wrap(a);
}

/**
 * The number of characters before the UTF-16 index `i` of a string.
 * @param {string} s
 * @param {number} i
 */
function charIndex(s, i) {
  return charCount(s.slice(0, i));
}

/**
 * The pieces between separators; for an empty separator, the characters.
 * @param {string} text
 * @param {string} separator
 */
export function $split(text, separator) {
  if (separator === "") return $chars(text);
  const a = storage();
  // Both strings are whole characters, so a match never splits a surrogate pair.
  for (const piece of text.split(separator)) a.push(piece);
  return wrap(a);
}

const EDGE_SPACE = /^\p{White_Space}+|\p{White_Space}+$/gu;

/**
 * Without the characters of Unicode's White_Space property at either end.
 * @param {string} text
 */
export function $trim(text) {
  return text.replace(EDGE_SPACE, "");
}

/**
 * @param {string} text
 * @param {string} part
 */
export function $contains(text, part) {
  return text.includes(part);
}

/**
 * @param {string} text
 * @param {string} prefix
 */
export function $starts_with(text, prefix) {
  return text.startsWith(prefix);
}

/**
 * @param {string} text
 * @param {string} suffix
 */
export function $ends_with(text, suffix) {
  return text.endsWith(suffix);
}

/**
 * The first occurrence's index in characters; `Some(0)` for the empty part.
 * @param {string} text
 * @param {string} part
 */
export function $index_of(text, part) {
  const at = text.indexOf(part);
  return at < 0 ? $None : new Option(0, charIndex(text, at));
}

/**
 * `join(split(text, old), new)`: every occurrence replaced, left to right,
 * without overlap; for an empty `old`, `new` between every two characters.
 * @param {string} text
 * @param {string} old
 * @param {string} replacement
 */
export function $replace(text, old, replacement) {
  if (old === "") return Array.from(text).join(replacement);
  return text.split(old).join(replacement);
}

/**
 * The element at `index`, or `None` outside `[0, len(items))`.
 * @param {List} items
 * @param {number | bigint} index
 */
export function $get(items, index) {
  if (typeof index !== "number" || index < 0 || index >= items.e - items.s) return $None;
  return new Option(0, $at(items, index));
}

/**
 * @param {List} items
 */
export function $last(items) {
  return items.s === items.e ? $None : new Option(0, $at(items, items.e - items.s - 1));
}

/**
 * Elements `[start, end)`, each bound clamped to `[0, len(items)]`: a view
 * on the same storage, O(1).
 * @param {List} items
 * @param {number | bigint} start
 * @param {number | bigint} end
 */
export function $slice(items, start, end) {
  const n = items.e - items.s;
  const from = Math.min(Math.max(Number(start), 0), n);
  const to = Math.min(Math.max(Number(end), 0), n);
  if (to <= from) return EMPTY;
  return new List(items.b, items.s + from, items.s + to);
}

/** The most elements a JavaScript array, and so a list, can have. */
const MAX_ELEMENTS = 4294967295;

/**
 * `[start, end)` ascending; empty when `end <= start`. It reads the stop
 * flag as it goes: a long range is a place a program can spend its time.
 * @param {number | bigint} start
 * @param {number | bigint} end
 */
export function $range(start, end) {
  const count = big(end) - big(start);
  if (count <= 0n) return EMPTY;
  if (count > MAX_ELEMENTS) {
    return fail("out_of_memory", `range(${start}, ${end}) has more elements than a list can hold`);
  }
  const a = storage();
  const n = Number(count);
  if (typeof start === "number" && typeof end === "number") {
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0xffff && $stop[0] !== 0) $halt();
      a.push(start + i);
    }
  } else {
    const first = big(start);
    for (let i = 0; i < n; i++) {
      if ((i & 0xffff) === 0xffff && $stop[0] !== 0) $halt();
      const v = first + BigInt(i);
      a.push(v >= -MAX_SAFE_BIG && v <= MAX_SAFE_BIG ? Number(v) : v);
    }
  }
  return wrap(a);
}

/**
 * @param {number | bigint} value
 */
export function $abs(value) {
  return value < 0 ? $neg(value) : value;
}

/**
 * @param {number | bigint} a
 * @param {number | bigint} b
 */
export function $min(a, b) {
  return b < a ? b : a;
}

/**
 * @param {number | bigint} a
 * @param {number | bigint} b
 */
export function $max(a, b) {
  return b > a ? b : a;
}

const INT_TEXT = /^[+-]?[0-9]+$/;

/**
 * An optional sign and ASCII decimal digits, within Int; `None` otherwise.
 * @param {string} text
 */
export function $parse_int(text) {
  if (!INT_TEXT.test(text)) return $None;
  if (text.length <= 16) return new Option(0, Number(text) + 0);
  const value = BigInt(text);
  if (value > I64_MAX || value < I64_MIN) return $None;
  return new Option(0, value >= -MAX_SAFE_BIG && value <= MAX_SAFE_BIG ? Number(value) : value);
}

/**
 * The nearest Float (ties to even).
 * @param {number | bigint} value
 */
export function $int_to_float(value) {
  return typeof value === "number" ? value : Number(value);
}

/**
 * Truncated toward zero; NaN, the infinities and values outside Int are
 * the `conversion` error.
 * @param {number} value
 */
export function $float_to_int(value) {
  if (value !== value) fail("conversion", "float_to_int: NaN has no Int value");
  if (value >= 9223372036854775808 || value < -9223372036854775808) {
    fail("conversion", `float_to_int: ${floatText(value)} is outside the range of Int`);
  }
  const t = Math.trunc(value);
  return t >= -MAX_SAFE && t <= MAX_SAFE ? t + 0 : BigInt(t);
}

/**
 * @param {string} message
 * @returns {never}
 */
export function $panic(message) {
  return fail("panic", message);
}

/**
 * @param {boolean} condition
 * @param {string} message
 */
export function $assert(condition, message) {
  if (!condition) fail("assertion", message);
}

/**
 * @param {any} actual
 * @param {any} expected
 */
export function $assert_eq(actual, expected) {
  if (!$eq(actual, expected)) {
    fail(
      "assertion",
      `the values are not equal\n  actual:   ${show(actual, true)}\n  expected: ${
        show(expected, true)
      }`,
    );
  }
}

/**
 * The prelude's functions by their Nazm names: the one table the back end
 * lowers prelude calls through (each is also exported as `$name`).
 */
export const PRELUDE = Object.freeze({
  print: $print,
  to_string: $to_string,
  len: $len,
  push: $push,
  head: $head,
  tail: $tail,
  concat: $concat,
  last: $last,
  get: $get,
  slice: $slice,
  reverse: $reverse,
  range: $range,
  join: $join,
  split: $split,
  substring: $substring,
  chars: $chars,
  trim: $trim,
  contains: $contains,
  starts_with: $starts_with,
  ends_with: $ends_with,
  index_of: $index_of,
  replace: $replace,
  parse_int: $parse_int,
  abs: $abs,
  min: $min,
  max: $max,
  int_to_float: $int_to_float,
  float_to_int: $float_to_int,
  panic: $panic,
  assert: $assert,
  assert_eq: $assert_eq,
});

// ---------------------------------------------------------------- the program and its errors

/**
 * What the generated code hands the harness.
 * @typedef {object} Program
 * @property {(() => any) | null} main
 * @property {boolean} mainInt whether `main` returns Int
 * @property {[number, number, number] | null} mainPlace file, line and column of `main`'s name
 * @property {[string, () => any, number, number, number][]} tests key, function, file, line, column
 * @property {string[]} files
 * @property {string[]} names display names, by function index
 * @property {string} map markers, encoded (see {@link decodeMap})
 * @property {number} end the last line of the program's code: later lines start it
 */

/**
 * One frame of a Nazm stack.
 * @typedef {{ name: string, file: string, line: number, column: number }} Frame
 */

/**
 * A runtime error, as plain data.
 * @typedef {object} Report
 * @property {keyof typeof RUNTIME_ERRORS} kind
 * @property {string} message
 * @property {Frame[]} frames innermost first
 * @property {boolean} truncated whether outer frames are missing
 */

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * The markers: for each, in the order of the code, the generated line and
 * column and the Nazm file, line, column and function it stands for. Six
 * base-64 VLQs a marker (as source maps write numbers): line (delta),
 * column, file (delta), Nazm line (delta), Nazm column, function (delta).
 * @param {string} text
 * @returns {Int32Array}
 */
function decodeMap(text) {
  /** @type {number[]} */
  const values = [];
  let v = 0;
  let shift = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = BASE64.indexOf(text[i]);
    v += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(v & 1 ? -(v >>> 1) : v >>> 1);
    v = 0;
    shift = 0;
  }
  const out = new Int32Array(values.length);
  /** @type {number[]} */
  const last = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < values.length; i++) {
    const k = i % 6;
    out[i] = k === 1 || k === 4 ? values[i] : last[k] + values[i];
    last[k] = out[i];
  }
  return out;
}

/** @type {WeakMap<Program, Int32Array>} */
const decoded = new WeakMap();

/**
 * The Nazm frame for a place in the generated code: the last marker at or
 * before it.
 * @param {Program} program
 * @param {number} line
 * @param {number} column
 * @returns {Frame | null}
 */
function frameAt(program, line, column) {
  if (line > program.end) return null;
  let map = decoded.get(program);
  if (map === undefined) {
    map = decodeMap(program.map);
    decoded.set(program, map);
  }
  let lo = 0;
  let hi = map.length / 6 - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const l = map[mid * 6];
    if (l < line || (l === line && map[mid * 6 + 1] <= column)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return null;
  const at = found * 6;
  return {
    name: program.names[map[at + 5]],
    file: program.files[map[at + 2]],
    line: map[at + 3],
    column: map[at + 4],
  };
}

/**
 * The V8 call sites of an error, as [file, line, column] (Deno and Node
 * both run V8).
 * @param {unknown} error
 * @returns {[string, number, number][]}
 */
function callSites(error) {
  const E = /** @type {any} */ (Error);
  const previous = E.prepareStackTrace;
  try {
    E.prepareStackTrace = (/** @type {unknown} */ _e, /** @type {any[]} */ sites) =>
      sites.map((s) => [String(s.getFileName()), s.getLineNumber() ?? 0, s.getColumnNumber() ?? 0]);
    const sites = error instanceof Error ? /** @type {any} */ (error).stack : null;
    return Array.isArray(sites) ? sites : [];
  } catch {
    return [];
  } finally {
    E.prepareStackTrace = previous;
  }
}

/** The file name V8 gives this module's frames. */
function ownFile() {
  const sites = callSites(new Error());
  return sites.length > 0 ? sites[0][0] : "";
}

/**
 * What a thrown value means: a runtime error with its Nazm stack.
 * @param {unknown} error
 * @param {Program} program
 * @returns {Report}
 */
export function report(error, program) {
  /** @type {keyof typeof RUNTIME_ERRORS} */
  let kind = "internal";
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof NazmError) kind = error.kind;
  else if (error instanceof RangeError && /call stack/i.test(message)) {
    kind = "stack_overflow";
    message = "the recursion went deeper than the call stack allows";
  } else if (
    error instanceof RangeError && /Invalid (string|array) length|allocation failed/i.test(message)
  ) {
    kind = "out_of_memory";
    message = `a value grew past what the runtime can hold (${message})`;
  } else if (error instanceof Error) {
    message = `${error.name}: ${message}`;
  }
  const self = ownFile();
  const sites = callSites(error);
  /** @type {Frame[]} */
  const frames = [];
  for (const [file, line, column] of sites) {
    if (file !== self) continue;
    const frame = frameAt(program, line, column);
    if (frame !== null) frames.push(frame);
  }
  return {
    kind,
    message,
    frames: kind === "stack_overflow" ? recursionCycle(frames) : frames,
    truncated: sites.length >= STACK_FRAMES,
  };
}

/**
 * @param {Frame} a
 * @param {Frame} b
 */
function sameFrame(a, b) {
  return a.name === b.name && a.file === b.file && a.line === b.line && a.column === b.column;
}

/**
 * The calls that repeat in a full stack: from the innermost frame that
 * occurs again further out, up to its next occurrence. Where exactly the
 * stack ran out differs between runs and runtimes; the cycle does not.
 * @param {Frame[]} frames
 * @returns {Frame[]}
 */
function recursionCycle(frames) {
  for (let i = 0; i < frames.length; i++) {
    const again = frames.findIndex((f, j) => j > i && sameFrame(f, frames[i]));
    if (again > 0) return frames.slice(i, again);
  }
  return frames;
}

/**
 * A runtime error as the text `nazm run`, `nazm test` and a built program
 * print: `error[kind]: message`, the message's further lines indented, then
 * the stack innermost first, a run of one repeated frame shown once.
 * @param {Report} r
 * @returns {string}
 */
export function renderReport(r) {
  const lines = [`error[${r.kind}]: ${r.message}`];
  let i = 0;
  while (i < r.frames.length) {
    const f = r.frames[i];
    let j = i + 1;
    while (j < r.frames.length && sameFrame(r.frames[j], f)) j++;
    lines.push(`  at ${f.name} (${f.file}:${f.line}:${f.column})`);
    if (j - i > 1) {
      lines.push(`  ... the frame above, ${j - i - 1} more time${j - i > 2 ? "s" : ""}`);
    }
    i = j;
  }
  if (r.kind === "stack_overflow") lines.push("  ... and so on, until the stack was full");
  else if (r.truncated) lines.push("  ... outer frames not shown");
  return lines.join("\n") + "\n";
}

/**
 * The exit status `main`'s result gives, or the `exit_status` error's message.
 * @param {any} result
 * @param {Program} program
 * @returns {number | string}
 */
export function exitStatusOf(result, program) {
  if (!program.mainInt) return 0;
  if (typeof result === "number" && result >= 0 && result <= MAX_PROGRAM_STATUS) return result;
  return `main returned ${result}; an exit status is from 0 to ${MAX_PROGRAM_STATUS}`;
}

/**
 * The `exit_status` error's report, at `main`.
 * @param {string} message
 * @param {Program} program
 * @returns {Report}
 */
export function exitStatusReport(message, program) {
  const p = program.mainPlace;
  return {
    kind: "exit_status",
    message,
    frames: p === null
      ? []
      : [{ name: "main", file: program.files[p[0]], line: p[1], column: p[2] }],
    truncated: false,
  };
}

// ---------------------------------------------------------------- harnesses

/**
 * Printed text in batches: `write` keeps it, and passes what it kept to
 * `send` past `size` characters; `flush` passes the rest.
 * @param {(text: string) => void} send
 * @param {number} size
 */
function batches(send, size) {
  /** @type {string[]} */
  let pending = [];
  let length = 0;
  const flush = () => {
    if (pending.length > 0) send(pending.join(""));
    pending = [];
    length = 0;
  };
  const write = (/** @type {string} */ text) => {
    pending.push(text);
    length += text.length;
    if (length >= size) flush();
  };
  return { write, flush };
}

/**
 * Runs the program as a process: the file `nazm build` writes ends with a
 * call to this. Output goes to stdout as it is printed (in 64 KiB pieces);
 * a runtime error goes to stderr, and its status is the exit status.
 * @param {Program} program
 */
export function runStandalone(program) {
  const g = /** @type {any} */ (globalThis);
  /** @type {(text: string) => void} */
  let out;
  /** @type {(text: string) => void} */
  let err;
  /** @type {(status: number) => void} */
  let exit;
  if (typeof g.Deno !== "undefined") {
    const encoder = new TextEncoder();
    /** @param {any} file */
    const writer = (file) => {
      let open = true;
      return (/** @type {string} */ text) => {
        const bytes = encoder.encode(text);
        let at = 0;
        while (open && at < bytes.length) {
          try {
            at += file.writeSync(bytes.subarray(at));
          } catch {
            open = false; // a closed pipe ends the output, not the program
          }
        }
      };
    };
    out = writer(g.Deno.stdout);
    err = writer(g.Deno.stderr);
    exit = (status) => {
      g.Deno.exitCode = status;
    };
  } else {
    g.process.stdout.on("error", () => {});
    out = (text) => g.process.stdout.write(text);
    err = (text) => g.process.stderr.write(text);
    exit = (status) => {
      g.process.exitCode = status;
    };
  }
  const output = batches(out, 65536);
  sink = output.write;
  Error.stackTraceLimit = STACK_FRAMES;
  /** @type {Report | null} */
  let failure = null;
  let status = 0;
  try {
    const result = program.main === null ? undefined : program.main();
    const exitStatus = exitStatusOf(result, program);
    if (typeof exitStatus === "number") status = exitStatus;
    else failure = exitStatusReport(exitStatus, program);
  } catch (error) {
    failure = report(error, program);
  }
  output.flush();
  if (failure !== null) {
    err(renderReport(failure));
    status = RUNTIME_ERRORS[failure.kind].status;
  }
  exit(status);
}

/**
 * Runs `main` once in this thread, printed text going to `write`, with no
 * limit: what a benchmark or a test does with a module assembled with the
 * `library` entry. A runtime error is thrown as is.
 * @param {Program} program
 * @param {(text: string) => void} output
 */
export function runWith(program, output) {
  sink = output;
  outputLimit = Infinity;
  outputBytes = 0;
  return program.main === null ? undefined : program.main();
}

/**
 * Serves the program inside the worker `nazm run` and `nazm test` start:
 * each message runs `main` or one test and answers with its output (in
 * pieces, as it goes) and its outcome.
 * @param {Program} program
 */
export function serveWorker(program) {
  const g = /** @type {any} */ (globalThis);
  /** @param {unknown} message */
  const post = (message) => g.postMessage(message);
  Error.stackTraceLimit = STACK_FRAMES;
  g.onmessage = (/** @type {{ data: any }} */ event) => {
    const request = event.data;
    $stop = new Int32Array(request.stop);
    timeoutText = request.timeoutText;
    outputLimit = request.outputLimit;
    outputBytes = 0;
    const output = batches((text) => post({ type: "output", text }), 16384);
    const flush = output.flush;
    sink = output.write;
    const started = performance.now();
    try {
      const run = request.test === null ? program.main : program.tests[request.test][1];
      const result = run === null ? undefined : run();
      const milliseconds = performance.now() - started;
      flush();
      const exitStatus = request.test === null ? exitStatusOf(result, program) : 0;
      if (typeof exitStatus === "number") {
        post({ type: "done", status: exitStatus, milliseconds });
      } else {
        post({ type: "failed", report: exitStatusReport(exitStatus, program), milliseconds });
      }
    } catch (error) {
      const milliseconds = performance.now() - started;
      flush();
      post({ type: "failed", report: report(error, program), milliseconds });
    }
  };
  post({ type: "ready" });
}
