/**
 * The annotated goldens lose nothing: for every fact a rendering reads — each
 * leaf of the serialized diagnostics, the model's facts, a context packet —
 * changing it (a number +1, a string extended, a boolean flipped, null made a
 * value, a list shortened, lengthened or reordered) changes the rendered text
 * or makes the rendering refuse it. So a golden diff shows every change the
 * old JSON goldens showed, and more.
 */
import { assertEquals } from "../support/assert.ts";
import { goldenCases } from "../support/golden.ts";
import { renderDiagnostics } from "../support/render_diagnostics.ts";
import { type ModelFacts, modelFacts, renderModel } from "../support/render_model.ts";
import { renderContext } from "../support/render_context.ts";
import { LineIndex } from "../../src/base/mod.ts";
import { compileRoot, semanticContext } from "../../src/facts/mod.ts";
import type { ContextPacket } from "../../src/contracts/mod.ts";
import {
  type DiagnosticJson,
  loadCompilation,
  serializeDiagnostics,
} from "../../src/semantics/mod.ts";
import { parse } from "../../src/syntax/mod.ts";
import { loadCase, splitCase, writtenFiles } from "../semantics/_support.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every one-step change of `value`, each with the path it changed. */
export function perturbations(value: Json, path = "$"): [string, Json][] {
  if (value === null) return [[path, "x"]];
  if (typeof value === "boolean") return [[path, !value]];
  if (typeof value === "number") return [[path, value + 1]];
  if (typeof value === "string") return [[path, value + "x"]];
  const out: [string, Json][] = [];
  if (Array.isArray(value)) {
    if (value.length > 0) {
      out.push([`${path} without its last`, value.slice(0, -1)]);
      out.push([`${path} with its first twice`, [value[0], ...value]]);
    }
    if (value.length > 1 && JSON.stringify(value[0]) !== JSON.stringify(value[1])) {
      out.push([`${path} with its first two swapped`, [value[1], value[0], ...value.slice(2)]]);
    }
    value.forEach((item, i) => {
      for (const [p, changed] of perturbations(item, `${path}[${i}]`)) {
        out.push([p, value.map((x, j) => (j === i ? changed : x))]);
      }
    });
    return out;
  }
  for (const [key, item] of Object.entries(value)) {
    for (const [p, changed] of perturbations(item, `${path}.${key}`)) {
      out.push([p, { ...value, [key]: changed }]);
    }
  }
  return out;
}

/** The paths whose change `render` neither shows nor refuses. */
export function unseen(value: Json, render: (value: Json) => string): string[] {
  const original = render(value);
  const missed: string[] = [];
  for (const [path, changed] of perturbations(value)) {
    let text: string | null;
    try {
      text = render(changed);
    } catch {
      text = null;
    }
    if (text === original) missed.push(path);
  }
  return missed;
}

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Json;
const decoder = new TextDecoder();

Deno.test("every field of every semantic golden's diagnostics shows in its rendering", () => {
  for (const path of goldenCases("tests/golden/semantics", ".nz")) {
    const bytes = Deno.readFileSync(path);
    const shown = writtenFiles(bytes);
    const diagnostics = asJson(serializeDiagnostics(loadCase(splitCase(bytes))));
    assertEquals(
      unseen(diagnostics, (d) => renderDiagnostics(d as unknown as DiagnosticJson[], shown)),
      [],
      path,
    );
  }
});

Deno.test("every field of every syntax golden's diagnostics shows in its rendering", () => {
  for (const path of goldenCases("tests/golden/syntax", ".nz")) {
    const bytes = Deno.readFileSync(path);
    const { diagnostics } = parse(bytes, "case.nz");
    const serialized = asJson(
      serializeDiagnostics({
        files: [{ path: "case.nz", bytes, lineIndex: new LineIndex(bytes) }],
        diagnostics,
      }),
    );
    const files = [{ path: "case.nz", bytes }];
    assertEquals(
      unseen(serialized, (d) => renderDiagnostics(d as unknown as DiagnosticJson[], files)),
      [],
      path,
    );
  }
});

Deno.test("every fact of a model shows in its rendering or is checked by it", () => {
  const programs = [
    loadCompilation("examples/shapes/main.nz"),
    loadCase(splitCase(Deno.readFileSync("tests/golden/semantics/N0204_duplicate_definition.nz"))),
    loadCase(splitCase(Deno.readFileSync("tests/golden/semantics/N0401_unused_local.nz"))),
  ];
  for (const c of programs) {
    const facts = asJson(modelFacts(c));
    assertEquals(
      unseen(facts, (f) => renderModel(c.files, f as unknown as ModelFacts)),
      [],
      decoder.decode(c.files[0].bytes).slice(0, 40),
    );
  }
});

Deno.test("every field of every context golden's packet shows in its rendering or is checked by it", () => {
  for (const path of goldenCases("tests/golden/context", ".request.json")) {
    const request = JSON.parse(Deno.readTextFileSync(path));
    const dir = request.program ?? `examples/${request.example}`;
    const config = { root: `${dir}/main.nz`, sourceRoot: dir };
    const outcome = semanticContext(config, request.declaration);
    if (outcome.kind !== "answer") throw new Error(path);
    const files = compileRoot(config).files;
    assertEquals(
      unseen(asJson(outcome.value), (p) => renderContext(p as unknown as ContextPacket, files)),
      [],
      path,
    );
  }
});
