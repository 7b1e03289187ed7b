import { ts } from "#ts-morph";
import type { ExtractContext, Site } from "./context.ts";
import { isOutsideUserCode } from "./handlers/util.ts";
import { type DocInfo, docOfDeclaration } from "./jsdoc.ts";
import { CONSTRAINTS } from "./meta.ts";
import { checkTags } from "./tag-check.ts";

/** Tags that give a type alias or interface schema keywords of its own (besides its description). */
export const NAMED_TYPE_TAGS = new Set([
  ...Object.keys(CONSTRAINTS),
  "default",
  "examples",
  "deprecated",
  "title",
]);

/** A type alias, interface or enum of the user's code whose JSDoc has schema tags. */
export interface TaggedType {
  /** The alias or interface symbol; with the mapped type, the key of its definition. */
  symbol: ts.Symbol;
  name: string;
  doc: DocInfo;
  declaration: ts.Node;
  /** The type as the alias gives it (`Mode` for `m?: Mode`, whose type also holds `undefined`). */
  type: ts.Type;
}

/** The type annotation written at a site (the site itself when it is a type node). */
export function annotationOf(node: ts.Node): ts.TypeNode | undefined {
  let annotation = ts.isTypeNode(node) ? node : (node as { type?: ts.Node }).type;
  while (annotation && ts.isParenthesizedTypeNode(annotation)) annotation = annotation.type;
  return annotation && ts.isTypeNode(annotation) ? annotation : undefined;
}

/**
 * The node of the part of a site's annotation that has type `type`: the element of `T[]`,
 * `Array<T>` or `readonly T[]`, or the one member of a union written with that type. Sub-sites
 * point there, so that `Email[]` or `Email | null` still know the alias `Email`.
 */
export function partNode(site: Site, type: ts.Type, ctx: ExtractContext, part: "items" | "member"): ts.Node {
  const annotation = annotationOf(site.node);
  if (!annotation) return site.node;
  if (part === "items") {
    let node: ts.TypeNode = annotation;
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword) node = node.type;
    if (ts.isArrayTypeNode(node)) return node.elementType;
    if (ts.isTypeReferenceNode(node) && node.typeArguments?.length === 1) {
      const name = node.typeName.getText();
      if (name === "Array" || name === "ReadonlyArray") return node.typeArguments[0]!;
    }
    return site.node;
  }
  if (!ts.isUnionTypeNode(annotation)) return site.node;
  const matches = annotation.types.filter((t) => ctx.checker.getTypeFromTypeNode(t) === type);
  return matches.length === 1 ? matches[0]! : site.node;
}

/**
 * The tagged alias or interface a type is mapped from: the alias named by the annotation at the
 * site (`e: Email`, where `type Email = string` leaves no trace on the type itself), else the
 * type's own alias or interface symbol. Only declarations of the user's code with schema tags count.
 */
export function taggedTypeOf(type: ts.Type, site: Site, ctx: ExtractContext): TaggedType | undefined {
  const annotation = annotationOf(site.node);
  const candidates: ts.Symbol[] = [];
  let written: ts.Type | undefined;
  if (annotation && ts.isTypeReferenceNode(annotation)) {
    written = ctx.checker.getTypeFromTypeNode(annotation);
    const symbol = ctx.checker.getSymbolAtLocation(annotation.typeName);
    if (symbol && sameBesidesUndefined(type, written))
      candidates.push(symbol.flags & ts.SymbolFlags.Alias ? ctx.checker.getAliasedSymbol(symbol) : symbol);
  }
  if (type.aliasSymbol) candidates.push(type.aliasSymbol);
  const own = type.getSymbol();
  if (own && own.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Enum)) candidates.push(own);
  for (const symbol of candidates) {
    const declarations = (symbol.getDeclarations() ?? []).filter(
      (d) =>
        (ts.isTypeAliasDeclaration(d) || ts.isInterfaceDeclaration(d) || ts.isEnumDeclaration(d)) &&
        !isOutsideUserCode(d, ctx),
    );
    for (const declaration of declarations.filter(ts.isEnumDeclaration)) checkEnumMembers(declaration, ctx);
    for (const declaration of declarations) {
      const doc = docOfDeclaration(declaration);
      checkTags(doc.tags, "type", ctx, { node: declaration, path: `type "${symbol.getName()}"` });
      if (doc.tags.some((t) => NAMED_TYPE_TAGS.has(t.name))) {
        const key = written && candidates[0] === symbol ? written : type;
        return { symbol, name: symbol.getName(), doc, declaration, type: key };
      }
    }
  }
  return undefined;
}

/** `type` is `written`, or `written | undefined` (an optional property or parameter). */
function sameBesidesUndefined(type: ts.Type, written: ts.Type): boolean {
  if (type === written) return true;
  if (!type.isUnion()) return false;
  const rest = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
  if (rest.length === type.types.length) return false;
  const members = written.isUnion() ? written.types : [written];
  return rest.length === members.length && rest.every((t) => members.includes(t));
}

/** An enum member's tags are read nowhere (the enum is one schema): each is a warning. */
function checkEnumMembers(declaration: ts.EnumDeclaration, ctx: ExtractContext): void {
  for (const member of declaration.members) {
    const doc = docOfDeclaration(member);
    const site = {
      node: member,
      path: `enum "${declaration.name.text}" › member "${member.name.getText()}"`,
    };
    for (const tag of doc.tags) {
      if (["see", "example", "remarks", "since", "link", "internal"].includes(tag.name)) continue;
      ctx.warnOnce(
        "MCPG103",
        `@${tag.name} on an enum member is not read (the enum's values form one schema)`,
        site,
        "put the tag on the enum, or describe the member in the enum's summary",
      );
    }
  }
}
