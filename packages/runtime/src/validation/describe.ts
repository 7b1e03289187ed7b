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

/**
 * Replaces each failed `anyOf`/`oneOf` and the errors of all its alternatives by the errors
 * of the alternative the value most likely meant. Ajv reports a combinator's error right
 * after the errors of its alternatives, so inner combinators are collapsed first.
 */
function collapseAlternatives(errors: readonly RawValidationError[]): RawValidationError[] {
  let list = [...errors];
  for (let k = 0; k < list.length; k++) {
    const combinator = list[k]!;
    if (!ALTERNATIVES.has(combinator.keyword) || combinator.params.passingSchemas != null) continue;
    let start = k;
    while (start > 0 && within(list[start - 1]!.instancePath, combinator.instancePath)) start--;
    const replacement = chooseAlternative(combinator, list.slice(start, k));
    list = [...list.slice(0, start), ...replacement, ...list.slice(k + 1)];
    k = start + replacement.length - 1;
  }
  return list;
}

function within(pointer: string, base: string): boolean {
  return pointer === base || pointer.startsWith(`${base}/`);
}

function chooseAlternative(combinator: RawValidationError, run: RawValidationError[]): RawValidationError[] {
  const branches = new Map<string, RawValidationError[]>();
  const indirect: RawValidationError[] = [];
  for (const error of run) {
    const branch = directBranch(error, combinator);
    if (branch === undefined) indirect.push(error);
    else branches.set(branch, [...(branches.get(branch) ?? []), error]);
  }
  // An alternative whose literal tag (const/enum on a property) does not match is not the one meant.
  const rejected = new Set(
    [...branches].filter(([, errs]) => errs.some((e) => isTagMismatch(e, combinator))).map(([b]) => b),
  );
  const candidates = [...branches].filter(([b]) => !rejected.has(b));
  if (rejected.size > 0 && candidates.length === 0 && indirect.length === 0)
    return [tagError(run, combinator)];
  if (rejected.size > 0 && (candidates.length > 0 || indirect.length > 0)) {
    return [...candidates.flatMap(([, errs]) => errs), ...indirect];
  }
  const typeOnly = [...branches.values()].every((errs) =>
    errs.every((e) => e.keyword === "type" && e.instancePath === combinator.instancePath),
  );
  if (indirect.length === 0 && typeOnly) {
    const types = [...branches.values()].flat().map((e) => String(e.params.type));
    return [{ ...combinator, params: { ...combinator.params, types: [...new Set(types)] } }];
  }
  const closest = [...branches.values()]
    .filter((errs) => !errs.every((e) => e.keyword === "type" && e.instancePath === combinator.instancePath))
    .sort((a, b) => a.length - b.length)[0];
  return [...(closest ?? []), ...indirect];
}

/** Every alternative rejected the value's tag: report the tags that are allowed. */
function tagError(run: RawValidationError[], combinator: RawValidationError): RawValidationError {
  const tags = run.filter((e) => isTagMismatch(e, combinator));
  const first = tags[0]!;
  const allowed = tags
    .filter((e) => e.instancePath === first.instancePath)
    .flatMap((e) =>
      e.keyword === "const" ? [e.params.allowedValue] : ((e.params.allowedValues as unknown[]) ?? []),
    );
  return { ...first, keyword: "enum", params: { allowedValues: [...new Set(allowed)] } };
}

function isTagMismatch(error: RawValidationError, combinator: RawValidationError): boolean {
  return (
    (error.keyword === "const" || error.keyword === "enum") &&
    depth(error.instancePath) === depth(combinator.instancePath) + 1
  );
}

function depth(pointer: string): number {
  return pointer === "" ? 0 : pointer.split("/").length - 1;
}

/**
 * The alternative an error belongs to when it comes straight from that alternative's
 * schema (not through a `$ref` evaluated elsewhere): its schema path continues the
 * combinator's, and its data path is where that schema path leads.
 */
function directBranch(error: RawValidationError, combinator: RawValidationError): string | undefined {
  const prefix = `${combinator.schemaPath}/`;
  if (!error.schemaPath.startsWith(prefix)) return undefined;
  const [branch, ...rest] = error.schemaPath.slice(prefix.length).split("/");
  let levels = 0;
  for (let i = 0; i < rest.length; i++) {
    const segment = rest[i]!;
    const last = i === rest.length - 1;
    if (segment === "properties" || segment === "patternProperties" || segment === "prefixItems") {
      levels++;
      i++;
    } else if ((segment === "items" || segment === "additionalProperties") && !last) levels++;
  }
  return depth(error.instancePath) - depth(combinator.instancePath) === levels ? branch : undefined;
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
      return issue("this required property", joinPointer(at, String(p.missingProperty)), "nothing");
    case "additionalProperties": {
      const name = String(p.additionalProperty);
      return issue(
        `no property "${name}" (unknown properties are not allowed: remove it)`,
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
      return issue(`a string of at least ${count(p.limit, "character")}`);
    case "maxLength":
      return issue(`a string of at most ${count(p.limit, "character")}`);
    case "pattern":
      return issue(`a string matching the pattern ${String(p.pattern)}`);
    case "minItems":
      return issue(`an array of at least ${count(p.limit, "item")}`);
    case "maxItems":
      return issue(`an array of at most ${count(p.limit, "item")}`);
    case "uniqueItems":
      return issue(`an array without duplicates (items ${String(p.j)} and ${String(p.i)} are equal)`);
    case "minProperties":
      return issue(`an object with at least ${count(p.limit, "property", "properties")}`);
    case "maxProperties":
      return issue(`an object with at most ${count(p.limit, "property", "properties")}`);
    case "anyOf":
    case "oneOf": {
      if (p.passingSchemas != null) return issue("exactly one of the allowed shapes (it matches several)");
      const types = (p.types as string[] | undefined) ?? [];
      return issue(
        types.length > 0 ? `one of: ${types.map(article).join(", ")}` : "one of the allowed shapes",
      );
    }
    default:
      return issue(error.message ?? `to satisfy "${error.keyword}"`);
  }
}

function count(n: unknown, one: string, many = `${one}s`): string {
  return `${String(n)} ${n === 1 ? one : many}`;
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
