/**
 * The one adapter between the checker's results and the back end: every
 * fact the lowering needs — the program's modules, functions, records,
 * enums and tests, what a name or path denotes, which variant a pattern
 * names, an operator's operand type — is read here and nowhere else in
 * src/backend. When the checker's tables change shape, only this file does.
 *
 * @module
 */
import type { LineIndex } from "../base/mod.ts";
import {
  type CheckedProgram,
  type Compilation,
  type DefInfo,
  moduleNameOf,
  PRELUDE_FUNCTIONS,
  type Signature,
  type Type,
  type ValueResolution,
  type VariantResolution,
} from "../semantics/mod.ts";
import type {
  BinaryExpr,
  CallExpr,
  FieldExpr,
  FnDecl,
  NameRef,
  RecordLit,
  TestDecl,
  UnaryExpr,
  VariantPattern,
} from "../syntax/mod.ts";

export type { ValueResolution, VariantResolution };

/** A file of the program, for places. */
export interface ProgramFile {
  /** Relative to the source root, `/` separators. */
  readonly path: string;
  readonly lineIndex: LineIndex;
}

export interface FunctionView {
  readonly key: string;
  readonly name: string;
  /** An index into {@link ProgramView.files}. */
  readonly file: number;
  readonly node: FnDecl;
  /** For each parameter, whether its type is a `List`. */
  readonly listParams: readonly boolean[];
}

export interface TestView {
  /** `module.path::name`. */
  readonly key: string;
  readonly name: string;
  readonly file: number;
  readonly node: TestDecl;
}

export interface RecordView {
  readonly key: string;
  readonly name: string;
  /** Field names in declaration order: the constructor's parameters. */
  readonly fields: readonly string[];
}

export interface EnumView {
  readonly key: string;
  readonly name: string;
  /** `Option` and `Result`: defined by the runtime, printed unqualified. */
  readonly prelude: boolean;
  readonly variants: readonly { readonly name: string; readonly arity: number }[];
}

/** What an operator works on, as far as lowering cares. */
export type OperandKind = "Int" | "Float" | "String" | "Bool" | "Unit" | "other";

/** A checked, error-free compilation, as the back end sees it. */
export interface ProgramView {
  readonly files: readonly ProgramFile[];
  readonly functions: readonly FunctionView[];
  readonly records: readonly RecordView[];
  readonly enums: readonly EnumView[];
  /** Every test of the compilation, by module then source order. */
  readonly tests: readonly TestView[];
  /** The root module's `main`, or null (a compilation that is only tested). */
  readonly main: FunctionView | null;
  /** Whether `main` returns `Int` (its exit status) rather than `Unit`. */
  readonly mainReturnsInt: boolean;
  /** What a bare name (by its `NameRef`) or a path (by its `FieldExpr`) denotes. */
  value(node: NameRef | FieldExpr): ValueResolution | undefined;
  /** What a call's callee denotes when it is a name or a path (parentheses aside); else undefined. */
  callee(call: CallExpr): ValueResolution | undefined;
  variant(pattern: VariantPattern): VariantResolution;
  /** The record a literal builds. */
  record(literal: RecordLit): RecordView;
  recordByKey(key: string): RecordView;
  enumByKey(key: string): EnumView;
  operands(node: BinaryExpr | UnaryExpr): OperandKind;
  /** Whether a prelude function takes a function, which it may call (recursion.ts). */
  preludeTakesFunction(name: string): boolean;
}

const PRELUDE_ENUMS: readonly EnumView[] = [
  {
    key: "Option",
    name: "Option",
    prelude: true,
    variants: [{ name: "Some", arity: 1 }, { name: "None", arity: 0 }],
  },
  {
    key: "Result",
    name: "Result",
    prelude: true,
    variants: [{ name: "Ok", arity: 1 }, { name: "Err", arity: 1 }],
  },
];

