import path from "node:path";
import { type Diagnostic, diagnostic } from "@mcp-gen/schema";
import { ts } from "#ts-morph";
import type { NamingStyle } from "../config/define.ts";
import type {
  IrAnnotations,
  IrBinding,
  IrCompleter,
  IrParam,
  IrPrompt,
  IrResource,
  IrResourceTemplate,
  IrTool,
  IrType,
} from "../ir/types.ts";
import { type ExtractContext, ExtractError, type Site } from "./context.ts";
import { literalDefault } from "./defaults.ts";
import type { MapType } from "./handlers/handler.ts";
import { has } from "./handlers/util.ts";
import { INPUT_SCHEMA_TAG, matchInputSchema, readInputSchema } from "./input-schema.ts";
import { type DocInfo, docOfDeclaration, hasTag, tagText } from "./jsdoc.ts";
import { applyMeta } from "./meta.ts";
import { applyNaming } from "./naming.ts";
import { iconsOf } from "./resources/common.ts";
import { extractCompleter } from "./resources/completer.ts";
import { extractPrompt } from "./resources/prompt.ts";
import { extractResource } from "./resources/resource.ts";
import { scopesOf } from "./scopes.ts";
import { checkTags } from "./tag-check.ts";

export type FunctionLike =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression;

/** What one tool module declares: tools, and the functions tagged `@resource`, `@prompt`, `@complete`. */
export interface ModuleExtract {
  tools: IrTool[];
  resources: IrResource[];
  resourceTemplates: IrResourceTemplate[];
  prompts: IrPrompt[];
  completers: IrCompleter[];
  errors: Diagnostic[];
}

/** The JSDoc tags that make a function something other than a tool. */
const NOT_TOOL_TAGS = ["resource", "prompt", "complete"] as const;

export interface Candidate {
  /** Name the tool is exported under (function name, or method name for classes). */
  exportedName: string;
  fn: FunctionLike;
  /** Node carrying the JSDoc (the variable declaration for arrow functions). */
  docNode: ts.Node;
  binding: IrBinding;
}

/**
 * Finds the tools of one module (and its resources, resource templates, prompts and completers)
 * and maps each; errors are collected per function.
 */
export function extractModuleTools(
  sourceFile: ts.SourceFile,
  ctx: ExtractContext,
  map: MapType,
  naming: NamingStyle,
): ModuleExtract {
  const tools: IrTool[] = [];
  const errors: Diagnostic[] = [];
  const out: ModuleExtract = {
    tools,
    resources: [],
    resourceTemplates: [],
    prompts: [],
    completers: [],
    errors,
  };
  let candidates: Candidate[];
  try {
    candidates = findCandidates(sourceFile, ctx);
  } catch (error) {
    if (error instanceof ExtractError) return { ...out, errors: [error.diagnostic] };
    throw error;
  }
  for (const candidate of candidates) {
    try {
      const doc = docOfDeclaration(candidate.docNode);
      checkFunctionTags(candidate, doc, ctx);
      const tag = NOT_TOOL_TAGS.find((t) => hasTag(doc, t));
      if (tag && !(hasTag(doc, "internal") || hasTag(doc, "hidden"))) {
        extractTagged(tag, { candidate, doc, ctx, map, naming, out });
        continue;
      }
      const tool = extractTool(candidate, ctx, map, naming);
      if (tool) tools.push(tool);
    } catch (error) {
      if (!(error instanceof ExtractError)) throw error;
      errors.push(error.diagnostic);
    }
  }
  if (candidates.length === 0) {
    ctx.warnings.push(
      diagnostic("MCPG102", "module exports no functions or tool classes", {
        location: { file: relative(ctx, sourceFile.fileName), line: 1, column: 1 },
      }),
    );
  }
  return out;
}

/** A function tagged `@resource`, `@prompt` or `@complete`: handled by its own extractor. */
function extractTagged(
  tag: (typeof NOT_TOOL_TAGS)[number],
  options: {
    candidate: Candidate;
    doc: DocInfo;
    ctx: ExtractContext;
    map: MapType;
    naming: NamingStyle;
    out: ModuleExtract;
  },
): void {
  const { candidate, doc, ctx, out } = options;
  const others = NOT_TOOL_TAGS.filter((t) => t !== tag && hasTag(doc, t));
  if (others.length > 0) {
    ctx.fail(
      "MCPG039",
      `@${tag} and @${others[0]} on one function`,
      { node: candidate.docNode, path: `function "${candidate.exportedName}"` },
      "give each resource, prompt and completer its own function",
    );
  }
  if (candidate.binding.kind !== "function") {
    ctx.fail(
      "MCPG039",
      `@${tag} applies to exported functions, not to class methods`,
      { node: candidate.docNode, path: `method "${candidate.exportedName}"` },
      "export a plain function (it may call the class)",
    );
  }
  const binding = { module: candidate.binding.module, export: candidate.binding.export };
  const context = { ...options, binding };
  if (tag === "complete") out.completers.push(extractCompleter(context));
  else if (tag === "prompt") out.prompts.push(extractPrompt(context));
  else {
    const resource = extractResource(context);
    if ("uriTemplate" in resource) out.resourceTemplates.push(resource);
    else out.resources.push(resource);
  }
}

