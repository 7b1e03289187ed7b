import { ts } from "#ts-morph";
import type { IrCompleter } from "../../ir/types.ts";
import type { Site } from "../context.ts";
import { tagText } from "../jsdoc.ts";
import { declaredParams, type TaggedFunction } from "./common.ts";

const SIGNATURE =
  "(value: string, context: { arguments: Record<string, string> }) => string[] | Promise<string[]>";

/**
 * `@complete <prompt-name or uri-template> <argument>`: a function completing one argument. Its
 * target is checked once every module of the server is read (see `assemble.ts`).
 */
export function extractCompleter(fn: TaggedFunction): IrCompleter {
  const { candidate, doc, ctx } = fn;
  const owner = `completer "${candidate.exportedName}"`;
  const site: Site = { node: candidate.docNode, path: owner };
  const words = (tagText(doc, "complete") ?? "").split(/\s+/).filter(Boolean);
  if (words.length !== 2) {
    ctx.fail(
      "MCPG036",
      `@complete needs a prompt name or URI template and an argument name, got "${tagText(doc, "complete")}"`,
      site,
      "write e.g. `@complete review_code language` or `@complete app://items/{id} id`",
    );
  }
  checkSignature(fn, site);
  return {
    target: words[0]!,
    argument: words[1]!,
    binding: fn.binding,
    location: ctx.location(candidate.docNode),
  };
}

function checkSignature(fn: TaggedFunction, site: Site): void {
  const { candidate, ctx } = fn;
  const { checker } = ctx;
  const params = declaredParams(candidate);
  const wrong = (why: string, node: ts.Node = candidate.docNode) =>
    ctx.fail("MCPG037", why, { node, path: site.path }, `declare it as ${SIGNATURE}`);
  if (params.length > 2)
    wrong(`it takes ${params.length} parameters; a completer takes (value, context)`, params[2]);
  const value = params[0];
  if (
    value &&
    (value.dotDotDotToken ||
      !checker.isTypeAssignableTo(checker.getStringType(), checker.getTypeAtLocation(value)))
  )
    wrong(
      `its first parameter is ${checker.typeToString(checker.getTypeAtLocation(value))}; a completer's first parameter takes the typed prefix, a string`,
      value,
    );
  const context = params[1];
  if (context) {
    const type = checker.getNonNullableType(checker.getTypeAtLocation(context));
    const args = type.getProperty("arguments");
    const argsType = args ? checker.getTypeOfSymbolAtLocation(args, context) : undefined;
    const record =
      argsType && checker.getIndexTypeOfType(checker.getNonNullableType(argsType), ts.IndexKind.String);
    const ok =
      !(type.flags & ts.TypeFlags.Object) ||
      (args === undefined
        ? type.getProperties().length === 0
        : record !== undefined && checker.isTypeAssignableTo(checker.getStringType(), record));
    if (!ok)
      wrong(
        `its second parameter is ${checker.typeToString(type)}; a completer's second parameter takes { arguments: Record<string, string> }`,
        context,
      );
  }
  const declared = checker.getSignatureFromDeclaration(candidate.fn)?.getReturnType();
  const result = declared ? (checker.getAwaitedType(declared) ?? declared) : undefined;
  const element =
    result && checker.isArrayType(result)
      ? checker.getTypeArguments(result as ts.TypeReference)[0]
      : undefined;
  if (!element || !checker.isTypeAssignableTo(element, checker.getStringType()))
    wrong(
      `it returns ${result ? checker.typeToString(result) : "nothing"}; a completer returns string[] or Promise<string[]>`,
      candidate.fn.type ?? candidate.docNode,
    );
}
