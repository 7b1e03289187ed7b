import type { ts } from "ts-morph";
import type { IrMeta, IrType } from "../ir/types.ts";
import type { ExtractContext, Site } from "./context.ts";
import { isLibraryObject } from "./es5-library.ts";
import { arrayHandler } from "./handlers/array.ts";
import { arrayLikeHandler } from "./handlers/array-like.ts";
import { builtinHandler } from "./handlers/builtin.ts";
import { dateHandler } from "./handlers/date.ts";
import { functionHandler } from "./handlers/function.ts";
import type { MapType, TypeHandler } from "./handlers/handler.ts";
import { intersectionHandler } from "./handlers/intersection.ts";
import { literalHandler } from "./handlers/literal.ts";
import { objectHandler } from "./handlers/object.ts";
import { primitiveHandler } from "./handlers/primitive.ts";
import { templateLiteralHandler } from "./handlers/template-literal.ts";
import { tupleHandler } from "./handlers/tuple.ts";
import { unionHandler } from "./handlers/union.ts";
import { unknownHandler } from "./handlers/unknown.ts";
import { unsupportedHandler } from "./handlers/unsupported.ts";
import { urlHandler } from "./handlers/url.ts";
import { applyMeta, CONSTRAINTS, constraintFits, metaFromDoc } from "./meta.ts";
import { taggedTypeOf } from "./named-types.ts";
import { isErrorType } from "./program.ts";

/** Handlers in the order they are asked; the first that supports a type maps it. */
export const HANDLERS: readonly TypeHandler[] = [
  templateLiteralHandler,
  unsupportedHandler,
  unknownHandler,
  intersectionHandler,
  dateHandler,
  urlHandler,
  builtinHandler,
  primitiveHandler,
  literalHandler,
  unionHandler,
  tupleHandler,
  arrayHandler,
  arrayLikeHandler,
  functionHandler,
  objectHandler,
];

/** Creates the type mapper of one extraction. */
export function createTypeMapper(ctx: ExtractContext, handlers: readonly TypeHandler[] = HANDLERS): MapType {
  const map = (type: ts.Type, site: Site): IrType => {
    if ((ctx.lean && isErrorType(type)) || (ctx.es5Lib && isLibraryObject(type, ctx.program))) {
      ctx.incomplete = true;
      return { kind: "unknown" };
    }
    // a tagged alias or interface becomes a named definition (inlined again where used only once)
    const tagged = taggedTypeOf(type, site, ctx);
    if (!tagged) return byHandler(type, site);
    return ctx.named(tagged.symbol, tagged.type, () => {
      const at: Site = { node: tagged.declaration, path: `type "${tagged.name}"` };
      const mapped = byHandler(tagged.type, site);
      return applyMeta(mapped, fittingMeta(metaFromDoc(tagged.doc, ctx, at), mapped, ctx, at), ctx, at);
    });
  };
  const byHandler = (type: ts.Type, site: Site): IrType => {
    for (const handler of handlers) {
      if (handler.supports(type, ctx)) return handler.create(type, ctx, site, map);
    }
    return ctx.fail("MCPG025", `type "${ctx.checker.typeToString(type)}" is not supported`, site);
  };
  return map;
}

/**
 * The meta of a tagged alias without the constraints that do not fit what it is here: a generic
 * alias can be a string in one use and a number in another, so a misfit is a warning, not an error.
 */
function fittingMeta(meta: IrMeta, type: IrType, ctx: ExtractContext, site: Site): IrMeta {
  if (!meta.constraints) return meta;
  const constraints: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(meta.constraints)) {
    if (constraintFits(type, keyword, ctx)) constraints[keyword] = value;
    else {
      ctx.warnOnce(
        "MCPG103",
        `@${keyword} applies to ${CONSTRAINTS[keyword]!.applies}s, but this use of the type is ${type.kind === "union" ? "a union of other types" : `a ${type.kind}`}, so it is not applied`,
        site,
        "put the tag on an alias of the type it constrains",
      );
    }
  }
  return { ...meta, constraints };
}
