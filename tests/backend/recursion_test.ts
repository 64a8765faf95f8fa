/**
 * Where the generated code reads the stop flag: in every self tail call's
 * loop and at the entry of every function on a cycle of calls — direct,
 * mutual, or through a function value — and nowhere else, since a
 * function outside every cycle always returns (src/backend/recursion.ts).
 */
import { assertEquals } from "../support/assert.ts";
import { loadCompilation } from "../../src/semantics/mod.ts";
import { generateModule } from "../../src/backend/mod.ts";
import { recursiveFunctions } from "../../src/backend/recursion.ts";

function checked(source: string): string[] {
  const dir = Deno.makeTempDirSync({ prefix: "nazm-recursion-" });
  try {
    Deno.writeTextFileSync(`${dir}/main.nz`, source);
    const text = generateModule(loadCompilation(`${dir}/main.nz`, { resolve: true }), {
      entry: "standalone",
    });
    const program = text.slice(
      text.indexOf(
        "// ---------------------------------------------------------------- the program",
      ),
    );
    const names: string[] = [];
    let current = "";
    for (const line of program.split("\n")) {
      const m = /^function main\$\$(\w+)\(/.exec(line);
      if (m !== null) current = m[1];
      if (line.includes("$stop[0] !== 0")) names.push(current);
    }
    return names.sort();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("stop checks: loops and cycles of calls only", () => {
  assertEquals(
    checked(`fn helper(n: Int) -> Int {
  n + 1
}

fn count(n: Int, acc: Int) -> Int {
  if n == 0 { acc } else { count(n - 1, helper(acc)) }
}

fn depth(n: Int) -> Int {
  if n == 0 { 0 } else { 1 + depth(n - 1) }
}

fn even(n: Int) -> Bool {
  if n == 0 { true } else { odd(n - 1) }
}

fn odd(n: Int) -> Bool {
  if n == 0 { false } else { even(n - 1) }
}

fn apply(f: fn(Int) -> Int, n: Int) -> Int {
  f(n)
}

fn through_value(n: Int) -> Int {
  if n == 0 { 0 } else { apply(through_value, n - 1) }
}

fn main() -> Unit {
  print(to_string(count(3, 0) + depth(3) + through_value(2)));
  print(to_string(even(4)));
}
`),
    ["apply", "count", "depth", "even", "odd", "through_value"],
  );
});

Deno.test("stop checks: the graph of calls, by function value too", () => {
  const f = (calls: string[], values: string[] = [], callsValues = false) => ({
    calls: new Set(calls),
    values: new Set(values),
    callsValues,
  });
  // a → b → c, no cycle; d calls itself; e ↔ g; h calls a value, and only `i` is named as one;
  // i calls h: a cycle through the value; j calls a value too, but nothing leads back to j.
  const graph = new Map([
    ["a", f(["b"])],
    ["b", f(["c"])],
    ["c", f([])],
    ["d", f(["d"])],
    ["e", f(["g"])],
    ["g", f(["e"])],
    ["h", f([], [], true)],
    ["i", f(["h"])],
    ["k", f(["h"], ["i"])],
    ["j", f([], [], true)],
  ]);
  assertEquals([...recursiveFunctions(graph)].sort(), ["d", "e", "g", "h", "i"]);
});
