/**
 * The parts of a request's params the server reads, checked before it reads
 * them: a client that sends the wrong shape gets InvalidParams naming the
 * field, not an internal error from deep inside an answer.
 *
 * @module
 */
import {
  ErrorCodes,
  type Position,
  type Range,
  ResponseError,
  type TextDocumentContentChangeEvent,
} from "vscode-languageserver/node";

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

function isRange(value: unknown): value is Range {
  return isPosition(field(value, "start")) && isPosition(field(value, "end"));
}

/** A range field. */
export function range(params: unknown, name = "range"): Range | ResponseError {
  const value = field(params, name);
  return isRange(value) ? value : invalidParams(`\`${name}\` is not a range`);
}

/**
 * The changes of a didChange, when they are an array of changes each with a
 * string `text` and, for an incremental change, a range; null otherwise (a
 * notification has no answer: the caller warns and ignores it whole, since
 * applying some of its changes would leave the buffer unlike the editor's).
 */
export function contentChanges(params: unknown): TextDocumentContentChangeEvent[] | null {
  const changes = field(params, "contentChanges");
  if (!Array.isArray(changes)) return null;
  const wellFormed = changes.every((change) =>
    typeof field(change, "text") === "string" &&
    (field(change, "range") === undefined || isRange(field(change, "range")))
  );
  return wellFormed ? changes : null;
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
