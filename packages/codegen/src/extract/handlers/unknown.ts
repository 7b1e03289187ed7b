import { ts } from "#ts-morph";
import type { TypeHandler } from "./handler.ts";
import { has } from "./util.ts";

/** `unknown` and `any` accept anything: `{}` with a warning, since clients and models learn nothing. */
export const unknownHandler: TypeHandler = {
  name: "unknown",
  supports: (type) => has(type, ts.TypeFlags.Any | ts.TypeFlags.Unknown),
  create(type, ctx, site) {
    ctx.warn("MCPG100", `type "${ctx.checker.typeToString(type)}" accepts any JSON value`, site);
    return { kind: "unknown" };
  },
};
