import type { TypeHandler } from "./handler.ts";
import { isLibType } from "./util.ts";

const UNSUPPORTED: Record<string, string> = {
  Map: "use Record<string, T> (a JSON object) instead of Map",
  WeakMap: "use Record<string, T> (a JSON object) instead of WeakMap",
  Set: "use an array (T[]) instead of Set, with @uniqueItems if items must be distinct",
  WeakSet: "use an array (T[]) instead of WeakSet",
  Promise: "await the value before passing it; parameters must be plain data",
  RegExp: "pass the pattern as a string",
  Error: "describe the error with a string or a plain object",
  Uint8Array: 'pass binary data as a base64 string (`string & Format<"byte">`)',
  ArrayBuffer: 'pass binary data as a base64 string (`string & Format<"byte">`)',
  Buffer: 'pass binary data as a base64 string (`string & Format<"byte">`)',
};
const NAMES = new Set(Object.keys(UNSUPPORTED));

function isNodeBuffer(type: import("ts-morph").ts.Type): boolean {
  const symbol = type.getSymbol();
  if (symbol?.getName() !== "Buffer") return false;
  return (symbol.getDeclarations() ?? []).some((d) => d.getSourceFile().fileName.includes("/@types/node/"));
}

/** Library classes that are not JSON data get an error with the JSON alternative. */
export const builtinHandler: TypeHandler = {
  name: "builtin",
  supports: (type, ctx) => isLibType(type, ctx, NAMES) || isNodeBuffer(type),
  create(type, ctx, site) {
    const name = type.getSymbol()!.getName();
    return ctx.fail(
      "MCPG025",
      `type "${ctx.checker.typeToString(type)}" is not JSON data`,
      site,
      UNSUPPORTED[name],
    );
  },
};
