/** A location in a source file (1-based line and column, path relative to the project root). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/**
 * Stable diagnostic codes. Each has a one-line default fix; `docs/errors.md` lists them all, and `docs/reference/diagnostics.md`
 * (generated from this registry) shows each with an example.
 * Codes never change meaning once published.
 */
export const CODES = {
  MCPG001: {
    title: "config-not-found",
    fix: "create mcp-gen.config.ts (npx mcp-gen init writes one) or pass --config <file>",
  },
  MCPG002: { title: "config-invalid", fix: "correct the config value named in the message" },
  MCPG003: { title: "module-not-found", fix: "check the tools paths/globs of the server in the config" },
  MCPG010: {
    title: "typescript-error",
    fix: "fix the TypeScript error; the build only reads code that type-checks",
  },
  MCPG020: {
    title: "function-type",
    fix: "pass data instead of a function (e.g. a string naming the action)",
  },
  MCPG021: { title: "symbol-type", fix: "use a string instead of a symbol" },
  MCPG022: { title: "bigint-type", fix: "use a number (Int) or a decimal string instead of bigint" },
  MCPG023: { title: "class-with-methods", fix: "use an interface or type alias with data properties only" },
  MCPG024: { title: "unresolved-generic", fix: "replace the type parameter with a concrete type" },
  MCPG025: {
    title: "unsupported-type",
    fix: "use JSON data types: string, number, boolean, arrays, plain objects",
  },
  MCPG026: {
    title: "non-literal-default",
    fix: "use a literal default, or make the parameter optional and compute the value inside",
  },
  MCPG027: { title: "unsupported-parameter", fix: "declare a plain named parameter" },
  MCPG028: { title: "invalid-tag", fix: "give the tag a valid value, e.g. `@minimum 0` or `Minimum<0>`" },
  MCPG030: { title: "duplicate-tool-name", fix: "rename one of the tools, or give one a JSDoc `@name`" },
  MCPG031: {
    title: "invalid-tool-name",
    fix: "use 1-128 characters from a-z A-Z 0-9 _ - . (JSDoc `@name` overrides)",
  },
  MCPG032: {
    title: "tool-identifier-collision",
    fix: "rename one of the tools so their names differ in more than punctuation or case",
  },
  MCPG033: {
    title: "uri-template-mismatch",
    fix: "name every template variable as a parameter and every parameter in the template",
  },
  MCPG034: {
    title: "invalid-uri",
    fix: "write an absolute URI (`app://status`) or an RFC 6570 template (`app://items/{id}`)",
  },
  MCPG035: {
    title: "unsupported-argument-type",
    fix: "use string, a union of string literals, a string enum, number, Int or boolean",
  },
  MCPG036: {
    title: "unknown-completion-target",
    fix: "name a prompt of the server or the uriTemplate of one of its resource templates, then one of its arguments",
  },
  MCPG037: {
    title: "invalid-completer",
    fix: "declare it as (value: string, context: { arguments: Record<string, string> }) => string[] | Promise<string[]>",
  },
  MCPG038: {
    title: "duplicate-resource-or-prompt",
    fix: "give each resource a URI of its own and each resource, template and prompt a name of its own",
  },
  MCPG039: {
    title: "invalid-resource-or-prompt",
    fix: "follow the shape of the tag: `@resource` on a function returning string, Uint8Array or JSON; `@prompt` returning string or PromptMessage[]",
  },
  MCPG040: {
    title: "contract-invalid",
    fix: "correct the contract at the JSON pointer named in the message",
  },
  MCPG041: { title: "contract-unreadable", fix: "check the file exists and is valid JSON" },
  MCPG042: {
    title: "invalid-task-tag",
    fix: "write `@task` or `@task required`; leave the tag out for a tool that never runs as a task",
  },
  MCPG045: {
    title: "input-schema-unreadable",
    fix: "point `@inputSchema` at a .json file next to the tool module (the path is relative to the module) holding valid JSON",
  },
  MCPG046: {
    title: "input-schema-invalid",
    fix: 'write a JSON Schema 2020-12 object schema: `"type": "object"` at its root, valid against the 2020-12 meta-schema',
  },
  MCPG047: {
    title: "input-schema-mismatch",
    fix: "make every parameter a top-level property of the schema (required in `required` unless optional in TypeScript), and every property a parameter, or take one arguments object",
  },
  MCPG050: { title: "stale-output", fix: "run `npx mcp-gen build` and commit the result" },
  MCPG060: {
    title: "provider-rule",
    fix: "change the type so the target can express it, or leave the target out of `targets` in the config",
  },
  MCPG061: { title: "mcp-rule", fix: "correct the tool at the JSON pointer named in the message" },
  MCPG070: {
    title: "no-server-manifest",
    fix: "run `npx mcp-gen build`; only servers built from TypeScript tool modules can be served",
  },
  MCPG071: {
    title: "tool-class-not-constructible",
    fix: "give the class a static create() that builds an instance, or serve createManifest({...}) from code",
  },
  MCPG080: {
    title: "no-api-key",
    fix: "set ANTHROPIC_API_KEY or OPENAI_API_KEY (--provider chooses when both are set); *_BASE_URL picks a compatible endpoint",
  },
  MCPG081: { title: "invalid-mcp-option", fix: "write --mcp name=<command or http(s) URL>" },
  MCPG082: {
    title: "no-local-tools",
    fix: "run `npx mcp-gen build`, or reach a server without a manifest with --mcp name=<command or url>",
  },
  MCPG083: {
    title: "chat-usage",
    fix: "give a message, or start from a prompt with --prompt <name>; prompt arguments are --prompt-arg name=value",
  },
  MCPG084: {
    title: "unknown-resource-or-prompt",
    fix: "use a URI or prompt name the servers offer (the error lists them), with the prompt's required arguments",
  },
  MCPG090: {
    title: "server-did-not-start",
    fix: "check the command runs on its own (path, arguments, installed packages) or that the URL is right and the server is up",
  },
  MCPG091: {
    title: "server-did-not-answer",
    fix: "check the server speaks MCP on this transport, or give it longer with --timeout <ms>",
  },
  MCPG092: {
    title: "not-an-mcp-server",
    fix: "point pull at an MCP server: stdio servers write only JSON-RPC to stdout; HTTP servers answer at their MCP endpoint (often /mcp)",
  },
  MCPG093: {
    title: "server-drifted",
    fix: "run `npx mcp-gen pull <name>` to take the server's current tools, review the diff and commit it",
  },
  MCPG094: {
    title: "pull-usage",
    fix: "run `mcp-gen pull <name> -- <command…>` or `mcp-gen pull <name> --url <url>`",
  },
  MCPG095: {
    title: "breaking-change",
    fix: "keep the old shape (add, don't remove or narrow), or release the change as breaking for every client",
  },
  MCPG096: {
    title: "init-usage",
    fix: "pass a folder with --dir, a server name of letters, digits, - and _ with --name, and fix package.json if it does not parse",
  },
  MCPG100: {
    title: "unknown-type",
    fix: "give the value a concrete type so clients and models know what to send",
  },
  MCPG101: {
    title: "missing-description",
    fix: "add a JSDoc comment: the model reads it to choose the tool",
  },
  MCPG102: { title: "no-tools", fix: "export at least one function (or tool class) from the module" },
  MCPG103: {
    title: "unread-tag",
    fix: "write a tag mcp-gen reads at that place (see the guides Writing tools and Constraints), or say it with the type",
  },
  MCPG110: {
    title: "strict-fallback",
    fix: "declare every property (no maps, tuples, allOf or recursion) for OpenAI strict mode, or accept strict: false",
  },
  MCPG111: {
    title: "provider-renamed",
    fix: "map the name back with contractToolName from generated/<server>/providers/index.ts (the agent does it), or rename the tool",
  },
  MCPG120: {
    title: "unknown-keyword",
    fix: "use JSON Schema 2020-12 keywords (vendor annotations start with x-)",
  },
  MCPG121: {
    title: "unknown-format",
    fix: "use a format the validators know (date-time, email, uri, uuid …) or a pattern",
  },
  MCPG122: {
    title: "unresolved-ref",
    fix: "inline the referenced schema, or put it under $defs and refer to it as #/$defs/<name>",
  },
  MCPG123: {
    title: "task-only-tool",
    fix: "call it with `.task()` of its typed client method (`client.<tool>.task(args)`), or with another client that supports MCP tasks",
  },
  MCPG124: {
    title: "schema-strict",
    fix: "make the schema say what it means (e.g. add the type the keyword applies to)",
  },
  MCPG125: {
    title: "schema-rewritten",
    fix: "rewrite the schema in JSON Schema 2020-12 so nothing has to be dropped",
  },
} as const;

