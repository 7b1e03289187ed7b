import { joinPointer, valueAt } from "./pointer.ts";

/** The subset of an Ajv `ErrorObject` the generated validators report. */
export interface RawValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** One actionable validation problem: where, what was expected, what was received. */
export interface ValidationIssue {
  /** JSON pointer into the validated value ("" is the value itself). */
  pointer: string;
  /** JSON Schema keyword that failed. */
  keyword: string;
  /** What the value at `pointer` must be or do. */
  expected: string;
  /** What was found there, summarised. */
  received: string;
}

/** Turns raw validator errors into issues, collapsing `anyOf`/`oneOf` noise to the closest alternative. */
export function describeErrors(errors: readonly RawValidationError[], data: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of collapseAlternatives(errors)) {
    const issue = describeOne(error, data);
    if (!issues.some((i) => i.pointer === issue.pointer && i.expected === issue.expected)) issues.push(issue);
  }
  return issues;
}

const ALTERNATIVES = new Set(["anyOf", "oneOf"]);

/** Keeps, for each failed `anyOf`/`oneOf`, only the errors of the alternative that came closest. */
function collapseAlternatives(errors: readonly RawValidationError[]): RawValidationError[] {
  const combinators = errors.filter((e) => ALTERNATIVES.has(e.keyword) && e.params.passingSchemas == null);
  if (combinators.length === 0) return [...errors];
  let remaining = [...errors];
  for (const combinator of combinators) {
    const prefix = `${combinator.schemaPath}/`;
    const branches = new Map<string, RawValidationError[]>();
    for (const e of remaining) {
      if (!e.schemaPath.startsWith(prefix)) continue;
      const branch = e.schemaPath.slice(prefix.length).split("/")[0] ?? "";
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const inside = new Set([...branches.values()].flat());
    let closest: RawValidationError[] = [];
    for (const branchErrors of branches.values()) {
      // A branch that fails deeper (past a type check) matched the shape better.
      const typeOnly = branchErrors.every(
        (e) => e.keyword === "type" && e.instancePath === combinator.instancePath,
      );
      if (closest.length === 0 || (!typeOnly && branchErrors.length < closest.length)) closest = branchErrors;
    }
    const shallow = closest.every((e) => e.instancePath === combinator.instancePath && e.keyword === "type");
    remaining = remaining.filter((e) => !inside.has(e) && (e !== combinator || shallow));
    if (!shallow) remaining.push(...closest);
    else
      remaining = remaining.map((e) =>
        e === combinator ? { ...e, params: { ...e.params, branches: [...branches.values()] } } : e,
      );
  }
  return remaining;
}

function describeOne(error: RawValidationError, data: unknown): ValidationIssue {
  const p = error.params;
  const at = error.instancePath;
  const here = valueAt(data, at);
  const issue = (expected: string, pointer = at, received = summarize(here)) => ({
    pointer,
    keyword: error.keyword,
    expected,
    received,
  });
  switch (error.keyword) {
    case "required":
      return issue(
        "a required property (it is missing)",
        joinPointer(at, String(p.missingProperty)),
        "nothing",
      );
    case "additionalProperties": {
      const name = String(p.additionalProperty);
      return issue(
        "no such property: remove it (unknown properties are not allowed)",
        joinPointer(at, name),
        summarize(valueAt(data, joinPointer(at, name))),
      );
    }
    case "type":
      return issue(`${article(String(p.type).replace(/,/g, " or "))}`);
    case "enum":
      return issue(`one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`);
    case "const":
      return issue(`exactly ${JSON.stringify(p.allowedValue)}`);
    case "format":
      return issue(`a string in "${String(p.format)}" format`);
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return issue(`a number ${String(p.comparison)} ${String(p.limit)}`);
    case "multipleOf":
      return issue(`a multiple of ${String(p.multipleOf)}`);
    case "minLength":
      return issue(`a string of at least ${String(p.limit)} characters`);
    case "maxLength":
      return issue(`a string of at most ${String(p.limit)} characters`);
    case "pattern":
      return issue(`a string matching the pattern ${String(p.pattern)}`);
    case "minItems":
      return issue(`an array of at least ${String(p.limit)} items`);
    case "maxItems":
      return issue(`an array of at most ${String(p.limit)} items`);
    case "uniqueItems":
      return issue(`an array without duplicates (items ${String(p.j)} and ${String(p.i)} are equal)`);
    case "minProperties":
      return issue(`an object with at least ${String(p.limit)} properties`);
    case "maxProperties":
      return issue(`an object with at most ${String(p.limit)} properties`);
    case "anyOf":
    case "oneOf": {
      const branches = (p.branches as RawValidationError[][] | undefined) ?? [];
      const kinds = branches
        .flat()
        .map((e) => String(e.params.type ?? ""))
        .filter(Boolean);
      const list = [...new Set(kinds)].join(", ");
      return issue(
        error.keyword === "oneOf" && p.passingSchemas != null
          ? "exactly one of the allowed shapes (it matches several)"
          : list
            ? `one of: ${list}`
            : "one of the allowed shapes",
      );
    }
    default:
      return issue(error.message ?? `to satisfy "${error.keyword}"`);
  }
}

function article(type: string): string {
  if (type === "null") return "null";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A short, readable summary of a received value: its JSON type and (truncated) JSON text. */
export function summarize(value: unknown): string {
  if (value === undefined) return "nothing";
  const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  if (value === null) return "null";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length > 60) text = `${text.slice(0, 57)}...`;
  return `${type} ${text}`;
}
