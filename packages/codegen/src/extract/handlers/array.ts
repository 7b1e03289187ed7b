import type { ts } from "ts-morph";
import type { TypeHandler } from "./handler.ts";

/** `T[]`, `Array<T>`, `readonly T[]`, `ReadonlyArray<T>`. */
export const arrayHandler: TypeHandler = {
  name: "array",
  supports: (type, ctx) => ctx.checker.isArrayType(type),
  create(type, ctx, site, map) {
    const [element] = ctx.checker.getTypeArguments(type as ts.TypeReference);
    return { kind: "array", items: map(element!, { node: site.node, path: `${site.path} › items` }) };
  },
};
