import { ts } from "#ts-morph";
import type { IrType } from "../../ir/types.ts";
import type { ExtractContext, Site } from "../context.ts";
import { partNode } from "../named-types.ts";
import type { MapType, TypeHandler } from "./handler.ts";
import { inSourceOrder } from "./literal-order.ts";
import { membersInSourceOrder } from "./member-order.ts";
import { has, isTagObject, literalValue, TAG_PREFIX, withoutUndefined } from "./util.ts";

/**
 * Unions: `undefined` is dropped (optionality is tracked by the caller), `null` makes the
 * type nullable, literal members become an `enum` (TS enums included), the rest `anyOf`
 * — or `oneOf` when every member is an object with a distinct literal discriminator.
 */
export const unionHandler: TypeHandler = {
  name: "union",
  supports: (type) => type.isUnion(),
  create(type, ctx, site, map) {
    return ctx.withRecursion(type, () => mapUnion(type as ts.UnionType, ctx, site, map));
  },
};

function mapUnion(type: ts.UnionType, ctx: ExtractContext, site: Site, map: MapType): IrType {
  const parts = withoutUndefined(type.types);
  if (parts.length === 0)
    return ctx.fail("MCPG025", "type is only `undefined`, which JSON cannot carry", site);
  const nullable = parts.some((t) => has(t, ts.TypeFlags.Null));
  // `boolean & Header<"X">` and `("a" | "b") & Header<"X">` arrive distributed: each literal carries the tag.
  const headers = new Set<string>();
  const literalOf = (t: ts.Type) => {
    const tagged = taggedLiteral(t, ctx);
    if (tagged?.header !== undefined) headers.add(tagged.header);
    return tagged ? tagged.value : literalValue(t);
  };
  const rest = membersInSourceOrder(
    parts.filter((t) => !has(t, ts.TypeFlags.Null) && literalOf(t) === undefined),
    type,
    ctx,
    site,
  );
  const members: IrType[] = [];
  const literals: (string | number | boolean)[] = [];
  for (const part of parts) {
    const value = literalOf(part);
    if (value !== undefined) literals.push(value);
  }
  const seen = new Set<string>();
  for (const part of rest) {
    const member = map(part, { ...site, node: partNode(site, part, ctx, "member") });
    // `number | (number & Brand)` maps both to number: one member says it. A lone member (`T` of an
    // optional `T | undefined`) has nothing to repeat, and its JSON would be the whole subtree's.
    if (rest.length === 1) {
      members.push(member);
      continue;
    }
    const key = JSON.stringify(member);
    if (!seen.has(key)) members.push(member);
    seen.add(key);
  }
  if (literals.includes(true) && literals.includes(false)) {
    members.unshift({ kind: "boolean" });
    for (const b of [true, false]) literals.splice(literals.indexOf(b), 1);
  }
  if (literals.length === 1) members.unshift({ kind: "literal", value: literals[0]! });
  else if (literals.length > 1)
    members.unshift({ kind: "enum", values: inSourceOrder(literals, type, ctx, site) });
  for (const member of members) {
    const header = member.constraints?.["x-mcp-header"];
    if (typeof header === "string") headers.add(header);
  }
  if (headers.size > 0) {
    if (headers.size > 1 || nullable || members.length !== 1) {
      return ctx.fail(
        "MCPG028",
        `Header<"${[...headers][0]}"> can only mark a string, integer (Int) or boolean, not a union of other types or null`,
        site,
        "put Header<> on the whole string, Int or boolean (or a union of its literals), required or optional but not nullable",
      );
    }
    members[0] = {
      ...members[0]!,
      constraints: { ...members[0]!.constraints, "x-mcp-header": [...headers][0] },
    };
  }
  if (nullable) members.push({ kind: "null" });
  if (members.length === 1) return members[0]!;
  const union: IrType = { kind: "union", members };
  const discriminator = findDiscriminator(members);
  return discriminator ? { ...union, discriminator } : union;
}

/** A required property present in every member with distinct literal values. */
function findDiscriminator(members: IrType[]): string | undefined {
  if (members.length < 2 || !members.every((m) => m.kind === "object")) return undefined;
  const objects = members.filter((m) => m.kind === "object");
  const first = objects[0]!;
  for (const candidate of first.properties) {
    const values: unknown[] = [];
    for (const object of objects) {
      const prop = object.properties.find((p) => p.name === candidate.name);
      if (!prop?.required || prop.type.kind !== "literal") break;
      values.push(prop.type.value);
    }
    if (values.length === objects.length && new Set(values).size === values.length) return candidate.name;
  }
  return undefined;
}

/** A literal intersected with mcp-gen tags (`true & Header<"X">`): its value and its header name. */
function taggedLiteral(
  type: ts.Type,
  ctx: ExtractContext,
): { value: string | number | boolean; header?: string } | undefined {
  if (!type.isIntersection()) return undefined;
  const literal = type.types.filter((t) => literalValue(t) !== undefined);
  const tags = type.types.filter((t) => isTagObject(t, ctx.checker));
  if (literal.length !== 1 || literal.length + tags.length !== type.types.length) return undefined;
  let header: string | undefined;
  for (const tag of tags) {
    for (const prop of ctx.checker.getPropertiesOfType(tag)) {
      if (prop.getName() !== `${TAG_PREFIX}header`) continue;
      const value = literalValue(ctx.checker.getNonNullableType(ctx.checker.getTypeOfSymbol(prop)));
      if (typeof value === "string") header = value;
    }
  }
  return { value: literalValue(literal[0]!)!, ...(header !== undefined ? { header } : {}) };
}
