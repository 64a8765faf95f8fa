/**
 * Whether renaming a local would change what any name means: the plain-data
 * question the rename planner asks of the model.
 *
 * @module
 */
import type { Definition } from "./model.ts";

/** What a rename of a local looks at: a definition's locals, scopes and outer names. */
export type LocalScopes = Pick<Definition, "bindings" | "scopes" | "outerNames">;

function within(def: LocalScopes, scope: number, ancestor: number): boolean {
  let s: number | null = scope;
  while (s !== null) {
    if (s === ancestor) return true;
    s = def.scopes[s]?.parent ?? null;
  }
  return false;
}

/**
 * Why renaming `def.bindings[index]` to `newName` would collide with or
 * capture another name, or null when it is safe. Conservative: a binding
 * is taken to be visible in its whole scope.
 */
export function renameConflict(def: LocalScopes, index: number, newName: string): string | null {
  const b = def.bindings[index];
  if (b === undefined) return "no such binding";
  if (b.name === newName) return null;
  // Types and values are apart: a type parameter captures only names in
  // types, a local only names in expressions and patterns.
  const typeLevel = b.kind === "type_parameter";
  for (let i = 0; i < def.bindings.length; i++) {
    const other = def.bindings[i];
    if (i === index || other.name !== newName) continue;
    if ((other.kind === "type_parameter") !== typeLevel) continue;
    if (other.scope === b.scope) return `\`${newName}\` is already declared in the same scope`;
    // An inner binding of that name would shadow the renamed one at its references.
    if (within(def, other.scope, b.scope)) {
      for (const r of b.references) {
        if (within(def, r.scope, other.scope)) {
          return `\`${newName}\` declared in an inner scope would capture a reference`;
        }
      }
    }
    // The renamed binding would shadow the other one where it is referenced.
    for (const r of other.references) {
      if (within(def, r.scope, b.scope)) {
        return `the rename would capture a reference to another \`${newName}\``;
      }
    }
  }
  for (const o of def.outerNames) {
    if ((o.namespace === "type") !== typeLevel) continue;
    if (o.name === newName && within(def, o.scope, b.scope)) {
      return typeLevel
        ? `the type parameter would capture the type \`${newName}\` named in this definition`
        : `the rename would capture a reference to \`${newName}\` outside the function`;
    }
  }
  return null;
}
