/**
 * `@mcp-gen/codegen/providers`: the pure conversion of tool definitions (JSON Schema) to each
 * provider dialect, with the same rules, moved constraints and normalization plans `mcp-gen build`
 * emits. For tools only known at run time (discovered from external MCP servers), so the runtime
 * converts them exactly as the build converts contracts (after normalising their schemas to
 * 2020-12 as `mcp-gen pull` does). Nothing here touches the file system.
 *
 * @example
 * import { convertContract } from "@mcp-gen/codegen/providers";
 * const { definitions, plans, problems } = convertContract({ server: "github", tools }, ["anthropic"]);
 */
export type { Contract, ContractTool, JsonSchema } from "../../contract/types.ts";
export type { IngestIssue } from "../../ingest/issues.ts";
export { normalizeSchema } from "../../ingest/normalize.ts";
export { convertContract, type ProviderConversion } from "./convert.ts";
export {
  DIALECTS,
  type Dialect,
  type DialectProblem,
  type MovedConstraint,
  TARGET_DIALECTS,
  TARGETS,
  type Target,
} from "./model.ts";
export type { Plan } from "./plan.ts";
export { TOOL_NAME_RULES } from "./rules.ts";
