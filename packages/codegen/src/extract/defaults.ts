import { ts } from "#ts-morph";
import type { ExtractContext, Site } from "./context.ts";

/**
 * Evaluates a parameter initializer that is a JSON literal (strings, numbers, booleans,
 * null, arrays and objects of those, enum members). Anything else is an error: a default
 * computed at run time cannot be published in the schema.
 */
export function literalDefault(expression: ts.Expression, ctx: ExtractContext, site: Site): unknown {
  const value = evaluate(expression, ctx);
  if (value === NOT_LITERAL) {
    const text = expression.getText();
    return ctx.fail(
      "MCPG026",
      `default value \`${text.length > 40 ? `${text.slice(0, 37)}...` : text}\` is not a literal`,
      {
        node: expression,
        path: site.path,
      },
    );
  }
  return value;
}

const NOT_LITERAL = Symbol("not a literal");

function evaluate(node: ts.Expression, ctx: ExtractContext): unknown {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
    return evaluate(node.expression, ctx);
  }
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isPrefixUnaryExpression(node) && ts.isNumericLiteral(node.operand)) {
    if (node.operator === ts.SyntaxKind.MinusToken) return -Number(node.operand.text);
    if (node.operator === ts.SyntaxKind.PlusToken) return Number(node.operand.text);
  }
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((e) => (ts.isSpreadElement(e) ? NOT_LITERAL : evaluate(e, ctx)));
    return items.includes(NOT_LITERAL) ? NOT_LITERAL : items;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const result: Record<string, unknown> = {};
    for (const prop of node.properties) {
      if (!ts.isPropertyAssignment(prop)) return NOT_LITERAL;
      const name =
        ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name) || ts.isNumericLiteral(prop.name)
          ? prop.name.text
          : undefined;
      if (name === undefined) return NOT_LITERAL;
      const value = evaluate(prop.initializer, ctx);
      if (value === NOT_LITERAL) return NOT_LITERAL;
      result[name] = value;
    }
    return result;
  }
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    const symbol = ctx.checker.getSymbolAtLocation(node);
    const member = symbol?.valueDeclaration;
    if (member && ts.isEnumMember(member)) {
      const constant = ctx.checker.getConstantValue(member);
      if (constant !== undefined) return constant;
    }
  }
  return NOT_LITERAL;
}
