import { ts } from "#ts-morph";
import type { IrObject, IrProperty, IrType } from "../../ir/types.ts";
import type { ExtractContext, Site } from "../context.ts";
import { type DocInfo, docOfDeclaration, docOfSymbol } from "../jsdoc.ts";
import { applyMeta, metaFromDoc } from "../meta.ts";
import { checkTags } from "../tag-check.ts";
import type { MapType, TypeHandler } from "./handler.ts";
import { indexOfIntersection, narrowedByIndex } from "./intersection-index.ts";
import { has, isAbsentType, isOutsideUserCode, TAG_PREFIX } from "./util.ts";

/**
 * Object types: interfaces, type aliases, inline literals, intersections of those, data-only
 * classes, records and index signatures (`additionalProperties`), and the `object` keyword.
 */
export const objectHandler: TypeHandler = {
  name: "object",
  supports: (type) => has(type, ts.TypeFlags.Object | ts.TypeFlags.NonPrimitive | ts.TypeFlags.Intersection),
  create(type, ctx, site, map) {
    if (has(type, ts.TypeFlags.NonPrimitive))
      return { kind: "object", properties: [], additional: { kind: "unknown" } };
    rejectClassWithMethods(type, ctx, site);
    return ctx.withRecursion(type, () => mapObject(type, ctx, site, map));
  },
};

function mapObject(type: ts.Type, ctx: ExtractContext, site: Site, map: MapType): IrType {
  const { checker } = ctx;
  const properties: IrProperty[] = [];
  for (const symbol of checker.getPropertiesOfType(type)) {
    const name = symbol.getName();
    if (name.startsWith(TAG_PREFIX)) continue;
    const declaration = symbol.valueDeclaration ?? symbol.getDeclarations()?.[0];
    // a member declared in TypeScript's lib or a package is reported at the user's type, not there
    const at = declaration && !isOutsideUserCode(declaration, ctx) ? declaration : site.node;
    const propSite: Site = { node: at, path: `${site.path} › property ${shownName(name)}` };
    if (declaration && ts.isPrivateIdentifier((declaration as ts.NamedDeclaration).name ?? declaration))
      continue;
    const declared = checker.getTypeOfSymbolAtLocation(symbol, declaration ?? site.node);
    const doc = parameterPropertyDoc(docOfSymbol(symbol, checker), name, declaration);
    if (at !== site.node) checkTags(doc.tags, "value", ctx, propSite);
    const meta = metaFromDoc(doc, ctx, propSite);
    if (isAbsentType(declared)) {
      // `name?: never`, `name: undefined`: JSON has no such value, so the property must be absent
      const { constraints: _, ...annotations } = meta;
      properties.push({ name, type: { kind: "never", ...annotations }, required: false });
      continue;
    }
    const propType = type.isIntersection()
      ? narrowedByIndex(type, symbol, declared, ctx, propSite)
      : declared;
    const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0 || includesUndefined(propType);
    const mapped = map(propType, propSite);
    properties.push({ name, type: applyMeta(mapped, meta, ctx, propSite), required: !optional });
  }
  const index = type.isIntersection()
    ? indexOfIntersection(type, ctx)
    : checker.getIndexInfosOfType(type).find((info) => !has(info.keyType, ts.TypeFlags.ESSymbolLike));
  const indexSite: Site = {
    node: index?.declaration && !isOutsideUserCode(index.declaration, ctx) ? index.declaration : site.node,
    path: `${site.path} › [key: string]`,
  };
  // `Record<string, never>`: no key may be present (the usual "empty object" type)
  const additional: IrType | false =
    !index || isAbsentType(index.type) ? false : indexType(index, ctx, indexSite, map);
  const object: IrObject = { kind: "object", properties, additional };
  const named = type.aliasSymbol ?? type.getSymbol();
  if (named && !named.getName().startsWith("__")) {
    const doc = docOfSymbol(named, checker);
    if (doc.summary) object.description = doc.summary;
  }
  return object;
}

/** The type of an index signature, with the tags of its JSDoc (`@minimum 0` above `[key: string]: number`). */
function indexType(index: ts.IndexInfo, ctx: ExtractContext, site: Site, map: MapType): IrType {
  const mapped = map(index.type, site);
  if (!index.declaration || isOutsideUserCode(index.declaration, ctx)) return mapped;
  const doc = docOfDeclaration(index.declaration);
  checkTags(doc.tags, "value", ctx, site);
  return applyMeta(mapped, metaFromDoc(doc, ctx, site), ctx, site);
}

/**
 * A class's parameter property (`constructor(public a: string)`) is documented by the constructor's
 * `@param a …`: that text describes the property.
 */
function parameterPropertyDoc(doc: DocInfo, name: string, declaration: ts.Declaration | undefined): DocInfo {
  if (!declaration || !ts.isParameter(declaration)) return doc;
  const own = doc.tags.find((t) => t.name === "param" && (t.text === name || t.text.startsWith(`${name} `)));
  const tags = doc.tags.filter((t) => t.name !== "param");
  const text = own?.text.slice(name.length).replace(/^\s*-?\s*/, "");
  return { ...doc, tags, ...(!doc.summary && text ? { summary: text } : {}) };
}

/** `"name"`, or `[Symbol.iterator]` for a symbol-keyed member (`__@iterator@65` inside TypeScript). */
function shownName(name: string): string {
  const symbol = /^__@([^@]+)@\d+$/.exec(name);
  return symbol ? `[Symbol.${symbol[1]}]` : `"${name}"`;
}

function includesUndefined(type: ts.Type): boolean {
  return type.isUnion() && type.types.some((t) => has(t, ts.TypeFlags.Undefined));
}

/** Class instances with methods are behaviour, not data. */
function rejectClassWithMethods(type: ts.Type, ctx: ExtractContext, site: Site): void {
  const symbol = type.getSymbol();
  if (!symbol || (symbol.flags & ts.SymbolFlags.Class) === 0) return;
  const methods = ctx.checker
    .getPropertiesOfType(type)
    .filter((p) => (p.flags & ts.SymbolFlags.Method) !== 0 || (p.flags & ts.SymbolFlags.Accessor) !== 0);
  if (methods.length > 0) {
    ctx.fail(
      "MCPG023",
      `class "${symbol.getName()}" has methods (${methods.map((m) => m.getName()).join(", ")}), so its instances are not plain data`,
      site,
    );
  }
}
