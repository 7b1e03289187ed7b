import { ts } from "#ts-morph";
import type { ExtractContext } from "../context.ts";

export const has = (type: ts.Type, flags: ts.TypeFlags): boolean => (type.flags & flags) !== 0;

/** The value of a string, number or boolean literal type, or `undefined`. */
export function literalValue(type: ts.Type): string | number | boolean | undefined {
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.value;
  if (has(type, ts.TypeFlags.BooleanLiteral))
    return (type as { intrinsicName?: string }).intrinsicName === "true";
  return undefined;
}

export function isLiteral(type: ts.Type): boolean {
  return literalValue(type) !== undefined;
}

/** True when the type's symbol is declared only in TypeScript's default library (Date, Map, …). */
export function isLibType(type: ts.Type, ctx: ExtractContext, names: ReadonlySet<string>): boolean {
  const symbol = type.getSymbol();
  if (!symbol || !names.has(symbol.getName())) return false;
  const declarations = symbol.getDeclarations() ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((d) => ctx.program.isSourceFileDefaultLibrary(d.getSourceFile()))
  );
}

/** Removes `undefined` members from a type's parts (JSON has no undefined; optionality is tracked apart). */
export function withoutUndefined(types: readonly ts.Type[]): ts.Type[] {
  return types.filter((t) => !has(t, ts.TypeFlags.Undefined | ts.TypeFlags.Void));
}

export const TAG_PREFIX = "__mcpgen_";

/** An object type whose properties are all mcp-gen tags (`Minimum<0>`, the brand of `Int` …). */
export function isTagObject(type: ts.Type, checker: ts.TypeChecker): boolean {
  if (!has(type, ts.TypeFlags.Object)) return false;
  const props = checker.getPropertiesOfType(type);
  return props.length > 0 && props.every((p) => p.getName().startsWith(TAG_PREFIX));
}

/** True for a declaration in TypeScript's default library or an installed package (not the user's code). */
export function isOutsideUserCode(node: ts.Node, ctx: ExtractContext): boolean {
  const file = node.getSourceFile();
  return ctx.program.isSourceFileDefaultLibrary(file) || /[\\/]node_modules[\\/]/.test(file.fileName);
}

/** `never`, or only `undefined`: a property of that type must be absent from JSON. */
export function isAbsentType(type: ts.Type): boolean {
  if (has(type, ts.TypeFlags.Never | ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return true;
  return type.isUnion() && withoutUndefined(type.types).length === 0;
}
