/**
 * `@mcp-gen/runtime/server/http`: the pieces of mcp-gen's Streamable HTTP serving for an HTTP
 * server of your own (a web app that also mounts MCP): the options with their defaults, the
 * request guard (Host, Origin, content type) and the bounded JSON body reader. Apart from
 * `@mcp-gen/runtime/server` so that a stdio server does not load them.
 */
export { readJsonBody } from "./body.ts";
export { checkRequest, type Refusal } from "./guard.ts";
export { type HttpOptions, type ResolvedHttpOptions, resolveHttpOptions } from "./options.ts";
