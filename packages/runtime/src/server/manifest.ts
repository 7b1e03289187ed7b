import type { ToolContext } from "../context.ts";
import type { Validator } from "../validation/validator.ts";

/** A tool as `tools/list` returns it (the contract's MCP fields). */
export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: { readonly type: "object"; readonly [keyword: string]: unknown };
  readonly outputSchema?: { readonly type: "object"; readonly [keyword: string]: unknown };
  readonly annotations?: { readonly [hint: string]: unknown };
  readonly [field: string]: unknown;
}

/** One tool of a manifest: its definition, its validators and how to call it. */
export interface ManifestTool {
  readonly definition: ToolDefinition;
  /** Validates the `arguments` of `tools/call` before anything runs. */
  readonly input: Validator<unknown>;
  /** Validates the structured result; absent for tools that return content or nothing. */
  readonly output?: Validator<unknown>;
  /** A non-object result `T` travels as `structuredContent: { result: T }`. */
  readonly resultWrapped: boolean;
  /** The implementation declares a `ToolContext` parameter. */
  readonly usesContext: boolean;
  /**
   * Calls the implementation with validated arguments, mapped to its parameters.
   * `context` is only created for tools with `usesContext`.
   */
  invoke(args: any, context: ToolContext | undefined): unknown;
}

/**
 * Everything a server needs, as `mcp-gen build` emits it in `generated/<server>/server.ts`:
 * tool definitions, validators and bindings to the implementations. Nothing is compiled
 * or reflected at start-up.
 */
export interface ServerManifest {
  /** Server name (`serverInfo.name`). */
  readonly server: string;
  /** Server version (`serverInfo.version`). */
  readonly version?: string;
  /** Tools in `tools/list` order. */
  readonly tools: readonly ManifestTool[];
}

/**
 * Declares a manifest (used by generated code; identity at run time, checked by the compiler).
 *
 * @example
 * export const manifest = defineManifest({ server: "demo", tools: [...] });
 */
export function defineManifest(manifest: ServerManifest): ServerManifest {
  return manifest;
}
