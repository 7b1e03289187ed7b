import { ts } from "#ts-morph";
import type { ExtractContext, Site } from "../context.ts";

/**
 * Puts the non-literal members of a union in the order the source writes them. The checker
 * orders union members by internal type id, which depends on what it happened to check
 * first (a full type-check before extraction, or none); the contract must not. The order
 * is taken from a union written at the site (its annotation) or in the type alias, with
 * aliases of unions expanded where they appear; members no written union covers are
 * ordered by their text.
 */
export function membersInSourceOrder(
  parts: readonly ts.Type[],
  type: ts.Type,
  ctx: ExtractContext,
  site: Site,
): ts.Type[] {
  if (parts.length < 2) return [...parts];
  for (const node of candidateUnions(type, site)) {
    const order = flatten(node, ctx.checker, 0);
    if (parts.every((p) => order.includes(p))) {
      return [...parts].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    }
  }
  const text = new Map(parts.map((p) => [p, ctx.checker.typeToString(p)]));
  return [...parts].sort((a, b) => {
    const [x, y] = [text.get(a)!, text.get(b)!];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

function* candidateUnions(type: ts.Type, site: Site): Generator<ts.UnionTypeNode> {
  const annotation = ts.isTypeNode(site.node) ? site.node : (site.node as { type?: ts.TypeNode }).type;
  if (annotation) yield* unionsIn(annotation);
  const alias = type.aliasSymbol?.getDeclarations()?.find(ts.isTypeAliasDeclaration);
  if (alias) yield* unionsIn(alias.type);
}

function* unionsIn(node: ts.Node): Generator<ts.UnionTypeNode> {
  if (ts.isUnionTypeNode(node)) yield node;
  for (const child of node.getChildren()) yield* unionsIn(child);
}

/** The member types of a written union, in writing order; references to union aliases expanded. */
function flatten(node: ts.TypeNode, checker: ts.TypeChecker, depth: number): ts.Type[] {
  if (ts.isParenthesizedTypeNode(node)) return flatten(node.type, checker, depth);
  if (ts.isUnionTypeNode(node)) return node.types.flatMap((t) => flatten(t, checker, depth));
  const type = checker.getTypeFromTypeNode(node);
  if (!type.isUnion() || depth > 8) return [type];
  const alias = type.aliasSymbol?.getDeclarations()?.find(ts.isTypeAliasDeclaration);
  const expanded = alias ? flatten(alias.type, checker, depth + 1) : [];
  return [type, ...expanded, ...type.types.filter((t) => !expanded.includes(t))];
}
