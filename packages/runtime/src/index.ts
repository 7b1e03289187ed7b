export * from "./agent/index.ts";
export * from "./client/index.ts";
export {
  audio,
  content,
  image,
  isToolResult,
  type ResourceContents,
  resource,
  resourceLink,
  type ToolResult,
  text,
} from "./content.ts";
export type { LogLevel, ToolContext } from "./context.ts";
export { LOG_LEVELS } from "./context.ts";
export * from "./providers/index.ts";
export { createServer } from "./server/create-server.ts";
export { reviveDates } from "./server/dates.ts";
export { readJsonBody } from "./server/http/body.ts";
export { checkRequest, type Refusal } from "./server/http/guard.ts";
export { type HttpOptions, type ResolvedHttpOptions, resolveHttpOptions } from "./server/http/options.ts";
export {
  defineManifest,
  type ManifestTool,
  type ServerManifest,
  type ToolDefinition,
} from "./server/manifest.ts";
export type { ServerEvent, ServerOptions } from "./server/options.ts";
export { type RunningServer, type ServeOptions, serve } from "./server/serve.ts";
export type {
  ExclusiveMaximum,
  ExclusiveMinimum,
  Format,
  FormatName,
  Int,
  MaxItems,
  Maximum,
  MaxLength,
  MinItems,
  Minimum,
  MinLength,
  MultipleOf,
  Pattern,
  UniqueItems,
} from "./tags.ts";
export { ToolError } from "./tool-error.ts";
export {
  describeErrors,
  type RawValidationError,
  summarize,
  type ValidationIssue,
} from "./validation/describe.ts";
export { formatIssues } from "./validation/format.ts";
export { joinPointer, parsePointer, valueAt } from "./validation/pointer.ts";
export {
  createValidator,
  type RawValidate,
  ValidationError,
  type ValidationResult,
  type Validator,
} from "./validation/validator.ts";
