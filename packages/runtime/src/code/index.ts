/**
 * `@mcp-gen/runtime/code`: code mode — a model's program, checked against the API's declarations
 * before it runs, then run in a sandbox whose only capabilities are the declared tools.
 */

// ── check (cm-api): declarations, the identifier rule, type-check and transpile (src/code/check/)
export {
  type ApiNames,
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
