/**
 * nazm.task_context: the minimum context for a task in the Nazm repository
 * (docs/architecture.md §7.35).
 *
 * @module
 */
import { TaskContextInput } from "../../contracts/mod.ts";
import { defineTool } from "../types.ts";

export default defineTool({
  name: "nazm.task_context",
  title: "Minimum context for a task",
  description:
    "Returns the smallest context the Nazm repository can justify for a task: the seeds you name (one to eight ids from nazm.repository_map, with that answer's state) and every entity one relationship step from each — what a definition calls, uses and names as types, what calls or uses it, its module; a profile's changing entities and checks; a section's parent and subsections — each with the reason it is there, the seed it came from, a priority class (seed, required, related, background), its authority and how to retrieve it again. A seed definition or module comes with its exact source, other definitions by their signature, sections by their exact text. intent narrows the step: edit (the default, the widest), understand (leaves out what depends on the seed), diagnose (only what the seed depends on), test (what exercises the seed first). budget.max_items and budget.max_bytes cut from the least important end; what is cut is listed and makes the answer partial, and a budget the seeds alone exceed is refused insufficient_budget. A stale state is refused stale_state (ask nazm.repository_map again); a seed that is a path or not an id of the map is invalid_request.",
  input: TaskContextInput,
  outputSchema: "nazm.task-context-1.json",
});
