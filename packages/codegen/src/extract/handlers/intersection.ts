import { ts } from "#ts-morph";
import type { IrType } from "../../ir/types.ts";
import { applyMeta, CONSTRAINTS, parseConstraint } from "../meta.ts";
import type { TypeHandler } from "./handler.ts";
import { objectHandler } from "./object.ts";
import { has, isTagObject, literalValue, TAG_PREFIX } from "./util.ts";

const PRIMITIVE = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike;

/**
 * Intersections: type-level tags (`Int`, `number & Minimum<0>`) become constraints; a
 * primitive intersected with brand objects stays the primitive; object intersections merge.
 */
export const intersectionHandler: TypeHandler = {
  name: "intersection",
  supports: (type) => type.isIntersection(),
  create(type, ctx, site, map) {
    const parts = (type as ts.IntersectionType).types;
    const tags = parts.filter((t) => isTagObject(t, ctx.checker));
    const rest = parts.filter((t) => !tags.includes(t));
    const primitives = rest.filter((t) => has(t, PRIMITIVE));
    let base: IrType;
    if (rest.length === 1) base = map(rest[0]!, site);
    else if (primitives.length === 1) base = map(primitives[0]!, site);
    else if (primitives.length === 0 && rest.length > 0) base = objectHandler.create(type, ctx, site, map);
    else {
      return ctx.fail(
        "MCPG025",
        `intersection "${ctx.checker.typeToString(type)}" has no JSON equivalent`,
        site,
      );
    }
    const constraints: Record<string, unknown> = {};
    for (const tag of tags) {
      for (const prop of ctx.checker.getPropertiesOfType(tag)) {
        const keyword = prop.getName().slice(TAG_PREFIX.length);
        const valueType = ctx.checker.getNonNullableType(ctx.checker.getTypeOfSymbol(prop));
        const value = literalValue(valueType);
        if (keyword === "header") {
          constraints["x-mcp-header"] = headerName(value, ctx, site, ctx.checker.typeToString(valueType));
        } else if (keyword === "integer") {
          if (base.kind !== "number" && base.kind !== "integer") {
            ctx.fail("MCPG028", "Int can only brand a number", site);
          }
          base = { ...base, kind: "integer" } as IrType;
        } else if (keyword in CONSTRAINTS) {
          if (value === undefined) {
            ctx.fail(
              "MCPG028",
              `tag ${keyword} needs a literal value, got "${ctx.checker.typeToString(valueType)}"`,
              site,
            );
          }
          constraints[keyword] = parseConstraint(keyword, value, ctx, site);
        }
      }
    }
    const { "x-mcp-header": header, ...checked } = constraints;
    if (Object.keys(checked).length > 0) base = applyMeta(base, { constraints: checked }, ctx, site);
    if (header !== undefined) {
      // `boolean & Header<…>` and `("eu" | "us") & Header<…>` reach here once per literal member.
      const literal =
        base.kind === "literal" && (typeof base.value !== "number" || Number.isSafeInteger(base.value));
      if (base.kind !== "string" && base.kind !== "integer" && base.kind !== "boolean" && !literal) {
        ctx.fail(
          "MCPG028",
          `Header<"${String(header)}"> can only mark a string, integer (Int) or boolean, but this is ${base.kind === "number" ? "a number (use Int)" : `a ${base.kind}`}`,
          site,
          "put Header<> on a string, Int or boolean parameter (MCP 2026-07-28 mirrors only those into headers)",
        );
      }
      base = { ...base, constraints: { ...base.constraints, "x-mcp-header": header } };
    }
    return base;
  },
};

/** RFC 9110 field-name token syntax (1*tchar): what follows `Mcp-Param-`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The name of a `Header<"Name">` tag, checked: a string literal that is an HTTP header name. */
function headerName(
  value: unknown,
  ctx: Parameters<TypeHandler["create"]>[1],
  site: Parameters<TypeHandler["create"]>[2],
  shown: string,
): string {
  if (typeof value !== "string" || !TOKEN.test(value)) {
    return ctx.fail(
      "MCPG028",
      `Header<${typeof value === "string" ? JSON.stringify(value) : shown}> needs a header name: a string literal of letters, digits and !#$%&'*+-.^_\`|~`,
      site,
      'name the header, e.g. Header<"Region"> (sent as Mcp-Param-Region)',
    );
  }
  return value;
}
