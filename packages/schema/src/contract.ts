/** A JSON Schema object (2020-12) as stored in contracts. */
export type JsonSchema = { [keyword: string]: unknown };

/** One tool in MCP `tools/list` shape. */
export interface ContractTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  /** Icons (MCP 2025-11-25), from JSDoc `@icon`. */
  icons?: ContractIcon[];
  /** MCP task support (`"forbidden"`, `"optional"`, `"required"`), as a pulled server declares it. */
  execution?: { taskSupport?: string };
}

/** An icon of a tool, resource, template or prompt (MCP 2025-11-25 `icons`). */
export interface ContractIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** Who a resource is meant for and how much it matters (MCP resource `annotations`). */
export interface ContractResourceAnnotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

/** One static resource in MCP `resources/list` shape. */
export interface ContractResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: ContractIcon[];
  annotations?: ContractResourceAnnotations;
}

/** One resource template in MCP `resources/templates/list` shape. */
export interface ContractResourceTemplate {
  /** RFC 6570 URI template. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: ContractIcon[];
  annotations?: ContractResourceAnnotations;
}

/** One prompt in MCP `prompts/list` shape. */
export interface ContractPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  icons?: ContractIcon[];
}

/** How a generated server calls a resource, template, prompt or completer function. */
export interface FunctionBinding {
  /** Module path relative to the project root. */
  module: string;
  export: string;
  /** Parameter names in declaration order (the variables or arguments; the context left out). */
  params?: string[];
  /** Position of the `ToolContext` parameter, if any. */
  contextIndex?: number;
}

/** The completion of one argument: a fixed list (literal union, enum) or a completer function. */
export type ContractCompletion = { values: string[] } | { binding: { module: string; export: string } };

/** String coercions of the arguments that are not strings (`StringCoercions` of the manifest). */
export type ContractCoercions = Record<string, "number" | "integer" | "boolean">;

/**
 * What a resource's value is: `text` (a string), `blob` (a `Uint8Array`, base64 on the wire) or
 * `json` (JSON text; `schema` types it for the typed client and is not sent).
 */
export type ContractResourceResult =
  | { kind: "text" }
  | { kind: "blob" }
  | { kind: "json"; schema: JsonSchema };

/** mcp-gen's extras of a static resource. */
export interface ContractResourceExtras {
  binding?: FunctionBinding;
  result?: ContractResourceResult;
}

/** mcp-gen's extras of a resource template or prompt: its arguments, typed. */
export interface ContractArgumentsExtras {
  binding?: FunctionBinding;
  /** JSON Schema (an object) of the typed variables or arguments, after `coerce`. */
  argumentsSchema?: JsonSchema;
  coerce?: ContractCoercions;
  /** Completions by argument name. */
  complete?: Record<string, ContractCompletion>;
}

/** mcp-gen's extras of a resource template. */
export interface ContractResourceTemplateExtras extends ContractArgumentsExtras {
  result?: ContractResourceResult;
}

/** mcp-gen's extras of a prompt: it returns one text (`text`) or a list of messages (`messages`). */
export interface ContractPromptExtras extends ContractArgumentsExtras {
  result?: "text" | "messages";
}

/** How a generated server calls the implementation of a tool. */
export interface ToolBinding {
  kind: "function" | "method";
  /** Module path relative to the project root (the folder of the config). */
  module: string;
  /** Export name: the function, or the class for methods. */
  export: string;
  method?: string;
  /** `positional`: arguments spread in `params` order; `object`: the arguments object as is. */
  argsStyle: "positional" | "object";
  /** Parameter names in declaration order. */
  params: string[];
  /** Position of the `ToolContext` parameter, if any. */
  contextIndex?: number;
  /**
   * Where the arguments hold a `Date` (JSON pointers into the arguments object, `*` for any array
   * item or map value): the server turns those ISO strings back into `Date`s before the call.
   */
  dates?: string[];
  /** Where the arguments hold a `URL` (pointers as for `dates`): the server makes those strings `URL`s. */
  urls?: string[];
}

/**
 * The `_meta` key with which an mcp-gen server marks, in `tools/list`, a tool whose result is sent
 * wrapped as `{ result }`; `mcp-gen pull` reads it back into `resultWrapped`, so a client pulled
 * from an mcp-gen server unwraps results as one built from the sources does.
 */
export const RESULT_WRAPPED_META = "dev.mcp-gen/resultWrapped";

/** What mcp-gen needs beyond the MCP fields, kept apart from them. */
export interface ContractToolExtras {
  /** The tool returns a non-object value `T`, sent as `structuredContent: { result: T }`. */
  resultWrapped?: boolean;
  /** OAuth scopes a caller's token needs for the tool (`@scope`), all of them. */
  scopes?: string[];
  /**
   * `@task … deferred`: a call of the tool starts as a plain call (on 2026-07-28, gathering input
   * through `input_required`) and becomes a task when the tool calls `ctx.becomeTask()`.
   */
  taskDeferred?: boolean;
  /** Present for tools extracted from TypeScript. */
  binding?: ToolBinding;
  /** The hand-written JSON Schema file (JSDoc `@inputSchema`) `inputSchema` was read from. */
  inputSchema?: string;
}

/** `schemas/<server>.tools.json`. */
export interface Contract {
  $comment?: string;
  server: string;
  /** `serverInfo.title`: a human-readable name of the server (MCP 2025-11-25). */
  title?: string;
  /** `serverInfo.version`. */
  version?: string;
  /** `serverInfo.icons` (MCP 2025-11-25). */
  icons?: ContractIcon[];
  tools: ContractTool[];
  /** Static resources (`resources/list` items), sorted by name; absent when there are none. */
  resources?: ContractResource[];
  /** Resource templates (`resources/templates/list` items), sorted by name. */
  resourceTemplates?: ContractResourceTemplate[];
  /** Prompts (`prompts/list` items), sorted by name. */
  prompts?: ContractPrompt[];
  "x-mcp-gen"?: {
    /** Where `mcp-gen pull` took the contract from: a stdio command line or a Streamable HTTP URL. */
    pulledFrom?: { command: string[] } | { url: string };
    tools: Record<string, ContractToolExtras>;
    /** By resource name. */
    resources?: Record<string, ContractResourceExtras>;
    /** By template name. */
    resourceTemplates?: Record<string, ContractResourceTemplateExtras>;
    /** By prompt name. */
    prompts?: Record<string, ContractPromptExtras>;
  };
}
