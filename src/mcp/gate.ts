/**
 * The protocol gate: strictness the SDK does not give, checked on every
 * message before the SDK sees it (see SDK_NOTES.md, "Leniencies").
 *
 * Eras. The first request pins a connection's era, as the SDK's serveStdio
 * does, and the gate tracks the same decision:
 * - legacy: `initialize` (any requested revision; the SDK echoes 2024-11-05,
 *   2025-03-26, 2025-06-18 and 2025-11-25 and offers 2025-11-25 otherwise);
 * - modern (2026-07-28): a request whose `_meta` carries
 *   `io.modelcontextprotocol/protocolVersion` (`server/discover` first, or a
 *   request directly).
 *
 * Once modern, EVERY request is checked, not only the first: a missing or
 * unsupported revision is -32022 with `data.supported`; a malformed envelope
 * (a revision that is not a string, missing or malformed client
 * capabilities, client info or log level) is -32602. A claim-less request
 * after `server/discover` is not allowed to flip the connection to legacy;
 * only `initialize` may.
 *
 * Tool calls, in both eras: an unknown tool, or arguments the tool's strict
 * zod input rejects (missing, mistyped, unknown), is -32602 — a protocol
 * error, never an `isError` result.
 *
 * `initialize` whose params the SDK would reject (a `protocolVersion` that
 * is missing or not a string, missing capabilities or client info) is -32602
 * with one sentence naming the field; the SDK alone answers -32603 with its
 * validator's dump.
 *
 * @module
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { z } from "zod";
import { describeIssues } from "../contracts/mod.ts";
import type { GateVerdict, RpcError } from "./transport.ts";

/** The modern revisions served. */
export const MODERN_REVISIONS = ["2026-07-28"] as const;
/** The legacy revisions `initialize` echoes; any other is offered the first. */
export const LEGACY_REVISIONS = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
] as const;

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";
const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** The era the gate has pinned the connection to. */
export type Era = "opening" | "probe" | "legacy" | "modern";

/** Looks up a tool's strict input by name. */
// deno-lint-ignore no-explicit-any
export type InputLookup = (name: string) => z.ZodObject<any> | undefined;

/** A gate over one connection. */
export interface ProtocolGate {
  /** Judges one message; updates the era. */
  check(message: JSONRPCMessage): GateVerdict;
  /** The current era. */
  readonly era: Era;
}

/** Creates the gate for one connection. */
export function createGate(inputOf: InputLookup): ProtocolGate {
  let era: Era = "opening";

  function check(message: JSONRPCMessage): GateVerdict {
    if (!("method" in message)) return { kind: "forward" }; // a response to us
    const isRequest = "id" in message;
    const params = (message as { params?: unknown }).params;
    const meta = metaOf(params);
    const claims = meta !== undefined && VERSION_KEY in meta;
    const modernIntent = meta !== undefined &&
      (claims || CAPABILITIES_KEY in meta);

    if (!isRequest) {
      // Notifications never pin an era; a claim-less one before any request
      // would make the SDK pin legacy, so it is dropped instead.
      if (era === "opening" || era === "probe") {
        return claims ? { kind: "forward" } : {
          kind: "drop",
          why: `notification ${message.method} before the era is known`,
        };
      }
      return { kind: "forward" };
    }

    if (message.method === "initialize") {
      const problem = initializeError(params);
      if (problem !== undefined) return reject(problem);
    }

    if (era === "legacy") return checkToolCall(message.method, params);

    if (message.method === "initialize" && !claims) {
      if (era === "modern") return { kind: "forward" }; // the SDK answers the rejection
      era = "legacy";
      return { kind: "forward" };
    }

    if (era === "opening" && !modernIntent) {
      if (message.method === "ping") return { kind: "forward" };
      return reject(missingRevision(message.method));
    }

    const envelope = checkEnvelope(meta, message.method);
    if (envelope) return reject(envelope);
    if (message.method === "server/discover") {
      if (era === "opening") era = "probe";
    } else {
      era = "modern";
    }
    return checkToolCall(message.method, params);
  }

  function checkToolCall(method: string, params: unknown): GateVerdict {
    if (method !== "tools/call") return { kind: "forward" };
    const error = toolCallError(params, inputOf);
    return error ? reject(error) : { kind: "forward" };
  }

  return {
    check,
    get era() {
      return era;
    },
  };
}

function reject(error: RpcError): GateVerdict {
  return { kind: "reject", error };
}

