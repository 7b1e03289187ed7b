import type { ts } from "ts-morph";
import type { ExtractContext } from "../context.ts";
import type { TypeHandler } from "./handler.ts";

/** The global `URL` class: declared by TypeScript's DOM lib and by `@types/node`, nowhere else. */
function isGlobalUrl(type: ts.Type, ctx: ExtractContext): boolean {
  const symbol = type.getSymbol();
  if (symbol?.getName() !== "URL") return false;
  const declarations = symbol.getDeclarations() ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((d) => {
      const file = d.getSourceFile();
      return ctx.program.isSourceFileDefaultLibrary(file) || /[\\/]@types[\\/]node[\\/]/.test(file.fileName);
    })
  );
}

/** `URL` travels as an absolute URI string (`format: uri`); the server hands the tool a `URL` again. */
export const urlHandler: TypeHandler = {
  name: "url",
  supports: isGlobalUrl,
  create: () => ({ kind: "string", constraints: { format: "uri" }, url: true }),
};
