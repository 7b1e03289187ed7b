import { ts } from "#ts-morph";
import type { TypeHandler } from "./handler.ts";
import { has } from "./util.ts";

/** `string`, `number`, `boolean`, `null`. */
export const primitiveHandler: TypeHandler = {
  name: "primitive",
  supports: (type) =>
    has(type, ts.TypeFlags.String | ts.TypeFlags.Number | ts.TypeFlags.Boolean | ts.TypeFlags.Null),
  create(type) {
    if (has(type, ts.TypeFlags.String)) return { kind: "string" };
    if (has(type, ts.TypeFlags.Number)) return { kind: "number" };
    if (has(type, ts.TypeFlags.Boolean)) return { kind: "boolean" };
    return { kind: "null" };
  },
};
