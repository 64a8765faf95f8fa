/**
 * nazm.test-summary/1 and nazm.build-summary/1: what `nazm test
 * --summary-json` and `nazm build --summary-json` print. No tool answers
 * with them (the server never runs or builds a program, seed 000); they
 * are published here beside the tools' schemas, generated the same way.
 *
 * @module
 */
import { z } from "zod";
import type { Frozen } from "./outcome.ts";
import { defineOutputSchema } from "./schema_kit.ts";
import { Compiler, DefinitionKey, Digest, Place } from "./common.ts";
import { DiagnosticReference } from "./diagnostics.ts";

const RuntimeErrorKind = z.enum([
  "panic",
  "assertion",
  "overflow",
  "division_by_zero",
  "conversion",
  "stack_overflow",
  "out_of_memory",
  "output_limit",
  "timeout",
  "exit_status",
  "internal",
]);

const Milliseconds = z.number().min(0).describe("wall-clock milliseconds, to the microsecond");

const TestResult = z.strictObject({
  key: z.string()
    .describe("`module.path::name`, in the module's namespace of tests"),
  name: z.string(),
  module: z.string(),
  place: Place.describe("the test's name in its declaration"),
  status: z.enum(["passed", "failed"]),
  duration_ms: Milliseconds,
  failure: z.strictObject({
    kind: RuntimeErrorKind.describe("the runtime error (docs/specification.md §13.9)"),
    message: z.string(),
    place: Place.nullable().describe(
      "where it was raised (a zero-width place), or null when unknown (a test terminated inside the runtime)",
    ),
    stack: z.array(z.strictObject({
      function: z.string().describe("the function's name, or `test NAME`"),
      place: Place,
    })).describe("the Nazm call stack, innermost first"),
  }).nullable(),
  output: z.string().describe("what the test printed"),
});

export const TestSummaryAnswer = z.strictObject({
  schema: z.literal("nazm.test-summary/1"),
  compiler: Compiler,
  root: z.string(),
  status: z.enum(["passed", "failed", "refused"]).describe(
    "refused: the compilation has errors and no test ran",
  ),
  exit_status: z.union([z.literal(0), z.literal(1)]),
  filter: z.string().nullable(),
  passed: z.int().min(0),
  failed: z.int().min(0),
  filtered_out: z.int().min(0),
  duration_ms: Milliseconds,
  tests: z.array(TestResult).describe("in the order run: by module, then source order"),
  diagnostics: z.array(DiagnosticReference).describe(
    "the compilation's diagnostics, as nazm check --summary-json lists them, but a missing main",
  ),
});

export const TEST_SUMMARY_SCHEMA = defineOutputSchema({
  file: "nazm.test-summary-1.json",
  title: "nazm.test-summary/1",
  description:
    "What nazm test --summary-json concludes: each test run with its key, place, status, duration, output and failure, the counts, and the compilation's diagnostics.",
  answer: TestSummaryAnswer,
  refusal: null,
});

export const BuildSummaryAnswer = z.strictObject({
  schema: z.literal("nazm.build-summary/1"),
  compiler: Compiler,
  root: z.string(),
  status: z.enum(["built", "refused"]).describe(
    "refused: the program has errors and nothing was written",
  ),
  exit_status: z.union([z.literal(0), z.literal(1)]),
  output: z.strictObject({
    path: z.string().describe("the file written, absolute"),
    bytes: z.int().min(0),
    digest: Digest.describe("BLAKE3 of the file's exact bytes"),
  }).nullable(),
  entry: z.strictObject({
    key: DefinitionKey,
    place: Place.describe("`main`'s name in its declaration"),
  }).nullable(),
  diagnostics: z.array(DiagnosticReference).describe(
    "the compilation's diagnostics, exactly as nazm check --summary-json lists them",
  ),
});

export const BUILD_SUMMARY_SCHEMA = defineOutputSchema({
  file: "nazm.build-summary-1.json",
  title: "nazm.build-summary/1",
  description:
    "What nazm build --summary-json did: the JavaScript file written, its size and BLAKE3 digest, the entry point, and the compilation's diagnostics.",
  answer: BuildSummaryAnswer,
  refusal: null,
});

export type TestSummaryAnswer = Frozen<z.infer<typeof TestSummaryAnswer>>;
export type BuildSummaryAnswer = Frozen<z.infer<typeof BuildSummaryAnswer>>;
