/**
 * Runs `nazm` in-process through the entry the binary uses, collecting what
 * it writes.
 */
import { main } from "../../src/cli/main.ts";

/** The exit status and the text written to stdout and stderr. */
export async function runNazm(
  ...args: string[]
): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { status, out, err };
}
