import type * as TS from "typescript-5";
import { unavailable } from "./messages.ts";
import type { TypeScriptApi } from "./typescript.ts";

/** A problem found in the program's syntax tree, at a position of the wrapped file. */
export interface RuleProblem {
  start: number;
  end: number;
  message: string;
}

const NOT_JSON_CLASSES = new Set(["Map", "Set", "WeakMap", "WeakSet", "WeakRef", "Promise", "Symbol"]);

/** `import()` and `import … from`: a program cannot load modules. */
export function refusedImports(
  ts: TypeScriptApi,
  source: TS.SourceFile,
  api: ReadonlyMap<string, readonly string[]>,
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const visit = (node: TS.Node) => {
    const isImport =
      (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) ||
      ts.isImportDeclaration(node) ||
      ts.isImportEqualsDeclaration(node);
    if (isImport) {
      problems.push({
        start: node.getStart(source),
        end: node.end,
        message: `${unavailable("import", api)}; a program cannot load modules`,
      });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

/**
 * A `}` that closes the program's function before its end (so that what follows would run outside
 * it): the program must be one function body.
 */
export function outsideTheBody(ts: TypeScriptApi, source: TS.SourceFile): RuleProblem[] {
  const [wrapper, ...rest] = source.statements;
  if (!wrapper || !ts.isFunctionDeclaration(wrapper) || !wrapper.body) return [];
  const body = wrapper.body;
  if (rest.length === 0) return [];
  const close = body.end - 1;
  return [
    {
      start: close,
      end: body.end,
      message:
        "this } closes the program's function before its end: the program is one function body, remove it",
    },
  ];
}

/**
 * The `return`s of the program (not of functions inside it) whose value cannot become JSON: a
 * function, a symbol, a bigint, a Map, Set or Promise, anywhere in it.
 */
export function nonJsonReturns(
  ts: TypeScriptApi,
  checker: TS.TypeChecker,
  source: TS.SourceFile,
): RuleProblem[] {
  const wrapper = source.statements[0];
  if (!wrapper || !ts.isFunctionDeclaration(wrapper) || !wrapper.body) return [];
  const problems: RuleProblem[] = [];
  const visit = (node: TS.Node) => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isReturnStatement(node) && node.expression) {
      const type = checker.getTypeAtLocation(node.expression);
      const reason = whyNotJson(ts, checker, type, node.expression, "", new Set(), 0);
      if (reason) {
        problems.push({
          start: node.expression.getStart(source),
          end: node.expression.end,
          message:
            `the program returns ${checker.typeToString(type)}, and ${reason}: only JSON reaches the ` +
            `caller. Return plain data (objects, arrays, strings, numbers, booleans, null)`,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(wrapper.body, visit);
  return problems;
}

function whyNotJson(
  ts: TypeScriptApi,
  checker: TS.TypeChecker,
  type: TS.Type,
  at: TS.Node,
  path: string,
  seen: Set<TS.Type>,
  depth: number,
): string | undefined {
  if (depth > 8 || seen.has(type)) return undefined;
  seen.add(type);
  const what = path ? `its ${path}` : "it";
  const F = ts.TypeFlags;
  if (type.flags & (F.Any | F.Unknown)) return undefined;
  if (type.flags & F.ESSymbolLike) return `${what} is a symbol`;
  if (type.flags & F.BigIntLike) return `${what} is a bigint`;
  if (type.isUnion() || type.isIntersection()) {
    for (const t of type.types) {
      const reason = whyNotJson(ts, checker, t, at, path, seen, depth + 1);
      if (reason) return reason;
    }
    return undefined;
  }
  if (!(type.flags & F.Object)) return undefined;
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0)
    return `${what} is a function`;
  const name = type.getSymbol()?.getName();
  if (name && NOT_JSON_CLASSES.has(name)) return `${what} is a ${name}`;
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const items = checker.getTypeArguments(type as TS.TypeReference);
    for (const t of items) {
      const reason = whyNotJson(ts, checker, t, at, path ? `${path}[]` : "items", seen, depth + 1);
      if (reason) return reason;
    }
    return undefined;
  }
  for (const prop of checker.getPropertiesOfType(type)) {
    const t = checker.getTypeOfSymbolAtLocation(prop, at);
    const reason = whyNotJson(ts, checker, t, at, path ? `${path}.${prop.name}` : prop.name, seen, depth + 1);
    if (reason) return reason;
  }
  return undefined;
}
