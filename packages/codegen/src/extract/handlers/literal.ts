import type { TypeHandler } from "./handler.ts";
import { literalValue } from "./util.ts";

/** A single literal type (`"on"`, `42`, `true`, or a one-member enum) → `const`. */
export const literalHandler: TypeHandler = {
  name: "literal",
  supports: (type) => literalValue(type) !== undefined,
  create: (type) => ({ kind: "literal", value: literalValue(type)! }),
};
