/**
 * `@mcp-gen/runtime/code`: code mode — the model writes one program against the generated API,
 * it is checked, then run in a sandbox whose only capabilities are the API's functions.
 */

// --- sandbox: run a checked, transpiled program (src/code/sandbox/) ---
export * from "./sandbox/index.ts";
// --- end sandbox ---