export function relative(ctx: ExtractContext, file: string): string {
  return path.relative(ctx.root, file).split(path.sep).join("/");
}

function findCandidates(sourceFile: ts.SourceFile, ctx: ExtractContext): Candidate[] {
  const { checker } = ctx;
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  if (!moduleSymbol) return [];
  const module = relative(ctx, sourceFile.fileName);
  const candidates: Candidate[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const exportName = exported.getName();
    const declarations = symbol.getDeclarations() ?? [];
    const functions = declarations.filter(ts.isFunctionDeclaration);
    if (functions.length > 0) {
      const implementation = functions.find((f) => f.body) ?? functions[0]!;
      if (functions.length > 1) {
        ctx.fail(
          "MCPG027",
          `function "${exportName}" is overloaded; a tool needs one signature`,
          { node: functions[0]!, path: `tool "${exportName}"` },
          "keep one signature (a union parameter type covers several), or export a separate tool per overload",
        );
      }
      const name = exportName === "default" ? implementation.name?.text : exportName;
      if (!name) {
        ctx.fail(
          "MCPG027",
          "the default export is an anonymous function",
          { node: implementation, path: "default export" },
          "give the function a name",
        );
      }
      candidates.push({
        exportedName: name,
        fn: implementation,
        docNode: implementation,
        binding: { kind: "function", module, export: exportName },
      });
      continue;
    }
    const variable = declarations.find(ts.isVariableDeclaration);
    if (variable?.initializer) {
      const init = skipOuter(variable.initializer);
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) {
        candidates.push({
          exportedName: exportName,
          fn: init,
          docNode: variable,
          binding: { kind: "function", module, export: exportName },
        });
      }
      continue;
    }
    const cls = declarations.find(ts.isClassDeclaration);
    if (cls) {
      for (const member of cls.members) {
        if (!ts.isMethodDeclaration(member) || !member.body || !isPublicInstance(member)) continue;
        if (!ts.isIdentifier(member.name) && !ts.isStringLiteral(member.name)) continue;
        const method = member.name.text;
        candidates.push({
          exportedName: method,
          fn: member,
          docNode: member,
          binding: { kind: "method", module, export: exportName, method },
        });
      }
    }
  }
  return candidates;
}

function skipOuter(node: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
    node = node.expression;
  return node;
}

function isPublicInstance(member: ts.MethodDeclaration): boolean {
  const flags = ts.getCombinedModifierFlags(member);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected | ts.ModifierFlags.Static)) return false;
  return !ts.isPrivateIdentifier(member.name);
}

