import process from "node:process";
import type { jsonSchemaValidator } from "@modelcontextprotocol/server";

/**
 * `@mcp-gen/runtime/server/sdk-shims`: a stand-in for the MCP SDK server's own
 * `@modelcontextprotocol/server/_shims` when a stdio server is bundled into one file. The SDK's
 * Node shims import its default JSON Schema validator, the whole of Ajv with its formats and both
 * drafts' classes (312 KB of the bundle, 10–14 ms of CPU at every start, evaluated at import), which
 * an mcp-gen server never uses: it validates with generated code and gives every SDK `Server` its
 * own `jsonSchemaValidator`. Bundle with
 * `--alias:@modelcontextprotocol/server/_shims=@mcp-gen/runtime/server/sdk-shims` (see
 * docs/guide/deploying.md); anything in the bundle that still asks the SDK for its default
 * validator gets an error saying so.
 */
export { process };

/** The SDK's default validator, replaced: an mcp-gen server passes its own to every `Server`. */
export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  getValidator(): never {
    throw new Error(
      "mcp-gen: this bundle replaced the MCP SDK's default JSON Schema validator (Ajv) with " +
        "@mcp-gen/runtime/server/sdk-shims (esbuild --alias:@modelcontextprotocol/server/_shims=…), " +
        "but code in it asked the SDK to compile a schema at run time (an McpServer or fromJsonSchema " +
        "without a jsonSchemaValidator). Pass a jsonSchemaValidator there, or bundle without that alias.",
    );
  }
}