export type DiagnosticCode = keyof typeof CODES;

export interface Diagnostic {
  severity: "error" | "warning";
  code: DiagnosticCode;
  message: string;
  location?: SourceLocation;
  /** JSON pointer, for problems in JSON documents (config, contracts). */
  pointer?: string;
  /** File of a JSON document, when `location` does not apply. */
  file?: string;
  fix: string;
}

/** An error that stops the build; carries one or more diagnostics. */
export class McpGenError extends Error {
  override readonly name = "McpGenError";
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic | Diagnostic[]) {
    const list = Array.isArray(diagnostics) ? diagnostics : [diagnostics];
    super(list.map(formatDiagnostic).join("\n\n"));
    this.diagnostics = list;
  }
}

export function diagnostic(
  code: DiagnosticCode,
  message: string,
  where: {
    location?: SourceLocation;
    pointer?: string;
    file?: string;
    fix?: string;
    severity?: "error" | "warning";
  } = {},
): Diagnostic {
  const { fix, severity, ...rest } = where;
  const d: Diagnostic = {
    severity: severity ?? (code >= "MCPG100" ? "warning" : "error"),
    code,
    message,
    fix: fix ?? CODES[code].fix,
  };
  if (rest.location) d.location = rest.location;
  if (rest.pointer !== undefined) d.pointer = rest.pointer;
  if (rest.file) d.file = rest.file;
  return d;
}

/** Renders a diagnostic as `error MCPG020: … \n  at file:line:col\n  fix: …`. */
export function formatDiagnostic(d: Diagnostic): string {
  const lines = [`${d.severity} ${d.code}: ${d.message}`];
  if (d.location) lines.push(`  at ${d.location.file}:${d.location.line}:${d.location.column}`);
  else if (d.file) lines.push(`  at ${d.file}${d.pointer !== undefined ? ` ${d.pointer || "(root)"}` : ""}`);
  else if (d.pointer !== undefined) lines.push(`  at ${d.pointer || "(root)"}`);
  lines.push(`  fix: ${d.fix}`);
  return lines.join("\n");
}
