/**
 * A confined reader (src/base/files.ts) that records what it read, for tests
 * that prove which files a call reads and which it refuses unread.
 *
 * @module
 */
import { type ConfinedReader, confinedReader } from "../../src/base/mod.ts";

/** The reader, and every path whose bytes it returned, in order. */
export interface RecordingReader {
  readonly read: string[];
  readonly readFile: ConfinedReader;
}

/** Records every path the confined read over `root` returned bytes for. */
export function recordingReader(root: string): RecordingReader {
  const read: string[] = [];
  const confined = confinedReader(root);
  return {
    read,
    readFile: (path, limit) => {
      const bytes = confined(path, limit);
      if (bytes instanceof Uint8Array) read.push(path);
      return bytes;
    },
  };
}
