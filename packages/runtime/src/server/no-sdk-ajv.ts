import module from "node:module";

/**
 * `@mcp-gen/runtime/server/no-sdk-ajv`: preloaded with `node --import`, keeps the MCP SDK's default
 * JSON Schema validator out of an unbundled server's start. The SDK's Node shims import the whole
 * of Ajv at import time (10–14 ms of CPU per start, bench/README.md), which an mcp-gen server never
 * uses: it validates with generated code and gives every SDK `Server` its own validator. A
 * synchronous resolve hook (`module.registerHooks`, Node 22.15+) points the SDK's
 * `@modelcontextprotocol/server/_shims` at `@mcp-gen/runtime/server/sdk-shims`, the same
 * substitution the single-file bundle makes with esbuild's `--alias`. On a Node without
 * `registerHooks` it changes nothing and says so once.
 *
 * @example
 * // node --import @mcp-gen/runtime/server/no-sdk-ajv dist/src/server.js
 */
const SDK_SHIMS = "@modelcontextprotocol/server/_shims";

type Resolved = { url: string; shortCircuit?: boolean };
/** `module.registerHooks` of Node 22.15+ (the resolve hook alone), absent from Node 20's types. */
type RegisterHooks = (hooks: {
  resolve(
    specifier: string,
    context: object,
    next: (specifier: string, context: object) => Resolved,
  ): Resolved;
}) => unknown;
const registerHooks = (module as { registerHooks?: RegisterHooks }).registerHooks;

if (typeof registerHooks === "function") {
  const shims = import.meta.resolve("@mcp-gen/runtime/server/sdk-shims");
  registerHooks({
    resolve: (specifier, context, next) =>
      specifier === SDK_SHIMS ? { url: shims, shortCircuit: true } : next(specifier, context),
  });
} else {
  process.emitWarning(
    `@mcp-gen/runtime/server/no-sdk-ajv needs module.registerHooks (Node 22.15+, this is ${process.version}): the MCP SDK loads its Ajv validator as usual`,
  );
}
