import type { ts } from "ts-morph";
import { partNode } from "../named-types.ts";
import type { TypeHandler } from "./handler.ts";

/** `T[]`, `Array<T>`, `readonly T[]`, `ReadonlyArray<T>`. */
export const arrayHandler: TypeHandler = {
  name: "array",
  supports: (type, ctx) => ctx.checker.isArrayType(type),
  create(type, ctx, site, map) {
    const [element] = ctx.checker.getTypeArguments(type as ts.TypeReference);
    const node = partNode(site, element!, ctx, "items");
    return { kind: "array", items: map(element!, { node, path: `${site.path} › items` }) };
  },
};
