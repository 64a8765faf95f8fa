/**
 * The nazm-mcp server: the SDK's McpServer for both protocol eras, fed by
 * our strict stdio transport and gate, with every tool call forwarded to the
 * analysis worker. This module computes no fact: it validates, forwards and
 * wraps.
 *
 * @module
 */
import { McpServer } from "@modelcontextprotocol/server";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { type AnalysisBridge, startAnalysis } from "./bridge.ts";
import { createGate, LEGACY_REVISIONS, MODERN_REVISIONS } from "./gate.ts";
import type { Logger } from "./log.ts";
import type { CallReply } from "./protocol.ts";
import {
  type Publication,
  renameInResult,
  renameInSchema,
  textBlockOf,
  type ToolNameMap,
  toolNameMap,
} from "./publishing.ts";
import { LineTransport, writerOf } from "./transport.ts";
import type { AnyZodObject, ServerPaths, ToolDefinition } from "./types.ts";
import type { GeneratedValidator, ValidationError } from "./validators/validators.d.ts";
import { generatedValidators, type ToolValidators } from "./schema_validators.ts";

/** The annotations every nazm-mcp tool carries: it reads, and changes nothing. */
export const TOOL_ANNOTATIONS = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/** Everything a server needs, fixed at startup. */
export interface ServerOptions {
  /** Server name and version for serverInfo. */
  readonly name: string;
  readonly version: string;
  /** The tools offered (the registry's TOOLS). */
  readonly tools: readonly ToolDefinition[];
  /** The folder holding the published schema/ files (the server's own repository). */
  readonly schemaDir: string;
  /** Root, source root and docs repository, absolute and real. */
  readonly paths: ServerPaths;
  /** Which results also carry a text block, and how tool names are published (publishing.ts). */
  readonly publication: Publication;
  readonly log: Logger;
  /** Input and output streams (stdin, stdout). */
  readonly input: ReadableStream<Uint8Array>;
  readonly output: { write(p: Uint8Array): Promise<number> };
  /** Called once after the input ended, every request was answered and the worker stopped. */
  readonly onExit: () => void;
  /**
   * The analysis, started (warm) by the caller before this module loaded
   * (main.ts); when absent the server starts its own with the three options
   * below. The server terminates it when it ends.
   */
  readonly bridge?: AnalysisBridge;
  /** The worker module (tests); defaults to src/mcp/worker.ts. */
  readonly workerModule?: URL;
  /** How long a call may run before the worker is restarted (tests); see bridge.ts. */
  readonly callTimeoutMs?: number;
  /** The analysis heap's limit in MiB (tests); see bridge.ts. */
  readonly heapMb?: number;
  /**
   * The validators of the tools' published schemas (tests); defaults to
   * those `deno task schemas` generated for nazm-mcp's tools.
   */
  readonly validators?: Promise<ToolValidators>;
}

/** A running server. */
export interface RunningServer {
  /** Resolves after input ended, in-flight requests were answered and the worker stopped. */
  readonly finished: Promise<void>;
  /**
   * Resolves once the server has loaded all its code (the validators load
   * after the start): main.ts revokes the read permission after it.
   */
  readonly loaded: Promise<void>;
}

/** Reads and parses one published schema file (a bug when missing: the build is broken). */
export function loadPublishedSchema(
  schemaDir: string,
  file: string,
): Record<string, unknown> {
  const text = Deno.readTextFileSync(`${schemaDir}/${file}`);
  const schema = JSON.parse(text);
  if (
    schema === null || typeof schema !== "object" || schema.type !== "object"
  ) {
    throw new Error(`schema/${file} has no root "type": "object"`);
  }
  return schema;
}

/** What the server tells a client about itself at the start (both eras). */
export const INSTRUCTIONS =
  "Read-only, compiler-backed facts about one Nazm program (the --root compilation): semantic context, snapshots and deltas, planned (never applied) patches, diagnostics and the check summary; and Nazm's own documentation and repository map. To learn Nazm, read the language card first: nazm.docs_index with document `language-card` gives the state, nazm.docs_section with id `language-card` the whole language in one section. Every call re-reads the disk; nothing is written.";