function extractTool(
  candidate: Candidate,
  ctx: ExtractContext,
  map: MapType,
  naming: NamingStyle,
): IrTool | undefined {
  const doc = docOfDeclaration(candidate.docNode);
  if (hasTag(doc, "internal") || hasTag(doc, "hidden")) return undefined;
  const name = tagText(doc, "name") || applyNaming(candidate.exportedName, naming);
  const toolSite: Site = { node: candidate.docNode, path: `tool "${name}"` };
  let params: IrParam[] = [];
  let contextIndex: number | undefined;
  let argsStyle: IrTool["argsStyle"] = "positional";
  const declared = candidate.fn.parameters.filter(
    (p) => !(ts.isIdentifier(p.name) && p.name.text === "this"),
  );
  declared.forEach((param, index) => {
    const paramName = ts.isIdentifier(param.name) ? param.name.text : undefined;
    const site: Site = {
      node: param,
      path: `tool "${name}" › parameter "${paramName ?? param.name.getText()}"`,
    };
    const type = ctx.checker.getTypeAtLocation(param);
    if (isToolContext(type)) {
      if (contextIndex !== undefined)
        ctx.fail("MCPG027", "a tool takes at most one ToolContext parameter", site);
      contextIndex = index;
      return;
    }
    if (param.dotDotDotToken) ctx.fail("MCPG027", "rest parameters cannot be tool arguments", site);
    if (!paramName) {
      const dataParams = declared.filter((p) => !isToolContext(ctx.checker.getTypeAtLocation(p)));
      if (!ts.isObjectBindingPattern(param.name) || dataParams.length !== 1) {
        ctx.fail(
          "MCPG027",
          "a destructured parameter must be the tool's only data parameter",
          site,
          "name the parameter, or take one destructured arguments object",
        );
      }
      argsStyle = "object";
      const mapped = map(type, site);
      if (mapped.kind !== "object")
        ctx.fail("MCPG027", "a destructured arguments parameter must have an object type", site);
      params.push(...objectParams(mapped, param, ctx, site));
      return;
    }
    params.push(extractParam(param, paramName, type, doc, ctx, map, site));
  });
  const schemaTag = doc.tags.find((t) => t.name === INPUT_SCHEMA_TAG);
  const schemaSite: Site = {
    node: schemaTag?.node ?? candidate.docNode,
    path: `tool "${name}" › @inputSchema`,
  };
  const module = candidate.fn.getSourceFile().fileName;
  const input = schemaTag && readInputSchema({ tag: schemaTag, module, ctx, site: schemaSite });
  if (input) ({ params, argsStyle } = matchInputSchema({ input, params, argsStyle, ctx, site: schemaSite }));
  const returns = extractReturn(candidate.fn, ctx, map, {
    node: candidate.fn.type ?? candidate.docNode,
    path: `tool "${name}" › return type`,
  });
  const tool: IrTool = {
    name,
    params,
    argsStyle,
    returns,
    annotations: annotationsOf(doc, ctx, toolSite),
    binding: candidate.binding,
    location: ctx.location(candidate.docNode),
  };
  const title = tagText(doc, "title");
  if (title) tool.title = title;
  const description = doc.summary ?? (tagText(doc, "description") || undefined);
  if (description) tool.description = description;
  else ctx.warn("MCPG101", "tool has no description", toolSite);
  const returnsDoc = tagText(doc, "returns") ?? tagText(doc, "return");
  if (returnsDoc) tool.returnsDescription = returnsDoc;
  if (contextIndex !== undefined) tool.contextIndex = contextIndex;
  if (input) tool.inputSchema = input;
  const icons = iconsOf(doc, ctx, toolSite);
  if (icons) tool.icons = icons;
  const scopes = scopesOf(doc, ctx, toolSite);
  if (scopes.length > 0) tool.scopes = scopes;
  const task = taskOf(doc, ctx, toolSite);
  if (task) {
    tool.taskSupport = task.support;
    if (task.deferred) tool.taskDeferred = true;
  }
  return tool;
}

/**
 * `@task` (`optional`, the default) or `@task required`: how the tool runs as an MCP task;
 * `deferred` after either: the call starts as a plain call and becomes a task when the tool
 * calls `ctx.becomeTask()`.
 */
function taskOf(
  doc: DocInfo,
  ctx: ExtractContext,
  site: Site,
): { support: NonNullable<IrTool["taskSupport"]>; deferred: boolean } | undefined {
  const tags = doc.tags.filter((t) => t.name === "task");
  if (tags.length === 0) return undefined;
  if (tags.length > 1) ctx.fail("MCPG042", "@task is given more than once", site, "keep one `@task` tag");
  const text = tags[0]!.text.trim();
  const words = text === "" ? [] : text.split(/\s+/);
  const deferred = words.at(-1) === "deferred";
  const support = deferred ? words.slice(0, -1) : words;
  if (support.length === 0 || (support.length === 1 && support[0] === "optional")) {
    return { support: "optional", deferred };
  }
  if (support.length === 1 && support[0] === "required") return { support: "required", deferred };
  return ctx.fail(
    "MCPG042",
    `@task takes "optional" (the default) or "required", then "deferred" if the tool becomes a task itself; got "${text}"`,
    site,
    "write `@task` (clients choose), or `@task required` (the tool runs only as a task), each with ` deferred` when the tool calls `ctx.becomeTask()`; leave the tag out for a tool that never runs as one",
  );
}

