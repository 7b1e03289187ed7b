import { ts } from "#ts-morph";
import type { TypeHandler } from "./handler.ts";
import { has } from "./util.ts";

/** Types JSON cannot carry: bigint, symbols, unresolved generics, `Uppercase<string>` and the like, void/never/undefined alone. */
export const unsupportedHandler: TypeHandler = {
  name: "unsupported",
  supports: (type) =>
    has(
      type,
      ts.TypeFlags.BigIntLike |
        ts.TypeFlags.ESSymbolLike |
        ts.TypeFlags.TypeParameter |
        ts.TypeFlags.Never |
        ts.TypeFlags.Void |
        ts.TypeFlags.Undefined |
        ts.TypeFlags.Index |
        ts.TypeFlags.IndexedAccess |
        ts.TypeFlags.Conditional |
        ts.TypeFlags.Substitution |
        ts.TypeFlags.StringMapping,
    ),
  create(type, ctx, site) {
    const text = ctx.checker.typeToString(type);
    if (has(type, ts.TypeFlags.BigIntLike))
      return ctx.fail("MCPG022", `type "${text}" is a bigint, which JSON cannot carry`, site);
    if (has(type, ts.TypeFlags.ESSymbolLike))
      return ctx.fail("MCPG021", `type "${text}" is a symbol, which JSON cannot carry`, site);
    if (
      has(
        type,
        ts.TypeFlags.TypeParameter |
          ts.TypeFlags.Index |
          ts.TypeFlags.IndexedAccess |
          ts.TypeFlags.Conditional |
          ts.TypeFlags.Substitution,
      )
    ) {
      return ctx.fail("MCPG024", `type "${text}" depends on an unresolved type parameter`, site);
    }
    if (has(type, ts.TypeFlags.StringMapping)) {
      return ctx.fail(
        "MCPG025",
        `string mapping type "${text}" has no JSON Schema equivalent`,
        site,
        'use `string & Pattern<"...">` to constrain the string',
      );
    }
    return ctx.fail(
      "MCPG025",
      `type "${text}" has no JSON value`,
      site,
      "remove the parameter or property, or give it a data type",
    );
  },
};
