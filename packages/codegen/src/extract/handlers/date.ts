import type { TypeHandler } from "./handler.ts";
import { isLibType } from "./util.ts";

const DATE = new Set(["Date"]);

/** `Date` travels as an ISO 8601 string. */
export const dateHandler: TypeHandler = {
  name: "date",
  supports: (type, ctx) => isLibType(type, ctx, DATE),
  create: () => ({ kind: "string", constraints: { format: "date-time" }, date: true }),
};
