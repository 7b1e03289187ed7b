import type { ApiServer } from "./api.ts";
import { renderIndex } from "./index-listing.ts";
import { renderDeclarations } from "./render.ts";

/** Options of `codeToolDescription`. */
export interface CodeToolDescriptionOptions {
  /**
   * Longest declarations, in characters, the description carries whole (default 24,000, about
   * 6k tokens); past it, the description carries the index and names the lookup.
   */
  maxDeclarationChars?: number;
  /** The name of the lookup (a second tool, or a function) the index names; default `describe_api`. */
  lookup?: string;
}

/** What `codeToolDescription` chose, and the text. */
export interface CodeToolDescription {
  /** `declarations`: every declaration is in the text; `index`: the model looks them up. */
  form: "declarations" | "index";
  text: string;
}

const PROGRAM_FORM =
  "Write the body of an async JavaScript or TypeScript function: statements that await the " +
  "functions declared below and return a JSON value (the result you get back). Nothing else is " +
  "available: no fetch, require, process, import or timers; console.log is captured and shown to " +
  "you. The program is type-checked before it runs: a type error comes back as line:col message, " +
  "and nothing has run. Call independent functions together with Promise.all.";

/**
 * The description of a code tool: the program's form, then the API's declarations — or, when they
 * are longer than `maxDeclarationChars`, its index and how to read one server's or tool's
 * declarations.
 *
 * @example
 * const { form, text } = codeToolDescription([apiServer(contract)]);
 */
export function codeToolDescription(
  servers: readonly ApiServer[],
  options: CodeToolDescriptionOptions = {},
): CodeToolDescription {
  const declarations = renderDeclarations(servers, { compact: true, forModel: true });
  if (declarations.length <= (options.maxDeclarationChars ?? 24_000)) {
    return { form: "declarations", text: `${PROGRAM_FORM}\n\n${declarations}` };
  }
  const index = renderIndex(servers, { lookup: options.lookup ?? "describe_api" });
  return { form: "index", text: `${PROGRAM_FORM}\n\n${index}` };
}
