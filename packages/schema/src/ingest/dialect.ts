import type { JsonSchema } from "../contract.ts";
import {
  ARRAY_SCHEMA_KEYWORDS,
  escapeToken,
  isSchemaObject,
  MAP_SCHEMA_KEYWORDS,
  SINGLE_SCHEMA_KEYWORDS,
} from "../schema-utils.ts";
import type { IngestIssue } from "./issues.ts";
import { isQuietAnnotation, KEYWORDS_2020_12, knownFormats } from "./vocabulary.ts";

/** The JSON Schema dialects servers send, named after their `$schema`. */
export type Dialect = "2020-12" | "2019-09" | "draft-07" | "draft-06" | "draft-04";

const DIALECTS: [RegExp, Dialect][] = [
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "draft-07"],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, "draft-06"],
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, "draft-04"],
];

/** The dialect a `$schema` names; `undefined` for an absent or unknown one (read as 2020-12, MCP's default). */
export function dialectOf(schemaUri: unknown): Dialect | undefined {
  if (typeof schemaUri !== "string") return undefined;
  return DIALECTS.find(([pattern]) => pattern.test(schemaUri))?.[1];
}

/** The result of rewriting a schema into 2020-12. */
export interface Rewritten {
  schema: unknown;
  /** Old JSON pointer → new JSON pointer of every subschema (for rewriting `$ref`s and reporting). */
  moved: Map<string, string>;
}

const SINGLE = new Set<string>(SINGLE_SCHEMA_KEYWORDS);
const ARRAY = new Set<string>(ARRAY_SCHEMA_KEYWORDS);
const MAP = new Set<string>(MAP_SCHEMA_KEYWORDS);

/**
 * Rewrites the keywords of older drafts into their 2020-12 form, recursively: `definitions` →
 * `$defs`, array `items` → `prefixItems` (and `additionalItems` → `items`), `dependencies` →
 * `dependentRequired`/`dependentSchemas`, boolean `exclusiveMinimum`/`exclusiveMaximum` →
 * numbers, `$recursiveRef` → `$ref`, OpenAPI `nullable: true` → a `"null"` type. Nested
 * `$schema`s go. Keywords 2020-12 does not define are kept as annotations and reported, as are
 * formats the validators cannot check. `$ref`s are left for `rewriteRefs`.
 */
export function rewriteDialect(schema: unknown, issues: IngestIssue[]): Rewritten {
  const moved = new Map<string, string>();
  const schemaAt = (node: unknown, from: string, to: string): unknown => {
    if (!isSchemaObject(node)) {
      moved.set(from, to);
      return node;
    }
    moved.set(from, to);
    const out: JsonSchema = {};
    const itemsIsArray = Array.isArray(node.items);
    for (const [key, value] of Object.entries(node)) {
      const at = { from: `${from}/${key}`, to: `${to}/${key}` };
      if (key === "$schema" || key === "$recursiveAnchor" || key === "nullable") continue;
      if (key === "definitions" || (key === "$defs" && isSchemaObject(value))) {
        if (!isSchemaObject(value)) continue;
        const defs = (out.$defs ?? {}) as JsonSchema;
        for (const [name, def] of Object.entries(value)) {
          const token = escapeToken(name);
          if (name in defs) {
            issues.push({
              code: "MCPG125",
              pointer: { from: `${from}/${key}/${token}`, to: `${to}/$defs/${token}` },
              message: `"definitions" and "$defs" both define "${name}"; the one of "$defs" is kept`,
            });
            if (key === "definitions") continue;
          }
          defs[name] = schemaAt(def, `${from}/${key}/${token}`, `${to}/$defs/${token}`);
        }
        out.$defs = defs;
      } else if (key === "items" && itemsIsArray) {
        out.prefixItems = (value as unknown[]).map((v, i) =>
          schemaAt(v, `${at.from}/${i}`, `${to}/prefixItems/${i}`),
        );
      } else if (key === "additionalItems") {
        // Without array `items`, `additionalItems` has no effect in any draft.
        if (itemsIsArray) out.items = schemaAt(value, at.from, `${to}/items`);
      } else if (key === "dependencies" && isSchemaObject(value)) {
        for (const [name, dep] of Object.entries(value)) {
          const target = Array.isArray(dep) ? "dependentRequired" : "dependentSchemas";
          const group = (out[target] ?? {}) as JsonSchema;
          const token = escapeToken(name);
          group[name] = Array.isArray(dep)
            ? dep
            : schemaAt(dep, `${at.from}/${token}`, `${to}/${target}/${token}`);
          out[target] = group;
        }
      } else if (key === "$recursiveRef") {
        out.$ref = value;
      } else if (key === "id" && typeof value === "string") {
        issues.push({
          code: "MCPG125",
          pointer: at,
          message: `draft-04 "id" ("${value}") is not used: references must be local JSON pointers; removed`,
        });
      } else if (SINGLE.has(key) && !Array.isArray(value)) {
        out[key] = schemaAt(value, at.from, at.to);
      } else if (ARRAY.has(key) && Array.isArray(value)) {
        out[key] = value.map((v, i) => schemaAt(v, `${at.from}/${i}`, `${at.to}/${i}`));
      } else if (MAP.has(key) && isSchemaObject(value)) {
        out[key] = Object.fromEntries(
          Object.entries(value).map(([name, v]) => {
            const token = escapeToken(name);
            return [name, schemaAt(v, `${at.from}/${token}`, `${at.to}/${token}`)];
          }),
        );
      } else {
        out[key] = value;
        reportUnknown(key, value, at, issues);
      }
    }
    exclusiveBounds(out);
    return node.nullable === true ? nullable(out) : out;
  };
  return { schema: schemaAt(schema, "", ""), moved };
}

function reportUnknown(
  key: string,
  value: unknown,
  at: { from: string; to: string },
  issues: IngestIssue[],
): void {
  if (key === "format" && typeof value === "string" && !knownFormats().has(value)) {
    issues.push({
      code: "MCPG121",
      pointer: at,
      message: `format "${value}" is not one the validators know; kept as an annotation, not checked`,
    });
  } else if (!KEYWORDS_2020_12.has(key) && !isQuietAnnotation(key)) {
    issues.push({
      code: "MCPG120",
      pointer: at,
      message: `keyword "${key}" is not JSON Schema 2020-12; kept as an annotation, it validates nothing`,
    });
  }
}

/** Draft-04 `exclusiveMinimum: true` next to `minimum: n` is 2020-12 `exclusiveMinimum: n`. */
function exclusiveBounds(schema: JsonSchema): void {
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof schema[exclusive] !== "boolean") continue;
    if (schema[exclusive] === true && typeof schema[bound] === "number") {
      schema[exclusive] = schema[bound];
      delete schema[bound];
    } else delete schema[exclusive];
  }
}

/** OpenAPI's `nullable: true`: `null` joins the types (or the schema becomes `anyOf [it, null]`). */
function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string" || Array.isArray(schema.type)) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const out: JsonSchema = { ...schema, type: types.includes("null") ? types : [...types, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  const { title, description, default: dflt, ...rest } = schema;
  const out: JsonSchema = {};
  if (title !== undefined) out.title = title;
  if (description !== undefined) out.description = description;
  out.anyOf = [rest, { type: "null" }];
  if (dflt !== undefined) out.default = dflt;
  return out;
}
