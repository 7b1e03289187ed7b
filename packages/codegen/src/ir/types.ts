/**
 * The intermediate representation: plain, serialisable data shaped like JSON Schema
 * 2020-12. Extraction produces it; the contract step turns it into JSON Schema.
 * `mcp-gen build --dump-ir` prints it.
 */

import type { SourceLocation } from "@mcp-gen/schema";

export type { SourceLocation };

/** Keywords that annotate or constrain any type (JSDoc tags and type-level tags land here). */
export interface IrMeta {
  description?: string;
  default?: unknown;
  examples?: unknown[];
  deprecated?: boolean;
  title?: string;
  /** Validation keywords such as `minimum`, `maxLength`, `pattern`, `format`, `uniqueItems`. */
  constraints?: Record<string, unknown>;
}

export type IrType =
  | IrPrimitive
  | IrLiteral
  | IrEnum
  | IrArray
  | IrTuple
  | IrObject
  | IrUnion
  | IrRef
  | IrUnknown
  | IrNever;

export interface IrPrimitive extends IrMeta {
  kind: "string" | "number" | "integer" | "boolean" | "null";
  /** A `Date` in TypeScript: an ISO 8601 string on the wire, turned back into a `Date` for the tool. */
  date?: true;
  /** A `URL` in TypeScript: an absolute URI string on the wire, turned back into a `URL` for the tool. */
  url?: true;
}

export interface IrLiteral extends IrMeta {
  kind: "literal";
  value: string | number | boolean;
}

export interface IrEnum extends IrMeta {
  kind: "enum";
  values: (string | number | boolean)[];
}

export interface IrArray extends IrMeta {
  kind: "array";
  items: IrType;
}

export interface IrTuple extends IrMeta {
  kind: "tuple";
  /** Leading elements (`prefixItems`); `minItems`/`maxItems` sit in `constraints`. */
  items: IrType[];
  /** Type of the elements after `items` (a rest element); absent for fixed-length tuples. */
  rest?: IrType;
}

export interface IrProperty {
  name: string;
  type: IrType;
  required: boolean;
}

export interface IrObject extends IrMeta {
  kind: "object";
  properties: IrProperty[];
  /** `false`: closed object; a type: the type of any other key (records, index signatures). */
  additional: IrType | false;
}

export interface IrUnion extends IrMeta {
  kind: "union";
  members: IrType[];
  /** Property whose literal value tells the object members apart (emitted as `oneOf`). */
  discriminator?: string;
}

/** A reference to a named definition (used for recursive types). */
export interface IrRef extends IrMeta {
  kind: "ref";
  name: string;
}

/** `unknown`/`any`: accepts anything. */
export interface IrUnknown extends IrMeta {
  kind: "unknown";
}

/** No value: a property typed `never` or `undefined` (`name?: never`) must be absent. */
export interface IrNever extends IrMeta {
  kind: "never";
}

export interface IrParam {
  name: string;
  type: IrType;
  required: boolean;
  location: SourceLocation;
}

/** How the server reaches a tool's implementation. */
export type IrBinding =
  | { kind: "function"; module: string; export: string }
  | { kind: "method"; module: string; export: string; method: string };

export interface IrAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface IrTool {
  name: string;
  title?: string;
  description?: string;
  /** Parameters in declaration order (the tool context excluded). */
  params: IrParam[];
  /** Position of the tool-context parameter in the signature, if the tool takes one. */
  contextIndex?: number;
  /**
   * How arguments reach the function: `positional` spreads them in `params` order;
   * `object` passes the whole arguments object (one destructured parameter).
   */
  argsStyle: "positional" | "object";
  /** The unwrapped return type; `null` when the tool returns nothing (`void`). */
  returns: IrType | null;
  returnsDescription?: string;
  annotations: IrAnnotations;
  /** OAuth scopes a caller needs (`@scope`), all of them. */
  scopes?: string[];
  binding: IrBinding;
  icons?: IrIcon[];
  /** `@task`: the tool runs as an MCP task (`execution.taskSupport`). */
  taskSupport?: "optional" | "required";
  /** `@task … deferred`: a call starts as a plain call and becomes a task at `ctx.becomeTask()`. */
  taskDeferred?: boolean;
  /**
   * A hand-written input schema (JSDoc `@inputSchema <file>`): the contract takes it as it is
   * instead of a schema derived from `params` (which still bind the arguments to the function).
   */
  inputSchema?: IrInputSchema;
  location: SourceLocation;
}

/** The JSON Schema of a tool's arguments, read from a file. */
export interface IrInputSchema {
  /** Path relative to the project root (POSIX). */
  file: string;
  schema: { [keyword: string]: unknown };
}

export interface IrServer {
  name: string;
  tools: IrTool[];
  /** Static resources, templates and prompts, sorted by name like the tools (absent when none). */
  resources?: IrResource[];
  resourceTemplates?: IrResourceTemplate[];
  prompts?: IrPrompt[];
  /** Named definitions referenced by `ref` types (recursive types, and tagged aliases used more than once). */
  definitions: Record<string, IrType>;
}

/** An icon (MCP 2025-11-25 `icons`), from a JSDoc `@icon <src> [mimeType] [sizes…]`. */
export interface IrIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** Who a resource is meant for and how much it matters (`@audience`, `@priority`). */
export interface IrResourceAnnotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
}

/** How a resource's value travels: text, a base64 blob, or JSON text (typed by `type`). */
export type IrResourceResult = { kind: "text" } | { kind: "blob" } | { kind: "json"; type: IrType };

/** A function export (resources, prompts and completers are functions, never class methods). */
export interface IrFunctionBinding {
  module: string;
  export: string;
}

/** The completion of one template variable or prompt argument: fixed values or a completer function. */
export type IrCompletion = { values: string[] } | { binding: IrFunctionBinding };

/** What a string-typed argument becomes before validation (template variables, prompt arguments). */
export type IrCoercion = "number" | "integer" | "boolean";

/** Fields shared by static resources and resource templates. */
interface IrResourceBase {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: IrIcon[];
  annotations?: IrResourceAnnotations;
  result: IrResourceResult;
  binding: IrFunctionBinding;
  /** Position of the tool-context parameter, if any. */
  contextIndex?: number;
  location: SourceLocation;
}

/** `@resource <uri>`: a function with no parameters but an optional `ToolContext`. */
export interface IrResource extends IrResourceBase {
  uri: string;
  size?: number;
}

/** `@resource <uri-template>`: every RFC 6570 variable is a parameter of the same name. */
export interface IrResourceTemplate extends IrResourceBase {
  uriTemplate: string;
  /** The variables, in parameter order. */
  params: IrParam[];
  coerce: Record<string, IrCoercion>;
  complete: Record<string, IrCompletion>;
}

/** `@prompt`: its parameters are the prompt's arguments. */
export interface IrPrompt {
  name: string;
  title?: string;
  description?: string;
  icons?: IrIcon[];
  params: IrParam[];
  coerce: Record<string, IrCoercion>;
  complete: Record<string, IrCompletion>;
  /** `text`: one user message; `messages`: a `PromptMessage[]`. */
  result: "text" | "messages";
  binding: IrFunctionBinding;
  contextIndex?: number;
  location: SourceLocation;
}

/** `@complete <prompt-name or uri-template> <argument>`, before it is attached to its target. */
export interface IrCompleter {
  target: string;
  argument: string;
  binding: IrFunctionBinding;
  location: SourceLocation;
}
