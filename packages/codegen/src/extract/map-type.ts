import type { ts } from "ts-morph";
import type { IrType } from "../ir/types.ts";
import type { ExtractContext, Site } from "./context.ts";
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
import { applyMeta, metaFromDoc } from "./meta.ts";
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
    if (ctx.lean && isErrorType(type)) {
      ctx.incomplete = true;
      return { kind: "unknown" };
    }
    // a tagged alias or interface becomes a named definition (inlined again where used only once)
    const tagged = taggedTypeOf(type, site, ctx);
    if (!tagged) return byHandler(type, site);
    return ctx.named(tagged.symbol, tagged.type, () => {
      const at: Site = { node: tagged.declaration, path: `type "${tagged.name}"` };
      return applyMeta(byHandler(tagged.type, site), metaFromDoc(tagged.doc, ctx, at), ctx, at);
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
