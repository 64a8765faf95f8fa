/**
 * Type bombs: programs of a few hundred bytes whose types double with every
 * `let`, shared by the server's and the language server's security tests.
 *
 * @module
 */

/** The programs, each with `n` lets that double a type. */
export function typeBombs(n: number): Record<string, string> {
  const chain = (name: string, init: (previous: string) => string) =>
    Array.from({ length: n }, (_, k) => `  let ${name}${k + 1} = ${init(`${name}${k}`)};`)
      .join("\n");
  const pair = "record P[A, B] { a: A, b: B }\n\n";
  const either = "enum E[A, B] {\n  L(A),\n  R(B),\n}\n\n";
  const main = (body: string) => `fn main() -> Unit {\n${body}\n}\n`;
  return {
    record: pair +
      main(
        `  let x0 = 1;\n${chain("x", (x) => `P { a: ${x}, b: ${x} }`)}\n  let bad: Int = x${n};`,
      ),
    generic_function: pair + "fn pair[A, B](a: A, b: B) -> P[A, B] {\n  P { a: a, b: b }\n}\n\n" +
      main(`  let x0 = "s";\n${chain("x", (x) => `pair(${x}, ${x})`)}\n  let bad: Int = x${n};`),
    generic_enum: either + "fn both[A](a: A) -> E[A, A] {\n  E.L(a)\n}\n\n" +
      main(`  let x0 = true;\n${chain("x", (x) => `both(${x})`)}\n  let bad: Int = x${n};`),
    function_type: "fn dup[A](a: A) -> fn(A, A) -> A {\n  pick\n}\n\n" +
      "fn pick[A](a: A, b: A) -> A {\n  a\n}\n\n" +
      main(`  let x0 = 1;\n${chain("x", (x) => `dup(${x})`)}\n  let bad: Int = x${n};`),
    list_of_records: pair +
      main(
        `  let x0 = [1];\n${
          chain("x", (x) => `[P { a: ${x}, b: ${x} }]`)
        }\n  let bad: Int = x${n};`,
      ),
    two_unified: pair + main(
      `  let x0 = 1;\n  let y0 = 2;\n${chain("x", (x) => `P { a: ${x}, b: ${x} }`)}\n${
        chain("y", (y) => `P { a: ${y}, b: ${y} }`)
      }\n  let z = if true { x${n} } else { y${n} };\n  let same = x${n} == y${n};\n  let bad: Int = z;`,
    ),
    free_variable: pair +
      main(
        `  let x0 = [];\n${chain("x", (x) => `P { a: ${x}, b: ${x} }`)}\n  let bad: Int = x${n};`,
      ),
    match: pair + either + "fn both[A](a: A) -> E[A, A] {\n  E.L(a)\n}\n\n" + main(
      `  let x0 = P { a: 1, b: 2 };\n${
        chain("x", (x) => `both(${x})`)
      }\n  let _r = match x${n} {\n    E.L(E.L(_)) => 1,\n    E.R(E.R(E.L(_))) => 2,\n  };\n  let worse: Int = x${n}.a;\n  let bad: Int = x${n};`,
    ),
  };
}
