import type { IrMeta, IrType } from "../ir/types.ts";
import type { ExtractContext, Site } from "./context.ts";
import type { DocInfo } from "./jsdoc.ts";

/** Constraint keywords and the JSON types they apply to. */
export const CONSTRAINTS: Record<
  string,
  { applies: "number" | "string" | "array"; value: "number" | "string" | "true" }
> = {
  minimum: { applies: "number", value: "number" },
  maximum: { applies: "number", value: "number" },
  exclusiveMinimum: { applies: "number", value: "number" },
  exclusiveMaximum: { applies: "number", value: "number" },
  multipleOf: { applies: "number", value: "number" },
  minLength: { applies: "string", value: "number" },
  maxLength: { applies: "string", value: "number" },
  pattern: { applies: "string", value: "string" },
  format: { applies: "string", value: "string" },
  minItems: { applies: "array", value: "number" },
  maxItems: { applies: "array", value: "number" },
  uniqueItems: { applies: "array", value: "true" },
};

/** Formats the generated validators know (ajv-formats, full mode). */
export const FORMATS = new Set([
  "date",
  "time",
  "date-time",
  "iso-time",
  "iso-date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "json-pointer-uri-fragment",
  "relative-json-pointer",
  "byte",
  "int32",
  "int64",
  "float",
  "double",
  "password",
  "binary",
]);

const COUNT_KEYWORDS = new Set(["minLength", "maxLength", "minItems", "maxItems"]);

/** Checks one constraint value (from JSDoc text or a type-level tag) and returns it typed. */
export function parseConstraint(keyword: string, value: unknown, ctx: ExtractContext, site: Site): unknown {
  const spec = CONSTRAINTS[keyword]!;
  const tag = `@${keyword}`;
  if (spec.value === "true") {
    if (value === undefined || value === "" || value === true || value === "true") return true;
    return ctx.fail("MCPG028", `${tag} takes no value (or "true"), got ${JSON.stringify(value)}`, site);
  }
  if (spec.value === "number") {
    const n =
      typeof value === "number"
        ? value
        : typeof value === "string" && value.trim() !== ""
          ? Number(value)
          : Number.NaN;
    if (!Number.isFinite(n))
      return ctx.fail("MCPG028", `${tag} needs a number, got ${JSON.stringify(value ?? "")}`, site);
    if (COUNT_KEYWORDS.has(keyword) && (!Number.isInteger(n) || n < 0)) {
      return ctx.fail("MCPG028", `${tag} needs a non-negative integer, got ${n}`, site);
    }
    if (keyword === "multipleOf" && n <= 0)
      return ctx.fail("MCPG028", `${tag} needs a number > 0, got ${n}`, site);
    return n;
  }
  if (typeof value !== "string" || value === "") return ctx.fail("MCPG028", `${tag} needs a value`, site);
  if (keyword === "pattern") {
    try {
      new RegExp(value, "u");
    } catch (error) {
      return ctx.fail(
        "MCPG028",
        `${tag} is not a valid regular expression: ${(error as Error).message}`,
        site,
        "write an ECMAScript regular expression (it is compiled with the u flag)",
      );
    }
  }
  if (keyword === "format" && !FORMATS.has(value)) {
    return ctx.fail("MCPG028", `unknown format "${value}"`, site, `use one of: ${[...FORMATS].join(", ")}`);
  }
  return value;
}

