import { ts } from "#ts-morph";
import type { IrResource, IrResourceResult, IrResourceTemplate } from "../../ir/types.ts";
import type { Site } from "../context.ts";
import { has } from "../handlers/util.ts";
import { tagText } from "../jsdoc.ts";
import { applyNaming } from "../naming.ts";
import { isToolContext } from "../tools.ts";
import { isUriTemplate, parseResourceTemplate, uriProblem } from "../uri-template.ts";
import { declaredParams, iconsOf, resourceAnnotationsOf, type TaggedFunction } from "./common.ts";
import { stringArguments } from "./string-args.ts";

/** `@resource <uri>` (a static resource) or `@resource <uri-template>` (a resource template). */
export function extractResource(fn: TaggedFunction): IrResource | IrResourceTemplate {
  const { candidate, doc, ctx, naming } = fn;
  const name = tagText(doc, "name") || applyNaming(candidate.exportedName, naming);
  const uri = tagText(doc, "resource") ?? "";
  const kind = isUriTemplate(uri) ? "resource template" : "resource";
  const owner = `${kind} "${name}"`;
  const site: Site = { node: candidate.docNode, path: owner };
  if (uri === "") {
    ctx.fail(
      "MCPG034",
      "@resource needs a URI or URI template",
      site,
      "write e.g. `@resource app://status` or `@resource app://items/{id}`",
    );
  }
  const common = {
    name,
    result: resultOf(fn, { node: candidate.fn.type ?? candidate.docNode, path: `${owner} › return type` }),
    binding: fn.binding,
    location: ctx.location(candidate.docNode),
  };
  const meta = metaOf(fn, site);
  if (kind === "resource") {
    const problem = uriProblem(uri);
    if (problem) ctx.fail("MCPG034", `"${uri}" is not a valid URI: ${problem}`, site);
    const resource: IrResource = { uri, ...common, ...meta };
    const size = tagText(doc, "size");
    if (size !== undefined) {
      const n = Number(size);
      if (size === "" || !Number.isInteger(n) || n < 0)
        ctx.fail("MCPG028", `@size needs a number of bytes, got "${size}"`, site, "write e.g. `@size 1024`");
      resource.size = n;
    }
    declaredParams(candidate).forEach((param, index) => {
      const type = ctx.checker.getTypeAtLocation(param);
      if (isToolContext(type)) resource.contextIndex = index;
      else {
        ctx.fail(
          "MCPG033",
          `a static resource takes no parameters but a ToolContext; "${param.name.getText()}" has no variable in "${uri}"`,
          { node: param, path: `${owner} › parameter "${param.name.getText()}"` },
          `make the URI a template with a variable per parameter, e.g. \`@resource ${uri.replace(/\/$/, "")}/{${param.name.getText()}}\``,
        );
      }
    });
    return order(resource);
  }
  const parsed = parseResourceTemplate(uri);
  if ("error" in parsed)
    return ctx.fail("MCPG034", `"${uri}" is not a valid URI template: ${parsed.error}`, site);
  const args = stringArguments(fn, owner, "template variable");
  for (const variable of parsed.variables) {
    if (!args.params.some((p) => p.name === variable)) {
      ctx.fail(
        "MCPG033",
        `the variable "${variable}" of "${uri}" has no parameter`,
        site,
        `add a parameter \`${variable}: string\`, or rename a parameter to "${variable}"`,
      );
    }
  }
  for (const param of args.params) {
    if (!parsed.variables.includes(param.name)) {
      ctx.fail(
        "MCPG033",
        `the parameter "${param.name}" is no variable of "${uri}"`,
        {
          node: declaredParams(candidate).find((p) => p.name.getText() === param.name)!,
          path: `${owner} › parameter "${param.name}"`,
        },
        `add {${param.name}} to the template, or remove the parameter`,
      );
    }
  }
  const template: IrResourceTemplate = {
    uriTemplate: uri,
    ...common,
    ...meta,
    params: args.params,
    coerce: args.coerce,
    complete: args.complete,
  };
  if (args.contextIndex !== undefined) template.contextIndex = args.contextIndex;
  return order(template);
}

function metaOf(fn: TaggedFunction, site: Site): Partial<IrResource> {
  const { doc, ctx } = fn;
  const meta: Partial<IrResource> = {};
  const title = tagText(doc, "title");
  if (title) meta.title = title;
  if (doc.summary) meta.description = doc.summary;
  const mimeType = tagText(doc, "mimeType");
  if (mimeType !== undefined) {
    if (!/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(mimeType))
      ctx.fail(
        "MCPG028",
        `@mimeType needs a MIME type, got "${mimeType}"`,
        site,
        "write e.g. `@mimeType text/markdown`",
      );
    meta.mimeType = mimeType;
  }
  const icons = iconsOf(doc, ctx, site);
  if (icons) meta.icons = icons;
  const annotations = resourceAnnotationsOf(doc, ctx, site);
  if (annotations) meta.annotations = annotations;
  return meta;
}

/** The keys in one fixed order, so the IR dump does not depend on the order they were set in. */
function order<T extends object>(value: T): T {
  const keys = [
    "uri",
    "uriTemplate",
    "name",
    "title",
    "description",
    "mimeType",
    "size",
    "icons",
    "annotations",
    "params",
    "coerce",
    "complete",
    "result",
    "binding",
    "contextIndex",
    "location",
  ];
  return Object.fromEntries(
    keys.filter((k) => k in value).map((k) => [k, (value as Record<string, unknown>)[k]]),
  ) as T;
}

/** string → text, Uint8Array → blob, anything else JSON (mapped, so it must be JSON-able). */
function resultOf(fn: TaggedFunction, site: Site): IrResourceResult {
  const { candidate, ctx, map } = fn;
  const signature = ctx.checker.getSignatureFromDeclaration(candidate.fn);
  const declared = signature?.getReturnType();
  const type = declared ? (ctx.checker.getAwaitedType(declared) ?? declared) : undefined;
  if (!type || has(type, ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) {
    return ctx.fail(
      "MCPG039",
      "a resource returns its contents, but this returns nothing",
      site,
      "return a string (text), a Uint8Array (binary) or a JSON value",
    );
  }
  const parts = type.isUnion() ? type.types : [type];
  if (parts.every((t) => has(t, ts.TypeFlags.StringLike))) return { kind: "text" };
  if (type.getSymbol()?.getName() === "Uint8Array") return { kind: "blob" };
  return { kind: "json", type: map(type, site) };
}
