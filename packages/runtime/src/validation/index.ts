/**
 * `@mcp-gen/runtime/validation`: what generated validators plug into — `createValidator` wraps an
 * Ajv standalone function, and the error formatter turns its errors into feedback an LLM can act on.
 */
export {
  describeErrors,
  type RawValidationError,
  summarize,
  type ValidationIssue,
} from "./describe.ts";
export { formatIssues } from "./format.ts";
export { joinPointer, parsePointer, valueAt } from "./pointer.ts";
export {
  createValidator,
  type RawValidate,
  ValidationError,
  type ValidationResult,
  type Validator,
} from "./validator.ts";
