import { ts } from "#ts-morph";
import type { ExtractContext, Site } from "../context.ts";
import type { TypeHandler } from "./handler.ts";
import { has, literalValue } from "./util.ts";

/** Any string, newlines included (`${string}`). */
const ANY = "[\\s\\S]*";
/**
 * A string TypeScript takes as `${number}`: what JavaScript's `Number()` reads as a finite number —
 * decimal with an optional sign, fraction and exponent, or 0x / 0o / 0b integers (surrounding
 * whitespace, which `Number()` also skips, is not accepted).
 */
const NUMBER = "(?:[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?|0[xX][\\da-fA-F]+|0[oO][0-7]+|0[bB][01]+)";
/** `${bigint}`: an integer, with an optional minus sign (and 0x / 0o / 0b forms). */
const BIGINT = "(?:-?\\d+|0[xX][\\da-fA-F]+|0[oO][0-7]+|0[bB][01]+)";

/** Escapes text for a `u`-flag regular expression (only syntax characters may be escaped there). */
const escapeText = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

/**
 * Template literal types with open parts (`` `user_${string}` ``, `` `${number}px` ``) become a
 * string with the `pattern` that accepts exactly the strings TypeScript accepts.
 */
export const templateLiteralHandler: TypeHandler = {
  name: "template-literal",
  supports: (type) => has(type, ts.TypeFlags.TemplateLiteral),
  create(type, ctx, site) {
    const body = partPattern(type, ctx, site);
    // `pattern` is not anchored: an open start or end needs no `[\s\S]*`
    let pattern = `^${body}$`;
    if (pattern.endsWith(`${ANY}$`)) pattern = pattern.slice(0, -(ANY.length + 1));
    if (pattern.startsWith(`^${ANY}`)) pattern = pattern.slice(ANY.length + 1);
    return pattern === "" || pattern === "^"
      ? { kind: "string" }
      : { kind: "string", constraints: { pattern } };
  },
};

function partPattern(type: ts.Type, ctx: ExtractContext, site: Site): string {
  const value = literalValue(type);
  if (value !== undefined) return escapeText(String(value));
  if (has(type, ts.TypeFlags.String)) return ANY;
  if (has(type, ts.TypeFlags.Number)) return NUMBER;
  if (has(type, ts.TypeFlags.BigInt)) return BIGINT;
  if (has(type, ts.TypeFlags.Boolean)) return "(?:true|false)";
  if (has(type, ts.TypeFlags.Null)) return "null";
  if (has(type, ts.TypeFlags.Undefined)) return "undefined";
  if (has(type, ts.TypeFlags.BigIntLiteral)) {
    const { negative, base10Value } = (type as ts.BigIntLiteralType).value;
    return `${negative ? "-" : ""}${base10Value}`;
  }
  if (type.isUnion()) return `(?:${type.types.map((t) => partPattern(t, ctx, site)).join("|")})`;
  if (has(type, ts.TypeFlags.TemplateLiteral)) {
    const { texts, types } = type as ts.TemplateLiteralType;
    return texts
      .map((text, i) => escapeText(text) + (types[i] ? partPattern(types[i]!, ctx, site) : ""))
      .join("");
  }
  return ctx.fail(
    "MCPG025",
    `template literal part "${ctx.checker.typeToString(type)}" has no pattern`,
    site,
    'use string, number, boolean or literal parts, or `string & Pattern<"...">`',
  );
}
