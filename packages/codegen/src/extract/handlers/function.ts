import { ts } from "#ts-morph";
import type { TypeHandler } from "./handler.ts";

/** Function types (and objects that are callable) cannot travel as JSON. */
export const functionHandler: TypeHandler = {
  name: "function",
  supports: (type, ctx) =>
    ctx.checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0 ||
    ctx.checker.getSignaturesOfType(type, ts.SignatureKind.Construct).length > 0,
  create(type, ctx, site) {
    return ctx.fail(
      "MCPG020",
      `type "${ctx.checker.typeToString(type)}" is a function, which JSON cannot carry`,
      site,
    );
  },
};