export function extractParam(
  param: ts.ParameterDeclaration,
  name: string,
  type: ts.Type,
  doc: DocInfo,
  ctx: ExtractContext,
  map: MapType,
  site: Site,
): IrParam {
  const optionalType = type.isUnion() && type.types.some((t) => has(t, ts.TypeFlags.Undefined));
  let mapped = map(type, site);
  const description = doc.params.get(name);
  const meta: { description?: string; default?: unknown } = {};
  if (description) meta.description = description;
  if (param.initializer) {
    const value = literalDefault(param.initializer, ctx, site);
    if (value !== undefined) meta.default = value;
  }
  mapped = applyMeta(mapped, meta, ctx, site);
  return {
    name,
    type: mapped,
    required: !param.questionToken && !param.initializer && !optionalType,
    location: ctx.location(param),
  };
}

/** Properties of a destructured arguments object, as parameters; binding defaults become `default`. */
function objectParams(
  object: IrType & { kind: "object" },
  param: ts.ParameterDeclaration,
  ctx: ExtractContext,
  site: Site,
): IrParam[] {
  const pattern = param.name as ts.ObjectBindingPattern;
  const defaults = new Map<string, ts.Expression>();
  for (const element of pattern.elements) {
    const key = element.propertyName ?? element.name;
    if (element.initializer && (ts.isIdentifier(key) || ts.isStringLiteral(key)))
      defaults.set(key.text, element.initializer);
  }
  return object.properties.map((p) => {
    const init = defaults.get(p.name);
    const value = init
      ? literalDefault(init, ctx, { node: init, path: `${site.path} › property "${p.name}"` })
      : undefined;
    const type = value !== undefined ? { ...p.type, default: value } : p.type;
    return { name: p.name, type, required: p.required && !init, location: ctx.location(param) };
  });
}

export function extractReturn(
  fn: FunctionLike,
  ctx: ExtractContext,
  map: MapType,
  site: Site,
): IrType | null {
  const signature = ctx.checker.getSignatureFromDeclaration(fn);
  if (!signature) return null;
  const declared = signature.getReturnType();
  const type = ctx.checker.getAwaitedType(declared) ?? declared;
  if (has(type, ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) return null;
  // Content blocks (images, audio, resources) are sent as they are: no output schema.
  if (isRuntimeType(type, "ToolResult")) return null;
  return map(type, site);
}

/** The runtime's `ToolContext` (from `@mcp-gen/runtime`) is injected by the server, never sent by clients. */
export function isToolContext(type: ts.Type): boolean {
  return isRuntimeType(type, "ToolContext");
}

/** A type of that name declared by `@mcp-gen/runtime`. */
export function isRuntimeType(type: ts.Type, name: string): boolean {
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  if (symbol?.getName() !== name) return false;
  return (symbol.getDeclarations() ?? []).some((d) =>
    /[\\/](@mcp-gen[\\/]runtime|packages[\\/]runtime)[\\/]/.test(d.getSourceFile().fileName),
  );
}

const HINTS: Record<string, keyof IrAnnotations> = {
  readOnly: "readOnlyHint",
  destructive: "destructiveHint",
  idempotent: "idempotentHint",
  openWorld: "openWorldHint",
};

function annotationsOf(doc: DocInfo, ctx: ExtractContext, site: Site): IrAnnotations {
  const annotations: IrAnnotations = {};
  for (const tag of doc.tags) {
    const key = HINTS[tag.name];
    if (!key) continue;
    const text = tag.text.toLowerCase();
    if (text !== "" && text !== "true" && text !== "false") {
      ctx.fail(
        "MCPG028",
        `@${tag.name} takes no value, "true" or "false"; got "${tag.text}"`,
        site,
        `write \`@${tag.name}\` alone, or \`@${tag.name} false\``,
      );
    }
    (annotations as Record<string, boolean>)[key] = text !== "false";
  }
  return annotations;
}

/** Tags a function's JSDoc has that mcp-gen reads nowhere there, and `@param`s naming no parameter. */
function checkFunctionTags(candidate: Candidate, doc: DocInfo, ctx: ExtractContext): void {
  const site: Site = { node: candidate.docNode, path: `function "${candidate.exportedName}"` };
  checkTags(doc.tags, "function", ctx, site);
  const names = new Set(
    candidate.fn.parameters.flatMap((p) =>
      ts.isIdentifier(p.name)
        ? [p.name.text]
        : p.name.elements.flatMap((e) => (ts.isBindingElement(e) ? [e.name.getText()] : [])),
    ),
  );
  for (const name of doc.params.keys()) {
    if (names.has(name) || name.includes(".")) continue;
    ctx.warnOnce(
      "MCPG103",
      `@param ${name} names no parameter, so its text describes nothing`,
      site,
      "name a parameter of the function, or remove the tag",
    );
  }
}
