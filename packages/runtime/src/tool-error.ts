const BRAND = Symbol.for("@mcp-gen/runtime.ToolError");

/**
 * An error whose message is meant for the caller: the server always sends it as the
 * tool result's text (`isError: true`), even when internal error details are masked.
 * Throw it for expected failures the model can act on.
 *
 * @example
 * import { ToolError } from "@mcp-gen/runtime";
 * export function read_note(id: string): string {
 *   const note = notes.get(id);
 *   if (!note) throw new ToolError(`no note "${id}"; call list_notes for the ids`);
 *   return note;
 * }
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  readonly [BRAND] = true;
}

// `error instanceof ToolError` holds for a ToolError of any copy of this package (a tool module
// loaded through a TypeScript loader, two installed versions), not only this one's; a subclass
// keeps the ordinary prototype check.
Object.defineProperty(ToolError, Symbol.hasInstance, {
  value(this: abstract new (...args: never[]) => unknown, value: unknown): boolean {
    if (this !== ToolError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && BRAND in value;
  },
});
