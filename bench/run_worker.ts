/**
 * One subject of benchmark "run", in a Worker of its own: a heap of its own,
 * as `nazm run` gives a program, so no subject pays for the benchmark
 * process's heap (the generated 100,000-line program, the compiler's
 * structures) or for another subject's garbage. The first message names the
 * module (it exports `run(output)`); each later one runs it once, after a
 * full collection, and answers with the time and the output.
 *
 * @module
 */
type Runner = (output: (text: string) => void) => unknown;

let run: Runner | null = null;
const gc = (globalThis as { gc?: () => void }).gc;

self.onmessage = async (event: MessageEvent<{ module: string } | { run: true }>) => {
  if ("module" in event.data) {
    run = (await import(event.data.module) as { run: Runner }).run;
    self.postMessage({ ready: true, gc: gc !== undefined });
    return;
  }
  gc?.();
  let output = "";
  const started = performance.now();
  run!((text) => (output += text));
  self.postMessage({ ms: performance.now() - started, output });
};
