import { ts } from "#ts-morph";
import type { ExtractContext, Site } from "../context.ts";

type Literal = string | number | boolean;

/**
 * Puts enum values in source order. The checker orders union members by internal type
 * id, which can change when unrelated code changes; the contract must not. The order is
 * taken from the enum declaration, or from a union written in the source (the annotation
 * at the site, or the type alias); without one, values are sorted.
 */
export function inSourceOrder(values: Literal[], type: ts.Type, ctx: ExtractContext, site: Site): Literal[] {
  for (const order of candidateOrders(type, ctx, site)) {
    if (values.every((v) => order.includes(v))) {
      return [...values].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    }
  }
  return [...values].sort((a, b) =>
    typeof a !== typeof b ? (typeof a < typeof b ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0,
  );
}

function* candidateOrders(type: ts.Type, ctx: ExtractContext, site: Site): Generator<Literal[]> {
  const symbol = type.getSymbol();
  const enumDeclaration = symbol?.getDeclarations()?.find(ts.isEnumDeclaration);
  if (enumDeclaration) {
    yield enumDeclaration.members.map((m) => ctx.checker.getConstantValue(m)).filter((v) => v !== undefined);
  }
  const annotation = ts.isTypeNode(site.node) ? site.node : (site.node as { type?: ts.TypeNode }).type;
  if (annotation) yield* unionsIn(annotation);
  const alias = type.aliasSymbol?.getDeclarations()?.find(ts.isTypeAliasDeclaration);
  if (alias) yield* unionsIn(alias.type);
}

function* unionsIn(node: ts.Node): Generator<Literal[]> {
  if (ts.isUnionTypeNode(node)) yield node.types.map(literalOf).filter((v) => v !== undefined);
  for (const child of node.getChildren()) yield* unionsIn(child);
}

function literalOf(node: ts.TypeNode): Literal | undefined {
  if (ts.isParenthesizedTypeNode(node)) return literalOf(node.type);
  if (!ts.isLiteralTypeNode(node)) return undefined;
  const literal = node.literal;
  if (ts.isStringLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal)) return literal.text;
  if (ts.isNumericLiteral(literal)) return Number(literal.text);
  if (ts.isPrefixUnaryExpression(literal) && ts.isNumericLiteral(literal.operand)) {
    return literal.operator === ts.SyntaxKind.MinusToken
      ? -Number(literal.operand.text)
      : Number(literal.operand.text);
  }
  if (literal.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (literal.kind === ts.SyntaxKind.FalseKeyword) return false;
  return undefined;
}
