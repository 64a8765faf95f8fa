/**
 * The base protocol's frames, found in the client's bytes before
 * vscode-jsonrpc's reader sees them, so that one frame with a wrong
 * `Content-Length` costs that message (and at most the next), not the
 * session.
 *
 * After a lying length the reader is out of step: it takes the rest of one
 * message as the start of the next header block, and drops a block that does
 * not begin with its header. Once out of step it stays so — each dropped
 * block leaves the following message's body as the garbage before the next
 * header — and no request is answered again. Here a header block is read
 * from its last `Content-Length`, wherever it is in the block, and handed on
 * as a clean one.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { Transform, type TransformCallback } from "node:stream";

const HEADER_END = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = /content-length[ \t]*:[ \t]*(\d+)/gi;
const EMPTY = Buffer.alloc(0);

/**
 * Passes each frame on as `Content-Length: N` and its body (the protocol
 * has one encoding, UTF-8, so no other header matters). A header block
 * without a length is passed on unchanged, for the reader to report and drop.
 */
export class Frames extends Transform {
  /** Bytes after the last frame, while a header block is awaited. */
  #head: Buffer = EMPTY;
  /** Bytes of body still to pass on; -1 while a header block is awaited. */
  #body = -1;

  override _transform(chunk: Buffer, _encoding: string, done: TransformCallback): void {
    let rest = chunk;
    while (rest.length > 0) {
      if (this.#body < 0) {
        this.#head = this.#head.length === 0 ? rest : Buffer.concat([this.#head, rest]);
        rest = EMPTY;
        const end = this.#head.indexOf(HEADER_END);
        if (end < 0) break;
        const block = this.#head.subarray(0, end + HEADER_END.length);
        rest = this.#head.subarray(block.length);
        this.#head = EMPTY;
        const length = [...block.toString("latin1").matchAll(CONTENT_LENGTH)].at(-1)?.[1];
        if (length === undefined) {
          this.push(block);
          continue;
        }
        this.push(`Content-Length: ${length}\r\n\r\n`);
        this.#body = Number(length);
      } else {
        const part = rest.subarray(0, this.#body);
        rest = rest.subarray(part.length);
        this.push(part);
        this.#body -= part.length;
      }
      if (this.#body === 0) this.#body = -1;
    }
    done();
  }
}
