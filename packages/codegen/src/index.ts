export type {
  Contract,
  ContractTool,
  ContractToolExtras,
  IngestIssue,
  JsonSchema,
  ToolBinding,
} from "@mcp-gen/schema";
export {
  CODES,
  canonicalSchema,
  type Diagnostic,
  type DiagnosticCode,
  formatDiagnostic,
  McpGenError,
  type NormalizeMode,
  normalizeContract,
  normalizeSchema,
} from "@mcp-gen/schema";
export { type BuildOptions, type BuildResult, build, generate } from "./build.ts";
export {
  defineConfig,
  type ImportExtension,
  type McpGenConfig,
  type NamingStyle,
  type ProviderTarget,
  type ServerConfig,
} from "./config/define.ts";
export { findConfig, loadConfig, type ResolvedConfig } from "./config/load.ts";
export { contractFromIr, schemaOf } from "./contract/from-ir.ts";
export { checkContract, readContract, serializeContract } from "./contract/read.ts";
export { type ContractChange, diffContracts } from "./diff/diff.ts";
export { EMITTERS, type EmitServerOptions, type Emitter, emitServer } from "./emit/index.ts";
export { type ExtractResult, extract } from "./extract/index.ts";
export { dumpIr } from "./ir/dump.ts";
export type * from "./ir/types.ts";
export { type PullOptions, type PullProtocol, type PullResult, pull } from "./pull/pull.ts";
export type { PullSource } from "./pull/source.ts";
export { type BuildOutputs, type BuiltFile, textOf } from "./write/outputs.ts";
