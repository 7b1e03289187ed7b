import { ts } from "#ts-morph";
import type { ExtractContext } from "../context.ts";
import type { TypeHandler } from "./handler.ts";
import { has } from "./util.ts";

/** The array type an interface or class extends (`interface Tags extends Array<Tag> {}`), if any. */
function arrayBase(type: ts.Type, ctx: ExtractContext): ts.TypeReference | undefined {
  if (!has(type, ts.TypeFlags.Object) || ctx.checker.isArrayType(type) || ctx.checker.isTupleType(type))
    return undefined;
  const objectFlags = (type as ts.ObjectType).objectFlags;
  if (!(objectFlags & (ts.ObjectFlags.Interface | ts.ObjectFlags.Class))) return undefined;
  const queue = [...(ctx.checker.getBaseTypes(type as ts.InterfaceType) ?? [])];
  while (queue.length > 0) {
    const base = queue.shift()!;
    if (ctx.checker.isArrayType(base)) return base as ts.TypeReference;
    const flags = (base as ts.ObjectType).objectFlags ?? 0;
    if (flags & (ts.ObjectFlags.Interface | ts.ObjectFlags.Class))
      queue.push(...(ctx.checker.getBaseTypes(base as ts.InterfaceType) ?? []));
  }
  return undefined;
}

/** Own members an interface or class adds to the array it extends (declared in the user's code). */
function addedMembers(type: ts.Type): string[] {
  const names: string[] = [];
  for (const declaration of type.getSymbol()?.getDeclarations() ?? []) {
    if (!ts.isInterfaceDeclaration(declaration) && !ts.isClassDeclaration(declaration)) continue;
    for (const member of declaration.members) names.push(member.name?.getText() ?? "[index]");
  }
  return names;
}

/**
 * An interface (or class) that extends `Array<T>` / `ReadonlyArray<T>` and adds nothing is a JSON
 * array of `T`; one that adds members has no JSON form (JSON arrays carry no named properties).
 */
export const arrayLikeHandler: TypeHandler = {
  name: "array-like",
  supports: (type, ctx) => arrayBase(type, ctx) !== undefined,
  create(type, ctx, site, map) {
    const added = addedMembers(type);
    const name = ctx.checker.typeToString(type);
    if (added.length > 0) {
      return ctx.fail(
        "MCPG025",
        `"${name}" extends an array and adds ${added.map((m) => `"${m}"`).join(", ")}, which a JSON array cannot carry`,
        site,
        "use the array type alone (`T[]`), or an object with the array as one property",
      );
    }
    const [element] = ctx.checker.getTypeArguments(arrayBase(type, ctx)!);
    return ctx.withRecursion(type, () => ({
      kind: "array",
      items: map(element!, { node: site.node, path: `${site.path} › items` }),
    }));
  },
};
