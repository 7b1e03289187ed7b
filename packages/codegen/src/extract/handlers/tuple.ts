import { ts } from "#ts-morph";
import type { IrType } from "../../ir/types.ts";
import type { TypeHandler } from "./handler.ts";

/** `[A, B]` → `prefixItems` with a fixed length; optional and rest elements are honoured. */
export const tupleHandler: TypeHandler = {
  name: "tuple",
  supports: (type, ctx) => ctx.checker.isTupleType(type),
  create(type, ctx, site, map) {
    const reference = type as ts.TypeReference;
    const target = reference.target as ts.TupleType;
    const elements = ctx.checker.getTypeArguments(reference);
    const items: IrType[] = [];
    let minItems = 0;
    let rest: IrType | undefined;
    elements.forEach((element, i) => {
      const flags = target.elementFlags[i] ?? ts.ElementFlags.Required;
      const elementSite = { node: site.node, path: `${site.path} › [${i}]` };
      if (flags & ts.ElementFlags.Variable) {
        if (i !== elements.length - 1)
          ctx.fail("MCPG025", "a rest element must be the last element of a tuple", elementSite);
        rest = map(element, elementSite);
        return;
      }
      if (flags & ts.ElementFlags.Required) minItems = i + 1;
      items.push(map(element, elementSite));
    });
    // `[]` needs no minItems; every other tuple states both bounds (or the lower one with a rest element)
    const constraints: Record<string, unknown> = items.length === 0 && !rest ? {} : { minItems };
    if (!rest) constraints.maxItems = items.length;
    return rest ? { kind: "tuple", items, rest, constraints } : { kind: "tuple", items, constraints };
  },
};