/** Starts serving on the given streams. */
export function startServer(options: ServerOptions): RunningServer {
  const { log, tools, publication } = options;
  const names = toolNameMap(tools.map((tool) => tool.name), publication.names);
  // Keyed by canonical name; what a client sees is renamed for the mode.
  const schemas = new Map(
    tools.map((tool) => [
      tool.name,
      renameInSchema(loadPublishedSchema(options.schemaDir, tool.outputSchema), names),
    ]),
  );
  const validators = options.validators ?? generatedValidators(publication.names);
  const published = new Map(
    [...schemas].map((
      [name, schema],
    ) => [name, validatedSchema(schema, validatorOf(validators, name))]),
  );
  // Keyed by published name: only the running mode's names are tools.
  const inputs = new Map(tools.map((tool) => [names.publishedOf(tool.name), tool.input]));
  const bridge = options.bridge ?? startAnalysis(options.paths, log, {
    module: options.workerModule,
    callTimeoutMs: options.callTimeoutMs,
    heapMb: options.heapMb,
  });

  const factory = () => {
    const server = new McpServer(
      {
        name: options.name,
        version: options.version,
        title: "Nazm compiler facts",
      },
      {
        capabilities: { tools: { listChanged: false } },
        // Exactly these: the SDK's default list also echoes 2024-10-07.
        supportedProtocolVersions: [...LEGACY_REVISIONS, ...MODERN_REVISIONS],
        instructions: names.renameMentions(INSTRUCTIONS),
      },
    );
    for (const tool of tools) {
      server.registerTool(
        names.publishedOf(tool.name),
        {
          title: names.renameMentions(tool.title),
          description: names.renameMentions(tool.description),
          inputSchema: publishedInput(tool.input, names),
          outputSchema: published.get(tool.name)!.standard,
          annotations: { ...TOOL_ANNOTATIONS },
        },
        async (args: Record<string, unknown>) => {
          const started = performance.now();
          // A baseline comes as the bytes the transport cut out of its line.
          const baseline = transport.takeRaw(args.baseline);
          const replied = bridge.call(
            tool.name,
            baseline === undefined ? args : { ...args, baseline },
          );
          published.get(tool.name)!.warm();
          const reply = await replied;
          log.debug(
            `${tool.name} ${reply.kind} in ${(performance.now() - started).toFixed(1)} ms`,
          );
          return toolResult(tool.name, reply, {
            publication,
            names,
            check: await published.get(tool.name)!.check,
            log,
          });
        },
      );
    }
    return server;
  };

  let finish!: () => void;
  const finished = new Promise<void>((resolve) => finish = resolve);
  const gate = createGate((name) => inputs.get(name));
  const transport = new LineTransport({
    input: options.input,
    write: writerOf(options.output),
    gate: (message) => gate.check(message),
    log,
    onInputEnd: () => {
      log.debug("input ended and every request is answered; shutting down");
      bridge.terminate();
      const closing = handle.close();
      closing.catch((error) => log.warn(`closing the server failed: ${error}`)).finally(() => {
        finish();
        options.onExit();
      });
    },
  });
  // onInputEnd runs only after input has been read, so long after this line.
  const handle = serveStdio(factory, {
    legacy: "serve",
    transport,
    onerror: (error) => log.info(`protocol: ${error.message}`),
  });
  return { finished, loaded: validators.then(() => {}) };
}

/** Checks a value against a published schema; returns a problem or undefined. */
export type SchemaCheck = (value: unknown) => string | undefined;

/** A published JSON Schema as the SDK takes it (a Standard Schema with its JSON Schema). */
export interface PublishedStandardSchema {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly jsonSchema: {
      readonly input: () => Record<string, unknown>;
      readonly output: () => Record<string, unknown>;
    };
    readonly validate: (data: unknown) => ValidationResult | Promise<ValidationResult>;
  };
}

type ValidationResult = { readonly value: unknown } | {
  readonly issues: readonly { readonly message: string }[];
};

/** The validator of a tool's published schema, once they are loaded. */
function validatorOf(
  validators: Promise<ToolValidators>,
  tool: string,
): Promise<GeneratedValidator> {
  return validators.then((loaded) => {
    const validate = loaded[tool];
    // A bug: `deno task schemas` writes one for every tool, and a test checks them.
    if (validate === undefined) throw new Error(`no validator for ${tool}'s published schema`);
    return validate;
  });
}

/**
 * `schema` as tools/list publishes it (unchanged), validated by its
 * generated validator: Ajv's code for that very schema, compiled by `deno
 * task schemas` (scripts/gen_schemas.ts) rather than at startup, where the
 * eleven compilations cost some 300 ms of CPU that the first analysis needs
 * (docs/architecture.md §8.5). `check` is the same validation as a
 * {@link SchemaCheck}, once the validator's module is loaded. The SDK
 * validates each answer again right after our check; the value just found
 * valid is remembered for that one validation, so that a large answer is
 * not walked twice.
 *
 * `warm` has V8 compile the validator before its first answer comes: its
 * code is one function of up to 190 KB, compiled when first called, which
 * took 10 to 55 ms of the first answer (measured on Deno 2.9.6). The server
 * warms a tool's validator while the analysis works on its first call.
 */
