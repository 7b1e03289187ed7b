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
  /** MCP task support (`"forbidden"`, `"optional"`, `"required"`), as a pulled server declares it. */
  execution?: { taskSupport?: string };
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
  /** Present for tools extracted from TypeScript. */
  binding?: ToolBinding;
}

/** `schemas/<server>.tools.json`. */
export interface Contract {
  $comment?: string;
  server: string;
  tools: ContractTool[];
  "x-mcp-gen"?: {
    /** Where `mcp-gen pull` took the contract from: a stdio command line or a Streamable HTTP URL. */
    pulledFrom?: { command: string[] } | { url: string };
    tools: Record<string, ContractToolExtras>;
  };
}
