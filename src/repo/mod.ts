/**
 * The repository layer: the repository map (every entity with a durable
 * identity, from the manifest, the documentation and the compilation roots)
 * and the minimum context for a task. Plain functions over plain data; the
 * CLI (`nazm repo`) and the server (`nazm.repository_map`,
 * `nazm.task_context`) print these objects unchanged.
 *
 * @module
 */
export * from "./map.ts";
export * from "./context.ts";
