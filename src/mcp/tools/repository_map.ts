/**
 * nazm.repository_map: the Nazm repository's context map
 * (docs/architecture.md §7.35).
 *
 * @module
 */
import { RepositoryMapInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.repository_map",
  title: "Nazm repository map",
  description:
    "Returns the map of the Nazm repository itself (the one given as --docs, or the one the server was built from — never the root program's project): every entity with a durable identity — the package and its targets, source roots, the example compilation roots with their modules and durable definitions, the documents and their sections, the published schemas, and mutation profiles saying what changes together for a kind of change and which checks must pass — each with its id, kind, name, authority, parent, structural relations (depends_on, imports, calls, uses, types, changes, checked_by, ...) and how to retrieve it, plus the repository state. It carries no source body and no section text. Call it first, then pass one to eight of its ids as seeds, with its state, to nazm.task_context for the minimum context of a task; sections can also be read with nazm.docs_section and the map's docs_state.",
  input: RepositoryMapInput,
  outputSchema: "nazm.repository-map-1.json",
});
