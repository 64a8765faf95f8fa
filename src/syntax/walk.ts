/**
 * Generic traversal of the syntax tree: the children of a node in source
 * order, and a pre-order walk. The walk uses an explicit stack, so even a
 * tree at the parser's depth limit costs no recursion.
 *
 * @module
 */
import type * as A from "./ast.ts";

/** The child nodes of `node`, in source order (doc comments and names included). */
export function children(node: A.Node): A.Node[] {
  switch (node.kind) {
    case "SourceFile":
      return [...node.imports, ...node.items].sort((a, b) => a.start - b.start);
    case "Import": {
      const out: A.Node[] = [...node.path];
      if (node.names !== null) out.push(...node.names);
      if (node.alias !== null) out.push(node.alias);
      return out;
    }
    case "FnDecl": {
      const out: A.Node[] = [];
      if (node.doc !== null) out.push(node.doc);
      out.push(node.name, ...node.typeParams, ...node.params);
      if (node.returnType !== null) out.push(node.returnType);
      out.push(node.body);
      return out;
    }
    case "TestDecl":
      return [...docOf(node), node.name, node.body];
    case "RecordDecl":
      return [...docOf(node), node.name, ...node.typeParams, ...node.fields];
    case "EnumDecl":
      return [...docOf(node), node.name, ...node.typeParams, ...node.variants];
    case "Param":
    case "FieldDecl":
      return [node.name, node.type];
    case "VariantDecl":
      return [node.name, ...node.fields];
    case "NamedType":
      return [...node.path, ...node.args];
    case "FnType":
      return [...node.params, node.result];
    case "NameExpr":
      return [node.name];
    case "FieldExpr":
      return [node.target, node.name];
    case "CallExpr":
      return node.typeArgs === null
        ? [node.callee, ...node.args]
        : [node.callee, ...node.typeArgs.types, ...node.args];
    case "RecordLit":
      return [node.type, ...node.fields];
    case "FieldInit":
      return node.value === null ? [node.name] : [node.name, node.value];
    case "ListLit":
      return [...node.elements];
    case "UnaryExpr":
      return [node.operand];
    case "BinaryExpr":
      return [node.left, node.right];
    case "IfExpr":
      return node.otherwise === null
        ? [node.condition, node.then]
        : [node.condition, node.then, node.otherwise];
    case "MatchExpr":
      return [node.scrutinee, ...node.arms];
    case "MatchArm":
      return [node.pattern, node.body];
    case "Block":
      return node.tail === null ? [...node.statements] : [...node.statements, node.tail];
    case "ReturnExpr":
      return node.value === null ? [] : [node.value];
    case "ParenExpr":
      return [node.inner];
    case "LetStmt": {
      const out: A.Node[] = [node.binding];
      if (node.type !== null) out.push(node.type);
      out.push(node.value);
      return out;
    }
    case "ExprStmt":
      return [node.expr];
    case "LiteralPattern":
      return [node.literal];
    case "VariantPattern":
      return node.args === null ? [...node.path] : [...node.path, ...node.args];
    case "ListPattern":
      return node.rest === null ? [...node.elements] : [...node.elements, node.rest];
    case "RestPattern":
      return node.binding === null ? [] : [node.binding];
    case "BindingPattern":
      return [node.name];
    // Leaves: names, literals, doc comments, wildcards, unit, errors.
    case "NameDecl":
    case "NameRef":
    case "DocComment":
    case "IntLit":
    case "FloatLit":
    case "StringLit":
    case "BoolLit":
    case "UnitLit":
    case "UnitType":
    case "WildcardPattern":
    case "Error":
      return [];
    default:
      // A new node kind fails type checking here until it is listed above.
      return unknownNode(node);
  }
}

function unknownNode(node: never): never {
  throw new Error(`children: unknown node kind ${(node as { kind: string }).kind}`);
}

function docOf(node: A.RecordDecl | A.EnumDecl | A.TestDecl): A.Node[] {
  return node.doc === null ? [] : [node.doc];
}

/**
 * Visits `root` and its descendants in pre-order (source order). When
 * `visit` returns `false`, the node's children are skipped.
 */
export function walk(
  root: A.Node,
  visit: (node: A.Node, parent: A.Node | null) => boolean | void,
): void {
  const stack: A.Node[] = [root];
  const parents: (A.Node | null)[] = [null];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const parent = parents.pop()!;
    if (visit(node, parent) === false) continue;
    const kids = children(node);
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push(kids[i]);
      parents.push(node);
    }
  }
}
