import { ts } from "#ts-morph";
import type { NamingStyle } from "../../config/define.ts";
import type { IrFunctionBinding, IrIcon, IrResourceAnnotations } from "../../ir/types.ts";
import type { ExtractContext, Site } from "../context.ts";
import type { MapType } from "../handlers/handler.ts";
import type { DocInfo } from "../jsdoc.ts";
import type { Candidate, ModuleExtract } from "../tools.ts";

/** What every extractor of a tagged function gets. */
export interface TaggedFunction {
  candidate: Candidate;
  doc: DocInfo;
  ctx: ExtractContext;
  map: MapType;
  naming: NamingStyle;
  binding: IrFunctionBinding;
  out: ModuleExtract;
}

/**
 * `@icon <src> [mimeType] [sizes…] [light|dark]`, repeatable; `undefined` when there is none. A word
 * with a `/` is the MIME type, `light`/`dark` the theme, any other word a size (`48x48`, `any`).
 */
export function iconsOf(doc: DocInfo, ctx: ExtractContext, site: Site): IrIcon[] | undefined {
  const icons: IrIcon[] = [];
  for (const tag of doc.tags) {
    if (tag.name !== "icon") continue;
    const [src, ...rest] = tag.text.split(/\s+/).filter(Boolean);
    if (!src) {
      ctx.fail(
        "MCPG028",
        "@icon needs a source",
        site,
        "write `@icon <src> [mimeType] [sizes…]`, e.g. `@icon https://example.com/icon.png image/png 48x48`",
      );
    }
    const icon: IrIcon = { src };
    const theme = rest.find((word) => word === "light" || word === "dark");
    const sizes = rest.filter((word) => !word.includes("/") && word !== theme);
    const mime = rest.find((word) => word.includes("/"));
    if (mime) icon.mimeType = mime;
    if (sizes.length > 0) icon.sizes = sizes;
    if (theme) icon.theme = theme as "light" | "dark";
    icons.push(icon);
  }
  return icons.length > 0 ? icons : undefined;
}

/** `@audience user|assistant[,…]` and `@priority 0..1`; `undefined` when neither is there. */
export function resourceAnnotationsOf(
  doc: DocInfo,
  ctx: ExtractContext,
  site: Site,
): IrResourceAnnotations | undefined {
  const annotations: IrResourceAnnotations = {};
  for (const tag of doc.tags) {
    if (tag.name === "audience") {
      const roles = tag.text.split(/[\s,]+/).filter(Boolean);
      if (roles.length === 0 || roles.some((r) => r !== "user" && r !== "assistant")) {
        ctx.fail(
          "MCPG028",
          `@audience takes user and/or assistant, got "${tag.text}"`,
          site,
          "write `@audience user`, `@audience assistant` or `@audience user,assistant`",
        );
      }
      annotations.audience = [...new Set(roles)] as ("user" | "assistant")[];
    } else if (tag.name === "priority") {
      const value = tag.text === "" ? Number.NaN : Number(tag.text);
      if (!(value >= 0 && value <= 1)) {
        ctx.fail(
          "MCPG028",
          `@priority needs a number from 0 to 1, got "${tag.text}"`,
          site,
          "write e.g. `@priority 0.5` (1 is the most important)",
        );
      }
      annotations.priority = value;
    }
  }
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/** The function's declared parameters, `this` left out. */
export function declaredParams(candidate: Candidate): ts.ParameterDeclaration[] {
  return candidate.fn.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === "this"));
}
