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
   * OAuth scopes a caller's token needs for this tool (`@scope`), all of them; checked when the
   * server is served over HTTP with `auth` (403 `insufficient_scope` otherwise).
   */
  readonly scopes?: readonly string[];
  /**
   * `@task … deferred`: a 2026-07-28 call starts as a plain call (it may gather input through
   * `input_required` rounds) and becomes a task when the tool calls `ctx.becomeTask()`.
   */
  readonly taskDeferred?: boolean;
  /**
   * Calls the implementation with validated arguments, mapped to its parameters.
   * `context` is only created for tools with `usesContext`.
   */
  invoke(args: any, context: ToolContext | undefined): unknown;
}

/** The task support a tool declares (`execution.taskSupport` of its definition). */
export function taskSupportOf(tool: ManifestTool): "optional" | "required" | undefined {
  const support = (tool.definition.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === "optional" || support === "required" ? support : undefined;
}

/** An icon of a tool, resource, prompt or server (MCP 2025-11-25 `icons`). */
export interface ManifestIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: "light" | "dark";
}

/** Who a resource is meant for and how much it matters (MCP `annotations`). */
export interface ResourceAnnotations {
  readonly audience?: readonly ("user" | "assistant")[];
  /** 0 (least) to 1 (most important). */
  readonly priority?: number;
  /** ISO 8601. */
  readonly lastModified?: string;
}

/** A static resource as `resources/list` returns it. */
export interface ResourceDefinition {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly icons?: readonly ManifestIcon[];
  readonly annotations?: ResourceAnnotations;
  readonly [field: string]: unknown;
}

/** A resource template as `resources/templates/list` returns it. */
export interface ResourceTemplateDefinition {
  /** RFC 6570 URI template, e.g. `economics://parameters/{category}`. */
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: readonly ManifestIcon[];
  readonly annotations?: ResourceAnnotations;
  readonly [field: string]: unknown;
}

/** A prompt as `prompts/list` returns it. */
export interface PromptDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly {
    readonly name: string;
    readonly description?: string;
    readonly required?: boolean;
  }[];
  readonly icons?: readonly ManifestIcon[];
  readonly [field: string]: unknown;
}

/**
 * Completes one prompt argument or template variable (`completion/complete`): a fixed list of
 * values (a literal union's members), which the server filters by the typed prefix, or a function
 * that sees the prefix and the other arguments already given (`context.arguments`).
 */
export type Completer =
  | readonly string[]
  | ((
      value: string,
      context: { readonly arguments: Readonly<Record<string, string>> },
    ) => readonly string[] | Promise<readonly string[]>);

/**
 * How strings become typed values: URI template variables and prompt arguments travel as strings.
 * A name listed here is converted before validation (`"number"`/`"integer"`: `Number(text)`, refused
 * when not finite; `"boolean"`: `"true"` or `"false"`); every other name stays a string.
 */
export type StringCoercions = { readonly [name: string]: "number" | "integer" | "boolean" };

/** A static resource of a manifest: `@resource <uri>` on a function without parameters. */
export interface ManifestResource {
  readonly definition: ResourceDefinition;
  /** The implementation declares a `ToolContext` parameter. */
  readonly usesContext: boolean;
  /**
   * Calls the implementation. A string result is text content, a `Uint8Array` a blob, anything
   * else is sent as JSON text (`application/json` unless the definition names a MIME type).
   */
  read(context: ToolContext | undefined): unknown;
}

/** A resource template: `@resource <uri-template>`, whose variables are the function's parameters. */
export interface ManifestResourceTemplate {
  readonly definition: ResourceTemplateDefinition;
  /** Validates the variables (an object by name, after `coerce`) before `read` runs. */
  readonly variables: Validator<unknown>;
  readonly coerce?: StringCoercions;
  readonly usesContext: boolean;
  /** Completions by variable name. */
  readonly complete?: { readonly [variable: string]: Completer };
  /** Calls the implementation with validated variables (an object by name), result as `ManifestResource.read`. */
  read(variables: any, context: ToolContext | undefined): unknown;
}

/** A prompt: `@prompt` on a function whose parameters are the prompt's arguments. */
export interface ManifestPrompt {
  readonly definition: PromptDefinition;
  /** Validates the arguments (an object by name, after `coerce`) before `get` runs. */
  readonly input: Validator<unknown>;
  readonly coerce?: StringCoercions;
  readonly usesContext: boolean;
  /** Completions by argument name. */
  readonly complete?: { readonly [argument: string]: Completer };
  /**
   * Calls the implementation with validated arguments (an object by name). A string result is one
   * user message with text content; an array is a list of `PromptMessage`s, sent as they are.
   */
  get(args: any, context: ToolContext | undefined): unknown;
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
  /** Server title and icons (`serverInfo`, MCP 2025-11-25). */
  readonly title?: string;
  readonly icons?: readonly ManifestIcon[];
  /** Tools in `tools/list` order. */
  readonly tools: readonly ManifestTool[];
  /** Static resources in `resources/list` order. */
  readonly resources?: readonly ManifestResource[];
  /** Resource templates in `resources/templates/list` order; `resources/read` tries them in this order. */
  readonly resourceTemplates?: readonly ManifestResourceTemplate[];
  /** Prompts in `prompts/list` order. */
  readonly prompts?: readonly ManifestPrompt[];
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
