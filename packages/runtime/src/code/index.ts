/**
 * `@mcp-gen/runtime/code`: code mode — the model writes one program against the generated API,
 * it is checked, then run in a sandbox whose only capabilities are the API's functions.
 */

// --- sandbox: run a checked, transpiled program (src/code/sandbox/) ---
export * from "./sandbox/index.ts";
// --- end sandbox ---

// ── check (cm-api): declarations, the identifier rule, type-check and transpile (src/code/check/)
export {
  type ApiNames,
  type ApiPrompt,
  type ApiResource,
  type ApiResourceTemplate,
  type ApiServer,
  type ApiTool,
  apiNames,
  apiServer,
  type CodeToolDescription,
  codeIdentifier,
  codeIdentifiers,
  codeToolDescription,
  type Described,
  describeApi,
  renderDeclarations,
  renderIndex,
} from "@mcp-gen/schema/declarations";
export {
  type CheckDiagnostic,
  type Checker,
  type CheckerOptions,
  type CheckOptions,
  type CheckResult,
  createChecker,
} from "./check/checker.ts";
// ── end of check

// ── code mode in one call: check, then run (src/code/code-mode.ts)
export {
  type CodeMode,
  type CodeModeOptions,
  type CodeModeResult,
  type CodeModeRunOptions,
  type CodeModeServer,
  codeMode,
  codeResultText,
} from "./code-mode.ts";
export { type WithCodeTool, type WithCodeToolOptions, withCodeTool } from "./code-tool.ts";
