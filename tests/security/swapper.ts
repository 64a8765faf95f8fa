/**
 * The attacker of tests/security/swap_race_test.ts: a separate process that,
 * as fast as it can until its stdin closes, swaps a path inside a root for a
 * symbolic link out of it and back. On stdin's end it puts things back,
 * prints how many swaps it made and exits 0.
 *
 *   swapper.ts file TARGET INSIDE_BYTES_FILE OUTSIDE_FILE
 *     TARGET becomes a link to OUTSIDE_FILE and a regular file again, each
 *     by an atomic rename, so that it always exists.
 *   swapper.ts exchange A B            (Linux; needs --allow-ffi)
 *     A and B (a folder and a link out of the root) trade places, each time
 *     atomically (renameat2 with RENAME_EXCHANGE), about a million times a
 *     second on two cores.
 */
const [mode, ...args] = Deno.args;

let stop = false;
(async () => {
  for await (const _ of Deno.stdin.readable) { /* drain until the end */ }
  stop = true;
})();

/** Runs `swap` (which makes two swaps) until stdin ends; returns the count. */
async function loop(swap: () => void): Promise<number> {
  let swaps = 0;
  while (!stop) {
    for (let i = 0; i < 200; i++) {
      swap();
      swaps += 2;
    }
    // Let the stdin reader see the end of input.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return swaps;
}

if (mode === "file") {
  const [target, insideCopy, outside] = args;
  const inside = Deno.readFileSync(insideCopy);
  const linkTemp = `${target}.link-swap`;
  const fileTemp = `${target}.file-swap`;
  const swaps = await loop(() => {
    Deno.symlinkSync(outside, linkTemp);
    Deno.renameSync(linkTemp, target);
    Deno.writeFileSync(fileTemp, inside);
    Deno.renameSync(fileTemp, target);
  });
  Deno.writeFileSync(target, inside);
  console.log(swaps);
} else if (mode === "exchange") {
  const libc = Deno.dlopen("libc.so.6", {
    renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32" },
  });
  const AT_FDCWD = -100;
  const RENAME_EXCHANGE = 2;
  const [a, b] = args.map((path) => new TextEncoder().encode(`${path}\0`));
  const exchange = () => {
    if (libc.symbols.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) !== 0) {
      throw new Error("renameat2 failed");
    }
  };
  const swaps = await loop(() => {
    exchange();
    exchange();
  });
  console.log(swaps);
} else {
  console.error("usage: swapper.ts file TARGET INSIDE OUTSIDE | exchange A B");
  Deno.exit(2);
}
