import type { ExtractContext, Site } from "./context.ts";
import type { DocTag } from "./jsdoc.ts";
import { CONSTRAINTS } from "./meta.ts";

/** Where a JSDoc sits: on a value (property, index signature), a type alias or interface, or a function. */
export type TagPlace = "value" | "type" | "function";

/** Tags mcp-gen reads on values, and on aliases and interfaces (which give them to every use). */
const VALUE_TAGS = new Set([
  ...Object.keys(CONSTRAINTS),
  "default",
  "examples",
  "deprecated",
  "title",
  "description",
]);

/** Tags mcp-gen reads on tool, resource, prompt and completer functions. */
const FUNCTION_TAGS = new Set([
  "param",
  "returns",
  "return",
  "name",
  "title",
  "description",
  "internal",
  "hidden",
  "readOnly",
  "destructive",
  "idempotent",
  "openWorld",
  "task",
  "scope",
  "icon",
  "inputSchema",
  "resource",
  "prompt",
  "complete",
  "mimeType",
  "size",
  "audience",
  "priority",
]);

/** Documentation tags (JSDoc, TSDoc) that carry no schema meaning: never reported. */
const DOC_TAGS = new Set(
  "internal example see link linkcode linkplain remarks since author todo throws exception privateRemarks beta alpha experimental public private protected override virtual sealed inheritDoc typeParam template type typedef callback module file fileoverview license copyright version summary note category group packageDocumentation eventProperty defaultValue decorator label override satisfies import overload enum property prop namespace memberof".split(
    " ",
  ),
);

/** What to write instead of a tag other generators read and mcp-gen does not. */
const INSTEAD: Record<string, string> = {
  nullable: "write `T | null`: a union with null is nullable",
  ref: "a named type becomes a `$defs` entry on its own (recursive types, tagged aliases used more than once)",
  discriminator:
    "a union of object types with a literal property of distinct values becomes `oneOf` on its own",
  asType: 'write the type itself (`Int` for integers, `string & Format<"…">` for formats)',
  "TJS-type": "write the type itself (`Int` for integers)",
  integer: "use the `Int` type from @mcp-gen/runtime",
  hidden: "`@hidden` leaves out whole tools; a property of a tool's parameter is always part of its schema",
};

/** JSON Schema and OpenAPI keywords: a tag of that name is meant for the schema, so it must not go unread. */
const SCHEMA_WORDS = new Set([
  "nullable",
  "ref",
  "discriminator",
  "asType",
  "TJS-type",
  "integer",
  "type",
  "items",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "patternProperties",
  "dependentRequired",
  "const",
  "enum",
  "contentMediaType",
  "contentEncoding",
  "readOnly",
  "writeOnly",
  "id",
  "comment",
  "contains",
  "minContains",
  "maxContains",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "hidden",
  "ignore",
  "errorMessage",
  "markdownDescription",
]);

/**
 * Reports the tags of one JSDoc that mcp-gen reads nowhere at this place (MCPG103): a tag that looks
 * like a schema keyword, a misspelt known tag ("did you mean"), or a tag that belongs elsewhere.
 * Documentation tags (`@see`, `@example`, `@remarks` …) are left alone.
 */
export function checkTags(tags: readonly DocTag[], place: TagPlace, ctx: ExtractContext, site: Site): void {
  const known = place === "function" ? FUNCTION_TAGS : VALUE_TAGS;
  const elsewhere = place === "function" ? VALUE_TAGS : FUNCTION_TAGS;
  const where =
    place === "function" ? "a function" : place === "type" ? "a type alias or interface" : "a property";
  for (const tag of tags) {
    const name = tag.name;
    if (known.has(name)) {
      if ((name === "title" || name === "description") && tag.text === "")
        warnTag(
          ctx,
          site,
          `@${name} has no text, so it says nothing`,
          `write the ${name} after the tag, or remove it`,
        );
      continue;
    }
    if (DOC_TAGS.has(name)) continue;
    const near = closest(name, [...known]);
    if (near && !elsewhere.has(name)) {
      warnTag(ctx, site, `@${name} is not a tag mcp-gen reads; did you mean @${near}?`, `write @${near}`);
    } else if (elsewhere.has(name)) {
      const fix =
        place === "function"
          ? `put @${name} on the property it constrains, or use a type-level tag on the parameter (e.g. \`number & Minimum<0>\`)`
          : `remove @${name}: on ${where} mcp-gen reads ${[...known].map((t) => `@${t}`).join(" ")}`;
      warnTag(ctx, site, `@${name} is not read on ${where}`, fix);
    } else if (SCHEMA_WORDS.has(name) || SCHEMA_WORDS.has(name.replace(/^\$/, ""))) {
      warnTag(
        ctx,
        site,
        `@${name} is not a tag mcp-gen reads, so the schema does not say it`,
        INSTEAD[name] ??
          "say it with the type, or with a tag mcp-gen reads (see the guides Writing tools and Constraints)",
      );
    }
  }
}

function warnTag(ctx: ExtractContext, site: Site, message: string, fix: string): void {
  ctx.warnOnce("MCPG103", message, site, fix);
}

/** The known tag a name most likely misspells: same letters ignoring case, or at most 2 edits away. */
function closest(name: string, known: readonly string[]): string | undefined {
  if (name.length < 4) return undefined;
  let best: { tag: string; distance: number } | undefined;
  for (const tag of known) {
    const distance = name.toLowerCase() === tag.toLowerCase() ? 0 : editDistance(name, tag);
    if (distance <= 2 && (!best || distance < best.distance)) best = { tag, distance };
  }
  return best?.tag;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
