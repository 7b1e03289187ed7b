import { summarize, type ValidationIssue } from "../validation/describe.ts";
import { formatIssues } from "../validation/format.ts";
import { joinPointer } from "../validation/pointer.ts";
import type { Validator } from "../validation/validator.ts";
import type { StringCoercions } from "./manifest.ts";

/** Typed values, or why the strings cannot be read as them. */
export type Coerced = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/**
 * Reads the strings of URI template variables or prompt arguments as the values the
 * implementation declares, then checks them with the generated validator. `"number"` and
 * `"integer"` go through `Number()` (blank text, non-finite numbers and, for integers, fractions
 * are refused); `"boolean"` accepts `"true"` and `"false"`; everything else stays a string.
 *
 * @example
 * coerceAndCheck({ id: "42" }, { id: "integer" }, validator, 'variables of resource template "user"');
 * // { ok: true, value: { id: 42 } }
 */
export function coerceAndCheck(
  strings: Readonly<Record<string, string>>,
  coercions: StringCoercions | undefined,
  validator: Validator<unknown>,
  subject: string,
): Coerced {
  const value: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [name, text] of Object.entries(strings)) {
    const kind = coercions && Object.hasOwn(coercions, name) ? coercions[name] : undefined;
    const read = kind === undefined ? text : coerce(text, kind);
    if (read === undefined) {
      issues.push({
        pointer: joinPointer("", name),
        keyword: "type",
        expected: EXPECTED[kind!],
        received: summarize(text),
      });
      continue;
    }
    value[name] = read;
  }
  if (issues.length > 0) return { ok: false, message: formatIssues(issues, `Invalid ${subject}`) };
  const checked = validator.check(value);
  return checked.ok ? { ok: true, value } : { ok: false, message: checked.message };
}

const EXPECTED = {
  number: "a number",
  integer: "an integer",
  boolean: '"true" or "false"',
} as const;

function coerce(text: string, kind: "number" | "integer" | "boolean"): unknown {
  if (kind === "boolean") return text === "true" ? true : text === "false" ? false : undefined;
  if (text.trim() === "") return undefined;
  const number = Number(text);
  if (!Number.isFinite(number)) return undefined;
  if (kind === "integer" && !Number.isInteger(number)) return undefined;
  return number;
}
