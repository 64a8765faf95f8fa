/**
 * The checker never throws: damaged variants of real programs (bytes cut,
 * duplicated, swapped) load with diagnostics, and every diagnostic is well
 * formed (registered code, span inside its file, edits inside their file).
 */
import { assert } from "../support/assert.ts";
import { codeInfo } from "../../src/semantics/mod.ts";
import { type CaseFiles, loadCase, splitCase } from "./_support.ts";

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function mutate(bytes: Uint8Array, next: () => number): Uint8Array {
  const a = Math.floor(next() * bytes.length);
  const b = Math.min(bytes.length, a + Math.floor(next() * 40));
  const kind = Math.floor(next() * 3);
  if (kind === 0) return new Uint8Array([...bytes.subarray(0, a), ...bytes.subarray(b)]);
  if (kind === 1) {
    return new Uint8Array([...bytes.subarray(0, b), ...bytes.subarray(a, b), ...bytes.subarray(b)]);
  }
  const c = Math.floor(next() * bytes.length);
  return new Uint8Array([
    ...bytes.subarray(0, a),
    ...bytes.subarray(c, c + (b - a)),
    ...bytes.subarray(a),
  ]);
}

const SOURCES: CaseFiles[] = [];
for (const name of ["shapes", "ledger"]) {
  const files = new Map<string, Uint8Array>();
  const walk = (dir: string, prefix: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(`${dir}/${e.name}`, `${prefix}${e.name}/`);
      else if (e.name.endsWith(".nz")) {
        files.set(`${prefix}${e.name}`, Deno.readFileSync(`${dir}/${e.name}`));
      }
    }
  };
  walk(`examples/${name}`, "");
  SOURCES.push({ files, root: "main.nz", refused: new Map() });
}
SOURCES.push(splitCase(Deno.readFileSync("tests/golden/semantics/N0306_non_exhaustive.nz")));

Deno.test("robustness: damaged programs give diagnostics, never exceptions", () => {
  const next = rng(42);
  let runs = 0;
  for (const source of SOURCES) {
    const paths = [...source.files.keys()];
    for (let i = 0; i < 60; i++) {
      const files = new Map(source.files);
      const path = paths[Math.floor(next() * paths.length)];
      files.set(path, mutate(files.get(path)!, next));
      const c = loadCase({ ...source, files });
      runs++;
      for (const d of c.diagnostics) {
        assert(codeInfo(d.code) !== undefined, `registered ${d.code}`);
        if (d.file !== null && d.span !== null) {
          const size = files.get(d.file)?.length ?? 0;
          assert(
            d.span.start <= d.span.end && d.span.end <= size,
            `span of ${d.code} in ${d.file}`,
          );
        }
        for (const f of d.fixes) {
          for (const e of f.edits) {
            assert(e.span.end <= (files.get(e.file)?.length ?? 0), `edit of ${d.code}`);
          }
        }
      }
      void c.model.definitions.length;
    }
  }
  assert(runs === 180);
});
