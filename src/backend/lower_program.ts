/**
 * The whole program lowered: records and enums as classes and constants,
 * then every function (and the tests, when asked) through
 * {@link FunctionLowering}.
 *
 * @module
 */
import type { ProgramView, TestView } from "./checked.ts";
import {
  asciiJson,
  BigConstants,
  type CodeLines,
  type IntLiterals,
  jsName,
  Markers,
  testJsName,
} from "./emit.ts";
import { recursiveFunctions } from "./recursion.ts";
import { FunctionLowering } from "./lower.ts";

/** The program's JavaScript (without the runtime), its lines' markers, and the functions' display names. */
export interface LoweredProgram {
  readonly code: CodeLines;
  readonly markers: Markers;
  /** Display names by function index (the markers' third number). */
  readonly names: readonly string[];
  /** The tests' JavaScript names, in {@link ProgramView.tests} order. */
  readonly tests: readonly string[];
}

/** Lowers every record, enum and function, and the tests when asked. */
export function lowerProgram(
  program: ProgramView,
  options: { readonly tests: boolean; readonly intLiterals?: IntLiterals },
): LoweredProgram {
  const ints = options.intLiterals ?? "safe";
  const markers = new Markers();
  const constants = new BigConstants();
  const declarations: string[] = [];
  const code: CodeLines = { lines: [], marks: [] };
  for (const rec of program.records) {
    const cls = jsName(rec.key);
    const params = rec.fields.map((_, i) => `$${i}`);
    const sets = rec.fields.map((f, i) => `this.$${f} = $${i};`).join(" ");
    declarations.push(`class ${cls} { constructor(${params.join(", ")}) { ${sets} } }`);
    declarations.push(
      `$record(${cls}, ${asciiJson(rec.name)}, ${asciiJson(rec.fields)});`,
    );
  }
  for (const en of program.enums) {
    const cls = jsName(en.key);
    const width = Math.max(0, ...en.variants.map((v) => v.arity));
    const params = Array.from({ length: width }, (_, i) => `$${i}`);
    const sets = params.map((p) => `this.${p} = ${p};`).join(" ");
    declarations.push(
      `class ${cls} { constructor($t${
        params.map((p) => `, ${p}`).join("")
      }) { this.$$t = $t; ${sets} } }`,
    );
    const variants = en.variants.map((v) => [v.name, v.arity]);
    declarations.push(`$enum(${cls}, ${asciiJson(en.name)}, ${asciiJson(variants)});`);
    en.variants.forEach((v, index) => {
      const pads = (from: number) =>
        Array.from({ length: width - from }, () => ", undefined").join("");
      if (v.arity === 0) {
        declarations.push(`const ${cls}$${v.name} = new ${cls}(${index}${pads(0)});`);
      } else {
        const ps = Array.from({ length: v.arity }, (_, i) => `$${i}`);
        declarations.push(
          `function ${cls}$${v.name}(${ps.join(", ")}) { return new ${cls}(${index}, ${
            ps.join(", ")
          }${pads(v.arity)}); }`,
        );
      }
    });
  }
  const names: string[] = [];
  const lowered = program.functions.map((fn) => {
    const index = names.length;
    names.push(fn.name);
    return new FunctionLowering(program, markers, constants, index, fn.file, fn, ints)
      .lowerBody(jsName(fn.key), fn.node.name, fn.node.body);
  });
  const recursive = recursiveFunctions(
    new Map(program.functions.map((fn, i) => [fn.key, lowered[i]])),
  );
  program.functions.forEach((fn, i) => lowered[i].emit(code, recursive.has(fn.key)));
  const tests: string[] = [];
  if (options.tests) {
    program.tests.forEach((t: TestView) => {
      const index = names.length;
      names.push(`test ${t.name}`);
      const name = testJsName(t.key);
      tests.push(name);
      // A test cannot be called: it is on no cycle.
      new FunctionLowering(program, markers, constants, index, t.file, null, ints)
        .lowerBody(name, t.node.name, t.node.body)
        .emit(code, false);
    });
  }
  // Constants, records and enums first: functions refer to them, and they have no markers.
  const head = [...constants.declarations(), ...declarations];
  code.lines.unshift(...head);
  code.marks.unshift(...head.map(() => undefined));
  return { code, markers, names, tests };
}