function parseJsonish(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Reads description (the summary, else `@description`), default, examples, deprecation, title and constraint tags from a JSDoc. */
export function metaFromDoc(doc: DocInfo, ctx: ExtractContext, site: Site): IrMeta {
  const meta: IrMeta = {};
  if (doc.summary) meta.description = doc.summary;
  for (const tag of doc.tags) {
    if (tag.name in CONSTRAINTS) {
      meta.constraints ??= {};
      meta.constraints[tag.name] = parseConstraint(tag.name, tag.text, ctx, site);
    } else if (tag.name === "default") {
      if (tag.text === "")
        ctx.fail("MCPG028", "@default needs a value (JSON, or plain text for strings)", site);
      meta.default = parseJsonish(tag.text);
    } else if (tag.name === "examples") {
      if (tag.text === "") ctx.fail("MCPG028", "@examples needs a value (a JSON array of examples)", site);
      const value = parseJsonish(tag.text);
      meta.examples = Array.isArray(value) ? value : [value];
    } else if (tag.name === "deprecated") {
      meta.deprecated = true;
    } else if (tag.name === "title") {
      if (tag.text) meta.title = tag.text;
    } else if (tag.name === "description") {
      if (tag.text && !doc.summary) meta.description = tag.text;
    }
  }
  return meta;
}

function jsonTypeOf(type: IrType): string | undefined {
  switch (type.kind) {
    case "integer":
    case "number":
      return "number";
    case "string":
      return "string";
    case "array":
    case "tuple":
      return "array";
    case "literal":
      return typeof type.value === "string"
        ? "string"
        : typeof type.value === "number"
          ? "number"
          : undefined;
    case "enum":
      return type.values.every((v) => typeof v === "string")
        ? "string"
        : type.values.every((v) => typeof v === "number")
          ? "number"
          : undefined;
    default:
      return undefined;
  }
}

/**
 * Attaches meta to a mapped type. Constraints must fit the type (`@minLength` on a string…);
 * on a nullable type they go to its non-null member.
 */
export function applyMeta(type: IrType, meta: IrMeta, ctx: ExtractContext, site: Site): IrType {
  const { constraints, ...annotations } = meta;
  const hasConstraints = constraints !== undefined && Object.keys(constraints).length > 0;
  // constraints on a use of a tagged alias (`@maxLength 40` on a property typed `Email`) narrow a
  // copy of its definition: keywords next to a `$ref` would not say which type they apply to
  const definition = type.kind === "ref" && hasConstraints ? ctx.definitions[type.name] : undefined;
  const base = definition ? { ...definition, ...withoutRef(type) } : type;
  let result: IrType = { ...base, ...annotations } as IrType;
  if (hasConstraints) {
    result = applyConstraints(result, constraints, ctx, site);
  }
  return result;
}

function applyConstraints(
  type: IrType,
  constraints: Record<string, unknown>,
  ctx: ExtractContext,
  site: Site,
): IrType {
  const definition = type.kind === "ref" ? ctx.definitions[type.name] : undefined;
  if (definition)
    return applyConstraints({ ...definition, ...withoutRef(type) } as IrType, constraints, ctx, site);
  if (type.kind === "union") {
    // each keyword goes to the members it applies to (`@pattern` on `number | string` constrains the
    // strings, as JSON Schema's `pattern` next to `type: ["number", "string"]` would)
    const members = type.members.map((m) => {
      const fitting = Object.fromEntries(Object.entries(constraints).filter(([k]) => fits(m, k, ctx)));
      return Object.keys(fitting).length > 0 ? applyConstraints(m, fitting, ctx, site) : m;
    });
    const unused = Object.keys(constraints).find((k) => !type.members.some((m) => fits(m, k, ctx)));
    if (!unused) return { ...type, members };
  }
  const jsonType = jsonTypeOf(type);
  for (const keyword of Object.keys(constraints)) {
    const spec = CONSTRAINTS[keyword]!;
    if (jsonType !== spec.applies) {
      ctx.fail(
        "MCPG028",
        `@${keyword} applies to ${spec.applies}s, but this is ${describeKind(type)}`,
        site,
        TAGS_BY_TYPE,
      );
    }
  }
  return { ...type, constraints: { ...type.constraints, ...constraints } };
}

/** Whether a constraint keyword applies to a type, or to a member of it when it is a union. */
export function constraintFits(type: IrType, keyword: string, ctx: ExtractContext): boolean {
  return type.kind === "union" ? type.members.some((m) => fits(m, keyword, ctx)) : fits(type, keyword, ctx);
}

/** Whether a constraint keyword applies to a member of a union (through a named definition too). */
function fits(type: IrType, keyword: string, ctx: ExtractContext): boolean {
  const resolved = type.kind === "ref" ? ctx.definitions[type.name] : type;
  return resolved !== undefined && jsonTypeOf(resolved) === CONSTRAINTS[keyword]!.applies;
}

const TAGS_BY_TYPE =
  "use a tag that fits the type — numbers: minimum maximum exclusiveMinimum exclusiveMaximum multipleOf; strings: minLength maxLength pattern format; arrays: minItems maxItems uniqueItems";

function describeKind(type: IrType): string {
  return type.kind === "union"
    ? "a union"
    : type.kind === "ref"
      ? `a reference to ${type.name}`
      : `a ${type.kind}`;
}

/** The annotations a use of a named type adds to its `ref`. */
function withoutRef(type: IrType): IrMeta {
  const { kind: _k, name: _n, ...meta } = type as IrType & { name?: string };
  return meta;
}
