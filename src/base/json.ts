/**
 * What JSON.parse hides: a key repeated in one object. JSON.parse keeps the
 * last value silently, so a document with a duplicate would be compared as
 * if it were another; callers that must refuse such input scan the text first.
 *
 * @module
 */

/**
 * The path (`$.a["b"].c`, JSONPath-like) of the first key repeated within
 * one object of a JSON text, or null. The text must be valid JSON (parse it
 * first); the scan is linear and allocation-light, for texts of many MiB.
 */
export function findDuplicateKey(text: string): string | null {
  // One frame per open container: its keys so far (objects only) and the
  // path to it.
  const frames: { keys: Set<string> | null; path: string; pendingKey: string | null }[] = [];
  let i = 0;
  const n = text.length;
  let lastString = "";
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i + 1;
      i++;
      let simple = true;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) {
          simple = false;
          i += 2;
          continue;
        }
        if (d === 0x22) break;
        i++;
      }
      lastString = simple ? text.slice(start, i) : JSON.parse(text.slice(start - 1, i + 1));
      i++;
      // A string followed by ':' is a key of the innermost object.
      let j = i;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (j < n && text.charCodeAt(j) === 0x3a /* : */) {
        const frame = frames[frames.length - 1];
        if (frame?.keys) {
          if (frame.keys.has(lastString)) return `${frame.path}[${JSON.stringify(lastString)}]`;
          frame.keys.add(lastString);
          frame.pendingKey = lastString;
        }
        i = j + 1;
      }
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const parent = frames[frames.length - 1];
      const path = parent === undefined
        ? "$"
        : parent.keys
        ? `${parent.path}[${JSON.stringify(parent.pendingKey)}]`
        : `${parent.path}[]`;
      frames.push({ keys: c === 0x7b ? new Set() : null, path, pendingKey: null });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop();
    }
    i++;
  }
  return null;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
