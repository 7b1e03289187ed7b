import { describeErrors, type RawValidationError, type ValidationIssue } from "./describe.ts";
import { formatIssues } from "./format.ts";

/** A compiled standalone validator as emitted by Ajv (`errors` is set after a failed call). */
export interface RawValidate {
  (data: unknown): boolean;
  errors?: RawValidationError[] | null;
}

export type ValidationResult<T> =
  | { ok: true; value: T }
  | { ok: false; issues: ValidationIssue[]; message: string };

/** A typed validator over a generated standalone function. */
export interface Validator<T> {
  /** What this validator checks, e.g. `arguments of tool "search_devices"`. */
  readonly subject: string;
  /** Type guard: true when `data` is valid. */
  is(data: unknown): data is T;
  /** Validates `data` and explains every problem when it is invalid. */
  check(data: unknown): ValidationResult<T>;
}

/**
 * Wraps a generated validator function.
 *
 * @example
 * const v = createValidator<{ query: string }>(raw.search_devices_input, 'arguments of tool "search_devices"');
 * const r = v.check({ query: 1 });
 * if (!r.ok) console.log(r.message);
 */
export function createValidator<T>(raw: RawValidate, subject: string): Validator<T> {
  return {
    subject,
    is: (data: unknown): data is T => raw(data),
    check(data: unknown): ValidationResult<T> {
      if (raw(data)) return { ok: true, value: data as T };
      const issues = describeErrors(raw.errors ?? [], data);
      return { ok: false, issues, message: formatIssues(issues, `Invalid ${subject}`) };
    },
  };
}

/** Thrown by `assert`-style helpers when a value does not validate. */
export class ValidationError extends Error {
  override readonly name = "ValidationError";
  constructor(
    message: string,
    readonly issues: ValidationIssue[],
  ) {
    super(message);
  }
}
