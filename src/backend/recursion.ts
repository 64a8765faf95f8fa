/**
 * Which functions can be entered again before they return — the only way
 * a Nazm program runs without end, since Nazm has no loop but recursion.
 * Only those (and every self tail call's loop) need the stop flag's check
 * that makes `--timeout` stop a program where it is: a function outside
 * every cycle of calls always returns after finitely many steps.
 *
 * The graph is conservative: an edge for every direct call, and from any
 * function that calls a function value to every function used as a value
 * anywhere. Calling a prelude function that takes a function counts as
 * calling a function value; variant constructors call nothing.
 * A function needs the check when it is in a cycle of that graph: a
 * strongly connected component of two or more, or one that calls itself.
 * The lowering records the edges as it lowers each call and name, so the
 * graph costs no walk of its own.
 *
 * @module
 */
/** What the lowering of one function saw of the calls it makes. */
export interface CallsOf {
  /** The functions it calls by name. */
  readonly calls: ReadonlySet<string>;
  /** The functions it names as values. */
  readonly values: ReadonlySet<string>;
  /** Whether it calls a function value. */
  readonly callsValues: boolean;
}

/**
 * The node that stands for "some function value": an edge to it from each
 * function that calls one, from it to each function named as one. One node
 * rather than an edge from every caller to every value keeps the graph
 * linear in the program; the cycles among functions are the same. No
 * function's key is empty.
 */
const ANY_VALUE = "";

/** The keys of the functions that can recurse, directly or not. */
export function recursiveFunctions(functions: ReadonlyMap<string, CallsOf>): ReadonlySet<string> {
  const asValues = new Set<string>();
  const edges = new Map<string, ReadonlySet<string>>();
  for (const [key, f] of functions) {
    for (const value of f.values) asValues.add(value);
    edges.set(key, f.callsValues ? new Set([...f.calls, ANY_VALUE]) : f.calls);
  }
  edges.set(ANY_VALUE, asValues);
  const result = cyclic(edges);
  result.delete(ANY_VALUE);
  return result;
}

/** Tarjan's strongly connected components, iteratively: the nodes on a cycle. */
function cyclic(edges: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result = new Set<string>();
  let next = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; targets: Iterator<string> }[] = [];
    const open = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: (edges.get(node) ?? new Set<string>()).values() });
    };
    open(root);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const step = top.targets.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) open(target);
        else if (onStack.has(target)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      const self = edges.get(top.node)?.has(top.node) ?? false;
      if (component.length > 1 || self) { for (const m of component) result.add(m); }
    }
  }
  return result;
}
