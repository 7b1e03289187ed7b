import type * as TS from "typescript-5";
import type { RuleProblem } from "./program-rules.ts";
import type { TypeScriptApi } from "./typescript.ts";

/**
 * TypeScript to JavaScript by blanking the types out with spaces, so every line and column of the
 * JavaScript is the program's own: an error the sandbox reports at `3:14` is at `3:14` of what the
 * model wrote. Only syntax that is erasable this way is accepted (Node's `erasableSyntaxOnly`):
 * an `enum`, a runtime `namespace` or a parameter property would need code, and is refused.
 */
export function eraseTypes(
  ts: TypeScriptApi,
  source: TS.SourceFile,
): { js: string } | { problems: RuleProblem[] } {
  const text = source.text;
  const blank: [number, number][] = [];
  const problems: RuleProblem[] = [];
  const K = ts.SyntaxKind;
  /** The `:` before a type node, and the type. */
  const annotation = (type: TS.TypeNode | undefined) => {
    if (type) blank.push([colonBefore(text, type.pos), type.end]);
  };
  const typeList = (list: TS.NodeArray<TS.Node> | undefined) => {
    if (list) blank.push([text.lastIndexOf("<", list.pos), text.indexOf(">", list.end) + 1]);
  };
  const refuse = (node: TS.Node, what: string, instead: string) =>
    problems.push({
      start: node.getStart(source),
      end: node.end,
      message: `${what} is not supported in a program (it is TypeScript that needs code to run): ${instead}`,
    });

  const visit = (node: TS.Node): void => {
    if (
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      (ts.isFunctionDeclaration(node) && !node.body) ||
      (ts.isMethodDeclaration(node) && !node.body) ||
      ts.isIndexSignatureDeclaration(node) ||
      hasModifier(ts, node, K.DeclareKeyword) ||
      hasModifier(ts, node, K.AbstractKeyword)
    ) {
      blank.push([node.getStart(source), node.end]);
      return;
    }
    if (ts.isEnumDeclaration(node))
      return void refuse(node, "an enum", "use a const object or a union of strings");
    if (ts.isModuleDeclaration(node)) return void refuse(node, "a namespace", "use an object");
    if (ts.isDecorator(node)) return void refuse(node, "a decorator", "call the function instead");
    if (
      ts.isParameter(node) &&
      node.modifiers?.some((m) => m.kind !== K.Decorator) &&
      ts.isConstructorDeclaration(node.parent)
    )
      return void refuse(node, "a parameter property", "assign the field in the constructor");
    if (ts.canHaveModifiers(node)) {
      for (const m of ts.getModifiers(node) ?? []) {
        if (
          [
            K.PublicKeyword,
            K.PrivateKeyword,
            K.ProtectedKeyword,
            K.ReadonlyKeyword,
            K.OverrideKeyword,
          ].includes(m.kind)
        )
          blank.push([m.getStart(source), m.end]);
      }
    }
    if (ts.isVariableDeclaration(node)) {
      if (node.exclamationToken)
        blank.push([node.exclamationToken.getStart(source), node.exclamationToken.end]);
      annotation(node.type);
    } else if (ts.isParameter(node) || ts.isPropertyDeclaration(node)) {
      if (node.questionToken) blank.push([node.questionToken.getStart(source), node.questionToken.end]);
      if (ts.isPropertyDeclaration(node) && node.exclamationToken)
        blank.push([node.exclamationToken.getStart(source), node.exclamationToken.end]);
      if (ts.isParameter(node) && node.name.kind === K.Identifier && node.name.text === "this") {
        blank.push([node.getStart(source), skipComma(text, node.end)]);
        return;
      }
      annotation(node.type);
    } else if (ts.isFunctionLike(node)) {
      if (ts.isMethodDeclaration(node) && node.questionToken)
        blank.push([node.questionToken.getStart(source), node.questionToken.end]);
      typeList(node.typeParameters);
      annotation(node.type);
    } else if (ts.isClassLike(node)) {
      typeList(node.typeParameters);
      for (const clause of node.heritageClauses ?? [])
        if (clause.token === K.ImplementsKeyword) blank.push([clause.getStart(source), clause.end]);
    } else if (
      ts.isExpressionWithTypeArguments(node) ||
      ts.isCallExpression(node) ||
      ts.isNewExpression(node)
    ) {
      typeList(node.typeArguments);
    } else if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
      blank.push([node.expression.end, node.end]);
    } else if (ts.isNonNullExpression(node)) {
      blank.push([node.end - 1, node.end]);
    } else if (ts.isTypeAssertionExpression(node)) {
      blank.push([node.getStart(source), node.expression.getStart(source)]);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  if (problems.length > 0) return { problems };
  let out = text;
  for (const [start, end] of blank.sort((a, b) => a[0] - b[0])) {
    out = out.slice(0, start) + out.slice(start, end).replace(/[^\n\r]/g, " ") + out.slice(end);
  }
  return { js: out };
}

/** A type node starts right after its `:` (its `pos` includes the whitespace before it). */
function colonBefore(text: string, pos: number): number {
  return text[pos - 1] === ":" ? pos - 1 : pos;
}

function skipComma(text: string, end: number): number {
  const m = /^\s*,/.exec(text.slice(end));
  return m ? end + m[0].length : end;
}

function hasModifier(ts: TypeScriptApi, node: TS.Node, kind: TS.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}
