// One call of each of nazm-mcp's eleven tools, in an order that feeds each
// answer's state into the next call (a snapshot into the delta, the index's
// state into the detail, and so on). `call(canonicalName, args)` calls the
// tool through a real client and returns the structured answer it got.
// Used by the client probes beside this file (Node programs, no Deno).

/** Calls every tool once (twice for refusals), returning [canonicalName, args][] called. */
export async function callEveryTool(call) {
  const called = [];
  const ask = async (name, args) => {
    called.push([name, args]);
    return await call(name, args);
  };
  await ask("nazm.semantic_context", { file: "main.nz", position: { line: 5, column: 4 } });
  const snapshot = await ask("nazm.semantic_snapshot", {});
  await ask("nazm.semantic_delta", { baseline: snapshot });
  await ask("nazm.semantic_patch", {
    operation: "rename",
    file: "main.nz",
    position: { line: 5, column: 4 },
    new_name: "describe_size",
  });
  const index = await ask("nazm.diagnostics", {});
  const first = index.diagnostics[0];
  await ask("nazm.diagnostic_detail", { id: first?.id ?? "no-such-id", state: index.state.source });
  await ask("nazm.command_summary", {});
  const docs = await ask("nazm.docs_index", {});
  const section = docs.documents.flatMap((document) => document.sections)[0];
  await ask("nazm.docs_section", { id: section.id, state: docs.state });
  const map = await ask("nazm.repository_map", {});
  await ask("nazm.task_context", {
    seeds: [map.entities[0].id],
    state: map.state,
    intent: "understand",
  });
  return called;
}

/** The server command a probe starts, from its first argument (JSON). */
export function serverCommand() {
  const spec = JSON.parse(process.argv[2]);
  return { command: spec.command, args: spec.args, env: spec.env, cwd: spec.cwd };
}
