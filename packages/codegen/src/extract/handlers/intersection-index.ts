import { ts } from "#ts-morph";
import type { ExtractContext, Site } from "../context.ts";
import { has } from "./util.ts";

/**
 * The string index signature of an intersection `A & B`: TypeScript intersects the index types of
 * the parts (`{ [k: string]: string | number } & { [k: string]: string | boolean }` takes strings).
 */
export function indexOfIntersection(
  type: ts.IntersectionType,
  ctx: ExtractContext,
): ts.IndexInfo | undefined {
  return ctx.checker.getIndexInfoOfType(type, ts.IndexKind.String);
}

/**
 * The type a property of an intersection really takes: a value must fit every part, so where another
 * part has an index signature that covers the key (`{ a: string } & { [k: string]: string | number }`),
 * the property's type is narrowed to the members the index type accepts. No value fitting both
 * is an error: TypeScript accepts no object there either.
 */
export function narrowedByIndex(
  type: ts.IntersectionType,
  symbol: ts.Symbol,
  declared: ts.Type,
  ctx: ExtractContext,
  site: Site,
): ts.Type {
  const { checker } = ctx;
  const name = symbol.getName();
  const numeric = name !== "" && Number.isFinite(Number(name));
  let result = declared;
  for (const part of type.types) {
    if (checker.getPropertyOfType(part, name)) continue;
    for (const info of checker.getIndexInfosOfType(part)) {
      const applies =
        has(info.keyType, ts.TypeFlags.String) || (numeric && has(info.keyType, ts.TypeFlags.Number));
      if (!applies || checker.isTypeAssignableTo(result, info.type)) continue;
      const kept = (result.isUnion() ? result.types : [result]).filter((t) =>
        checker.isTypeAssignableTo(t, info.type),
      );
      if (kept.length === (result.isUnion() ? result.types.length : 1)) continue;
      if (kept.length > 0) {
        result = kept.length === 1 ? kept[0]! : unionOf(kept, checker, result);
        continue;
      }
      if (checker.isTypeAssignableTo(info.type, result)) {
        result = info.type;
        continue;
      }
      ctx.fail(
        "MCPG025",
        `type "${checker.typeToString(result)}" does not fit the index signature "[key: ${checker.typeToString(info.keyType)}]: ${checker.typeToString(info.type)}" of "${checker.typeToString(part)}", so no value fits this intersection`,
        site,
        "give the property a type the index signature accepts, or leave the index signature out of the intersection",
      );
    }
  }
  return result;
}

/** The union of `types`, through the checker's own constructor (not public API; `fallback` without it). */
function unionOf(types: ts.Type[], checker: ts.TypeChecker, fallback: ts.Type): ts.Type {
  const make = (checker as { getUnionType?: (types: ts.Type[]) => ts.Type }).getUnionType;
  return make ? make.call(checker, types) : fallback;
}
