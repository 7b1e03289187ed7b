export * from "./client/index.ts";
export type { LogLevel, ToolContext } from "./context.ts";
export * from "./providers/index.ts";
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
