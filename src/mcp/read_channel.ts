/**
 * The read channel between the analysis and the sandbox (reads.ts), apart
 * so that the main thread can make one before it loads the file access
 * code (main.ts starts the analysis first).
 *
 * @module
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";

/** One end of a read channel: its port and the flag both ends share. */
export interface ReadChannel {
  readonly port: MessagePort;
  readonly flag: SharedArrayBuffer;
}

/** A new channel: `client` for the analysis, `server` for the sandbox. */
export function readChannel(): { client: ReadChannel; server: ReadChannel } {
  const { port1, port2 } = new MessageChannel();
  // The answer's flag, and a word no one sets, to sleep on.
  const flag = new SharedArrayBuffer(8);
  return { client: { port: port1, flag }, server: { port: port2, flag } };
}