function operandKind(type: Type | undefined): OperandKind {
  if (type === undefined || type.kind !== "con") return "other";
  switch (type.name) {
    case "Int":
    case "Float":
    case "String":
    case "Bool":
    case "Unit":
      return type.name;
    default:
      return "other";
  }
}

const views = new WeakMap<Compilation, ProgramView>();

/**
 * The back end's view of a compilation loaded with `resolve: true` (made
 * once per compilation). The caller has made sure it has no error.
 */
export function programView(compilation: Compilation): ProgramView {
  let view = views.get(compilation);
  if (view === undefined) {
    view = makeView(compilation);
    views.set(compilation, view);
  }
  return view;
}

function makeView(compilation: Compilation): ProgramView {
  const checked: CheckedProgram | null = compilation.checked;
  if (checked === null) throw new Error("the compilation was loaded without `resolve`");
  const fileIndex = new Map<string, number>();
  const files: ProgramFile[] = compilation.files.map((f, i) => {
    fileIndex.set(f.path, i);
    return { path: f.path, lineIndex: f.lineIndex };
  });
  const functions: FunctionView[] = [];
  const records = new Map<string, RecordView>();
  const enums = new Map<string, EnumView>(PRELUDE_ENUMS.map((e) => [e.key, e]));
  const tests: TestView[] = [];
  let main: FunctionView | null = null;
  let mainReturnsInt = false;
  const rootModule = moduleNameOf(compilation.root);
  const modules = [...checked.modules].sort((
    a,
    b,
  ) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const m of modules) {
    const file = fileIndex.get(m.file)!;
    for (const def of m.defs.values()) {
      const node = def.node!;
      const signature = checked.signatures.get(def)!;
      if (node.kind === "FnDecl") {
        const listParams = signature.params.map((p) =>
          p.type.kind === "con" && p.type.name === "List"
        );
        const view = { key: def.key, name: def.name, file, node, listParams };
        functions.push(view);
        if (m.name === rootModule && def.name === "main") {
          main = view;
          mainReturnsInt = signature.result.kind === "con" && signature.result.name === "Int";
        }
      } else if (node.kind === "RecordDecl") {
        records.set(def.key, {
          key: def.key,
          name: def.name,
          fields: signature.fields.map((f) => f.name),
        });
      } else {
        enums.set(def.key, enumView(def, signature));
      }
    }
    for (const t of m.tests) tests.push({ key: t.key, name: t.name, file, node: t.node });
  }
  const resolutions = checked.resolutions;
  const must = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the checker recorded no ${what}`);
    return value;
  };
  return {
    files,
    functions,
    records: [...records.values()],
    enums: [...enums.values()].filter((e) => !e.prelude),
    tests,
    main,
    mainReturnsInt,
    value: (node) => resolutions.values.get(node),
    callee: (call) => {
      let callee = call.callee;
      while (callee.kind === "ParenExpr") callee = callee.inner;
      return callee.kind === "NameExpr"
        ? resolutions.values.get(callee.name)
        : callee.kind === "FieldExpr"
        ? resolutions.values.get(callee)
        : undefined;
    },
    variant: (pattern) => must(resolutions.variants.get(pattern), "variant for a pattern"),
    record: (literal) =>
      must(records.get(must(resolutions.records.get(literal), "record")), "record"),
    recordByKey: (key) => must(records.get(key), `record ${key}`),
    enumByKey: (key) => must(enums.get(key), `enum ${key}`),
    operands: (node) => operandKind(resolutions.operands.get(node)),
    preludeTakesFunction: (name) =>
      PRELUDE_FUNCTIONS.get(name)?.params.some((p) => p.type.kind === "fn") ?? false,
  };
}

function enumView(def: DefInfo, signature: Signature): EnumView {
  return {
    key: def.key,
    name: def.name,
    prelude: false,
    variants: signature.variants.map((v) => ({ name: v.name, arity: v.payload.length })),
  };
}
