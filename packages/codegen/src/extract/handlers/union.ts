import { ts } from "ts-morph";
import type { IrType } from "../../ir/types.ts";
import type { ExtractContext, Site } from "../context.ts";
import type { MapType, TypeHandler } from "./handler.ts";
import { inSourceOrder } from "./literal-order.ts";
import { membersInSourceOrder } from "./member-order.ts";
import { has, literalValue, withoutUndefined } from "./util.ts";

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
  const rest = membersInSourceOrder(
    parts.filter((t) => !has(t, ts.TypeFlags.Null) && literalValue(t) === undefined),
    type,
    ctx,
    site,
  );
  const members: IrType[] = [];
  const literals: (string | number | boolean)[] = [];
  for (const part of parts) {
    const value = literalValue(part);
    if (value !== undefined) literals.push(value);
  }
  for (const part of rest) members.push(map(part, site));
  if (literals.includes(true) && literals.includes(false)) {
    members.unshift({ kind: "boolean" });
    for (const b of [true, false]) literals.splice(literals.indexOf(b), 1);
  }
  if (literals.length === 1) members.unshift({ kind: "literal", value: literals[0]! });
  else if (literals.length > 1)
    members.unshift({ kind: "enum", values: inSourceOrder(literals, type, ctx, site) });
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