function missingRevision(method: string): RpcError {
  return {
    code: -32022,
    message:
      `Unsupported protocol version: ${method} names no protocol revision; a 2026-07-28 request carries _meta["${VERSION_KEY}"], a legacy client sends initialize first`,
    data: { supported: [...MODERN_REVISIONS] },
  };
}

/** The envelope problem of a modern request, or undefined when it is valid. */
function checkEnvelope(
  meta: Record<string, unknown> | undefined,
  method: string,
): RpcError | undefined {
  if (meta === undefined || !(VERSION_KEY in meta)) {
    return missingRevision(method);
  }
  const version = meta[VERSION_KEY];
  if (typeof version !== "string") {
    return invalidEnvelope(VERSION_KEY, "must be a string");
  }
  if (!(MODERN_REVISIONS as readonly string[]).includes(version)) {
    return {
      code: -32022,
      message: `Unsupported protocol version: ${version}`,
      data: { supported: [...MODERN_REVISIONS], requested: version },
    };
  }
  if (!(CAPABILITIES_KEY in meta)) {
    return invalidEnvelope(CAPABILITIES_KEY, "missing");
  }
  if (!isPlainObject(meta[CAPABILITIES_KEY])) {
    return invalidEnvelope(CAPABILITIES_KEY, "must be an object");
  }
  if (CLIENT_INFO_KEY in meta) {
    const info = meta[CLIENT_INFO_KEY];
    if (
      !isPlainObject(info) || typeof info.name !== "string" ||
      typeof info.version !== "string"
    ) {
      return invalidEnvelope(
        CLIENT_INFO_KEY,
        "must be an object with string name and version",
      );
    }
  }
  if (
    LOG_LEVEL_KEY in meta && !LOG_LEVELS.includes(meta[LOG_LEVEL_KEY] as string)
  ) {
    return invalidEnvelope(
      LOG_LEVEL_KEY,
      `must be one of ${LOG_LEVELS.join(", ")}`,
    );
  }
  return undefined;
}

function invalidEnvelope(key: string, problem: string): RpcError {
  return {
    code: -32602,
    message: `Invalid _meta envelope for protocol revision 2026-07-28: ${key}: ${problem}`,
    data: { envelope: { key, problem } },
  };
}

/** The -32602 error of a malformed tools/call, or undefined when it is well formed. */
export function toolCallError(
  params: unknown,
  inputOf: InputLookup,
): RpcError | undefined {
  if (!isPlainObject(params) || typeof params.name !== "string") {
    return {
      code: -32602,
      message: "Invalid params: tools/call needs a tool name",
    };
  }
  const name = params.name;
  const input = inputOf(name);
  if (input === undefined) {
    return {
      code: -32602,
      message: `Unknown tool: ${name}`,
      data: { tool: name },
    };
  }
  const args = params.arguments ?? {};
  if (!isPlainObject(args)) {
    return {
      code: -32602,
      message: `Invalid arguments for tool ${name}: arguments must be an object`,
      data: { tool: name },
    };
  }
  const parsed = input.safeParse(args);
  if (parsed.success) return undefined;
  const { issues, summary } = describeIssues(parsed.error);
  return {
    code: -32602,
    message: `Invalid arguments for tool ${name}: ${summary}`,
    data: { tool: name, issues },
  };
}

/** What the SDK requires of `initialize`'s params (its own schema is not exported). */
const InitializeParams = z.object({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()),
  clientInfo: z.object({ name: z.string(), version: z.string() }),
});

/** The -32602 error of malformed `initialize` params, or undefined. */
export function initializeError(params: unknown): RpcError | undefined {
  const parsed = InitializeParams.safeParse(params ?? {});
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const field = issue.path.length === 0 ? "params" : `params.${issue.path.join(".")}`;
  const value = issue.path.reduce<unknown>(
    (at, key) => (isPlainObject(at) ? at[key as string] : undefined),
    params,
  );
  const wanted = field === "params.protocolVersion"
    ? 'a string such as "2025-11-25"'
    : issue.code === "invalid_type"
    ? `${
      issue.expected === "object" || issue.expected === "record"
        ? "an object"
        : `a ${issue.expected}`
    }`
    : "valid";
  const problem = value === undefined
    ? "is missing"
    : `must be ${wanted}, not ${describeJson(value)}`;
  return {
    code: -32602,
    message: value === undefined
      ? `Invalid params: initialize needs ${field}, ${wanted}`
      : `Invalid params: initialize's ${field} ${problem}`,
    data: { field, problem },
  };
}

function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type} (${JSON.stringify(value)})`;
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(params)) return undefined;
  const meta = params._meta;
  return isPlainObject(meta) ? meta : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