export function validatedSchema(
  schema: Record<string, unknown>,
  validator: Promise<GeneratedValidator>,
): {
  readonly standard: PublishedStandardSchema;
  readonly check: Promise<SchemaCheck>;
  readonly warm: () => void;
} {
  // Weakly, and for one more validation only: an answer may be tens of MB
  // of objects, which must not outlive its sending.
  let lastValid: WeakRef<object> | undefined;
  const validateWith = (validate: GeneratedValidator, data: unknown): ValidationResult => {
    const remembered = lastValid?.deref();
    lastValid = undefined;
    if (data !== null && typeof data === "object" && data === remembered) return { value: data };
    if (!validate(data)) return { issues: (validate.errors ?? []).map(issueOf) };
    if (data !== null && typeof data === "object") lastValid = new WeakRef(data);
    return { value: data };
  };
  let loaded: GeneratedValidator | undefined;
  const check = validator.then((validate): SchemaCheck => {
    loaded = validate;
    return (value) => {
      const result = validateWith(validate, value);
      return "issues" in result
        ? result.issues.map((issue) => issue.message).join("; ")
        : undefined;
    };
  });
  const standard: PublishedStandardSchema = {
    "~standard": {
      version: 1,
      vendor: "nazm",
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (data) =>
        loaded === undefined
          ? validator.then((validate) => validateWith(validate, data))
          : validateWith(loaded, data),
    },
  };
  let warmed = false;
  const warm = () => {
    if (warmed) return;
    warmed = true;
    // Any value compiles the whole function; null fails at its first test.
    validator.then((validate) => validate(null));
  };
  return { standard, check, warm };
}

function issueOf(error: ValidationError): { message: string } {
  const place = error.instancePath === "" ? "/" : error.instancePath;
  return { message: `${place} ${error.message ?? "is invalid"}` };
}

/**
 * A tool's input as tools/list publishes it: the zod object itself under
 * dotted names; otherwise the same object (it still validates) whose
 * rendered JSON Schema has its mentions of tools renamed.
 */
function publishedInput(input: AnyZodObject, names: ToolNameMap): AnyZodObject {
  if (names.naming === "dotted") return input;
  const standard = input["~standard"] as unknown as {
    jsonSchema: Record<"input" | "output", (options: unknown) => Record<string, unknown>>;
  };
  return {
    "~standard": {
      ...input["~standard"],
      jsonSchema: {
        input: (options: unknown) => renameInSchema(standard.jsonSchema.input(options), names),
        output: (options: unknown) => renameInSchema(standard.jsonSchema.output(options), names),
      },
    },
  } as unknown as AnyZodObject;
}

/**
 * The tool result for a worker reply: an answer once in structuredContent
 * with `content: []`; a refusal the same way with `isError: true`. A value
 * its schema rejects, or a bug in the worker, is an `internal_error` result:
 * `isError: true`, no structured content (it could not be valid against
 * every tool's schema), one text block. The publication adds a text block
 * to answers and refusals (`all`) or to refusals only (`refusals`), and
 * publishes the names of tools the value cites.
 */
export function toolResult(
  tool: string,
  reply: CallReply,
  options: {
    publication: Publication;
    names?: ToolNameMap;
    check?: SchemaCheck;
    log?: Logger;
  },
): CallToolResult {
  const names = options.names ?? toolNameMap([tool], options.publication.names);
  const shown = names.publishedOf(tool);
  const value = reply.kind === "internal_error"
    ? undefined
    : renameInResult(reply.value, reply.kind, names) as Record<string, unknown>;
  let failure = reply.kind === "internal_error" ? reply.message : undefined;
  if (failure === undefined && options.check) {
    const problem = options.check(value);
    if (problem !== undefined) {
      failure = `the ${reply.kind} does not match its published schema: ${problem}`;
      options.log?.error(`${shown}: ${failure}`);
    }
  }
  if (failure !== undefined || reply.kind === "internal_error" || value === undefined) {
    return {
      isError: true,
      content: [{
        type: "text",
        text: `internal_error: ${shown} failed inside the server: ${failure}`,
      }],
    };
  }
  const text = textBlockOf(reply.kind, value, options.publication.content);
  const result: CallToolResult = {
    content: text === undefined ? [] : [{ type: "text", text }],
    structuredContent: value,
  };
  if (reply.kind === "refusal") result.isError = true;
  return result;
}
