/**
 * The duplicate-definition model (specification §5.1): the second `fn twin`
 * (N0204) is a definition with a place and its own key, `main::twin#2`, so
 * the context packet, the diagnostics' owners, the snapshot and the delta
 * all name it alike; references to `twin` still mean the first.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { tempProgram } from "../support/fixtures.ts";
import {
  diagnosticsIndex,
  type Outcome,
  semanticContext,
  semanticDelta,
  semanticPatch,
  semanticSnapshot,
} from "../../src/facts/mod.ts";

function answerOf<T>(outcome: Outcome<T>): T {
  if (outcome.kind !== "answer") throw new Error(`refused: ${JSON.stringify(outcome.value)}`);
  return outcome.value;
}

const PROGRAM = `fn twin(n: Int) -> Int { n + 1 }

fn twin(n: Int) -> Int { n + true }

fn main() -> Int { twin(1) }
`;

Deno.test("duplicates: the second definition has a context packet under its own key", () => {
  const program = tempProgram({ "main.nz": PROGRAM });
  try {
    const config = { root: program.root, sourceRoot: program.dir };
    const packet = answerOf(semanticContext(config, {
      file: "main.nz",
      position: { line: 3, column: 4 },
    }));
    assertEquals(packet.target.key, "main::twin#2");
    assertEquals(packet.target.name, "twin");
    assertEquals(packet.target.source, "fn twin(n: Int) -> Int { n + true }");
    // A duplicate is a definition: nothing can name it, so it is also never used (N0403).
    assertEquals(packet.diagnostics.map((d) => d.code), ["N0204", "N0403", "N0310"]);
    // The first keeps the plain key, and every reference to `twin`.
    const first = answerOf(semanticContext(config, {
      file: "main.nz",
      position: { line: 5, column: 20 },
    }));
    assertEquals(first.target.key, "main::twin");
    assertEquals(first.called_by.map((l) => l.key), ["main::main"]);
  } finally {
    program.dispose();
  }
});

Deno.test("duplicates: diagnostics in the second definition are owned by it", () => {
  const program = tempProgram({ "main.nz": PROGRAM });
  try {
    const index = answerOf(diagnosticsIndex({ root: program.root, sourceRoot: program.dir }));
    assertEquals(index.diagnostics.map((d) => [d.code, d.owner]), [
      ["N0204", "main::twin#2"],
      ["N0403", "main::twin#2"],
      ["N0310", "main::twin#2"],
    ]);
  } finally {
    program.dispose();
  }
});

Deno.test("duplicates: fixing an error in the second definition shows in the delta", () => {
  const program = tempProgram({ "main.nz": PROGRAM });
  try {
    const config = { root: program.root, sourceRoot: program.dir };
    const before = answerOf(semanticSnapshot(config));
    assertEquals(Object.keys(before.definitions), ["main::main", "main::twin", "main::twin#2"]);
    program.edit("main.nz", "n + true", "n + 2");
    const delta = answerOf(semanticDelta(config, before));
    assertEquals(delta.changed, [{ key: "main::twin#2", sections: ["source", "diagnostics"] }]);
    assertEquals([delta.added, delta.removed], [[], []]);
  } finally {
    program.dispose();
  }
});

Deno.test("duplicates: the second definition can be renamed away; the first is not renamed", () => {
  const program = tempProgram({ "main.nz": PROGRAM });
  try {
    const config = { root: program.root, sourceRoot: program.dir };
    const second = answerOf(semanticPatch(config, {
      operation: "rename",
      file: "main.nz",
      position: { line: 3, column: 4 },
      new_name: "triplet",
    }));
    assert(second.target.kind === "definition");
    assertEquals([second.target.key, second.target.new_key], ["main::twin#2", "main::triplet"]);
    assertEquals(second.edits.map((e) => [e.start.line, e.expected, e.replacement]), [
      [3, "twin", "triplet"],
    ]);
    const first = semanticPatch(config, {
      operation: "rename",
      file: "main.nz",
      position: { line: 1, column: 4 },
      new_name: "single",
    });
    assertEquals(first.kind === "refusal" && first.value.reason, "name_conflict");
  } finally {
    program.dispose();
  }
});

Deno.test("duplicates: of three, only the last is renamed, so no key is renumbered", () => {
  const program = tempProgram({
    "main.nz":
      `fn twin() -> Int { 1 }\n\nfn twin() -> Int { 2 }\n\nfn twin() -> Int { 3 }\n\nfn main() -> Int { twin() }\n`,
  });
  try {
    const config = { root: program.root, sourceRoot: program.dir };
    const reason = (line: number) => {
      const outcome = semanticPatch(config, {
        operation: "rename",
        file: "main.nz",
        position: { line, column: 4 },
        new_name: "other",
      });
      return outcome.kind === "refusal" ? outcome.value.reason : outcome.value.target;
    };
    assertEquals(reason(1), "name_conflict");
    assertEquals(reason(3), "name_conflict");
    assertEquals(reason(5), {
      kind: "definition",
      key: "main::twin#3",
      new_key: "main::other",
      name: "twin",
      new_name: "other",
    });
  } finally {
    program.dispose();
  }
});
