import { ts } from "#ts-morph";
import type { IrPrompt } from "../../ir/types.ts";
import type { Site } from "../context.ts";
import { has } from "../handlers/util.ts";
import { tagText } from "../jsdoc.ts";
import { applyNaming } from "../naming.ts";
import { isRuntimeType } from "../tools.ts";
import { iconsOf, type TaggedFunction } from "./common.ts";
import { stringArguments } from "./string-args.ts";

/** `@prompt`: the parameters are the prompt's arguments; it returns a string or `PromptMessage[]`. */
export function extractPrompt(fn: TaggedFunction): IrPrompt {
  const { candidate, doc, ctx, naming } = fn;
  const name = tagText(doc, "name") || applyNaming(candidate.exportedName, naming);
  const owner = `prompt "${name}"`;
  const site: Site = { node: candidate.docNode, path: owner };
  if (tagText(doc, "prompt")) {
    ctx.fail(
      "MCPG039",
      `@prompt takes no value, got "${tagText(doc, "prompt")}"`,
      site,
      "write `@prompt` alone; the prompt is named after the function (or `@name`)",
    );
  }
  const args = stringArguments(fn, owner, "prompt argument");
  const result = resultOf(fn, {
    node: candidate.fn.type ?? candidate.docNode,
    path: `${owner} › return type`,
  });
  const prompt: IrPrompt = {
    name,
    params: [],
    coerce: {},
    complete: {},
    result,
    binding: fn.binding,
    location: ctx.location(candidate.docNode),
  };
  const title = tagText(doc, "title");
  const icons = iconsOf(doc, ctx, site);
  return {
    name,
    ...(title ? { title } : {}),
    ...(doc.summary ? { description: doc.summary } : {}),
    ...(icons ? { icons } : {}),
    params: args.params,
    coerce: args.coerce,
    complete: args.complete,
    result: prompt.result,
    binding: prompt.binding,
    ...(args.contextIndex !== undefined ? { contextIndex: args.contextIndex } : {}),
    location: prompt.location,
  };
}

function resultOf(fn: TaggedFunction, site: Site): IrPrompt["result"] {
  const { candidate, ctx } = fn;
  const declared = ctx.checker.getSignatureFromDeclaration(candidate.fn)?.getReturnType();
  const type = declared ? (ctx.checker.getAwaitedType(declared) ?? declared) : undefined;
  if (type) {
    const parts = type.isUnion() ? type.types : [type];
    if (parts.every((t) => has(t, ts.TypeFlags.StringLike))) return "text";
    const element = ctx.checker.isArrayType(type)
      ? ctx.checker.getTypeArguments(type as ts.TypeReference)[0]
      : undefined;
    if (element && isRuntimeType(element, "PromptMessage")) return "messages";
  }
  return ctx.fail(
    "MCPG039",
    `a prompt returns a string or PromptMessage[], not ${type ? ctx.checker.typeToString(type) : "this"}`,
    site,
    'return a string (one user message), or PromptMessage[] from "@mcp-gen/runtime"',
  );
}
