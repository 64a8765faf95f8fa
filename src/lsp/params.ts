/**
 * The parts of a request's params the server reads, checked before it reads
 * them: a client that sends the wrong shape gets InvalidParams naming the
 * field, not an internal error from deep inside an answer.
 *
 * @module
 */
import { ErrorCodes, type Position, type Range, ResponseError } from "vscode-languageserver/node";

export function invalidParams(message: string): ResponseError {
  return new ResponseError(ErrorCodes.InvalidParams, `invalid params: ${message}`);
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/** `textDocument.uri`. */
export function documentUri(params: unknown): string | ResponseError {
  const uri = field(field(params, "textDocument"), "uri");
  return typeof uri === "string" ? uri : invalidParams("`textDocument.uri` is not a string");
}

function isPosition(value: unknown): value is Position {
  return typeof field(value, "line") === "number" && typeof field(value, "character") === "number";
}

/** A position field (its numbers' range is the text map's to judge). */
export function position(params: unknown, name = "position"): Position | ResponseError {
  const value = field(params, name);
  return isPosition(value) ? value : invalidParams(`\`${name}\` is not a position`);
}

/** A range field. */
export function range(params: unknown, name = "range"): Range | ResponseError {
  const value = field(params, name);
  return isPosition(field(value, "start")) && isPosition(field(value, "end"))
    ? value as Range
    : invalidParams(`\`${name}\` is not a range`);
}

/** A string field. */
export function string(params: unknown, name: string): string | ResponseError {
  const value = field(params, name);
  return typeof value === "string" ? value : invalidParams(`\`${name}\` is not a string`);
}

/** `context.includeDeclaration` of a references request. */
export function includeDeclaration(params: unknown): boolean | ResponseError {
  const value = field(field(params, "context"), "includeDeclaration");
  return typeof value === "boolean"
    ? value
    : invalidParams("`context.includeDeclaration` is not a boolean");
}
