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
}
