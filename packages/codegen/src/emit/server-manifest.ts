import type { ContractCompletion, ContractTool, FunctionBinding, ToolBinding } from "@mcp-gen/schema";
import type { EmitContext } from "./context.ts";
import { importSpecifier, relativeSpecifier } from "./imports.ts";
import { camelCase, jsLiteral, propertyKey } from "./names.ts";
import { allItems, type EmitItem, emitItems } from "./resources.ts";
import { isWrapped, toolTypeNames } from "./types.ts";
import { codeHeader, createWriter, finish, type OutputFile, writeDoc } from "./writer.ts";

/** Names the emitted file declares itself; module aliases must not take them. */
const TAKEN = new Set(
  "defineManifest ServerManifest tools validators manifest createManifest Instances classes instances args ctx resources resourceTemplates prompts resourceTemplateValidators promptValidators variables".split(
    " ",
  ),
);

/**
 * Emits `server.ts`: the server manifest that binds every tool name to its implementation
 * (function exports are imported; class methods are called on instances the caller passes
 * to `createManifest`), maps the arguments object to the implementation's parameters, and
 * carries the validators and the tool definitions. Contracts whose tools have no binding
 * (pulled from a server, hand-written) get no manifest.
 */
export function emitServerManifest(ctx: EmitContext): OutputFile[] {
  const { contract } = ctx;
  const extras = contract["x-mcp-gen"]?.tools ?? {};
  const bound = contract.tools.map((tool) => ({ tool, binding: extras[tool.name]?.binding }));
  const items = emitItems(ctx);
  const others = allItems(items);
  if (bound.length + others.length === 0 || bound.some((b) => !b.binding) || others.some((i) => !i.binding))
    return [];
  const completers = others.flatMap((i) =>
    Object.values(i.complete ?? {}).flatMap((c) => ("binding" in c ? [c.binding.module] : [])),
  );
  const aliases = moduleAliases([
    ...bound.map((b) => b.binding!.module),
    ...others.map((i) => i.binding!.module),
    ...completers,
  ]);
  const classes = [
    ...new Map(
      bound.filter((b) => b.binding!.kind === "method").map((b) => [b.binding!.export, b.binding!.module]),
    ),
  ].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

  const w = createWriter();
  w.write(codeHeader()).blankLine();
  const revives = bound.some((b) => (b.binding!.dates?.length ?? 0) > 0);
  const urls = bound.some((b) => (b.binding!.urls?.length ?? 0) > 0);
  w.writeLine(
    `import { defineManifest${revives ? ", reviveDates" : ""}${urls ? ", reviveUrls" : ""}, type ServerManifest } from "@mcp-gen/runtime/server";`,
  );
  for (const [module, alias] of aliases) {
    w.writeLine(`import * as ${alias} from ${JSON.stringify(relativeSpecifier(ctx, module))};`);
  }
  const validatorNames = [
    ...(bound.length > 0 ? ["validators"] : []),
    ...(items.templates.length > 0 ? ["resourceTemplateValidators"] : []),
    ...(items.prompts.length > 0 ? ["promptValidators"] : []),
  ];
  const lists = [
    "tools",
    ...(items.resources.length > 0 ? ["resources"] : []),
    ...(items.templates.length > 0 ? ["resourceTemplates"] : []),
    ...(items.prompts.length > 0 ? ["prompts"] : []),
  ];
  w.writeLine(`import { ${validatorNames.join(", ")} } from "${importSpecifier(ctx, "./index.ts")}";`);
  w.writeLine(`import { ${lists.join(", ")} } from "${importSpecifier(ctx, "./tools.ts")}";`);
  // tools with a hand-written input schema: tsc checks their parameters against its generated type
  const typeNames = toolTypeNames(ctx);
  const argsTypes = new Map(
    bound
      .filter((b) => extras[b.tool.name]?.inputSchema !== undefined)
      .map((b) => [b.tool.name, typeNames.get(b.tool.name)!.input]),
  );
  if (argsTypes.size > 0)
    w.writeLine(
      `import type { ${[...argsTypes.values()].join(", ")} } from "${importSpecifier(ctx, "./types.ts")}";`,
    );
  w.blankLine();

  const server = JSON.stringify(contract.server);
  const body = () => {
    w.write("defineManifest({").newLine();
    w.indent(() => {
      w.writeLine(`server: ${server},`);
      if (contract.title !== undefined) w.writeLine(`title: ${JSON.stringify(contract.title)},`);
      if (contract.version !== undefined) w.writeLine(`version: ${JSON.stringify(contract.version)},`);
      if (contract.icons !== undefined) w.writeLine(`icons: ${JSON.stringify(contract.icons)},`);
      w.writeLine("tools: [");
      w.indent(() => {
        bound.forEach(({ tool, binding }, i) => {
          writeTool(tool, binding!, i, aliases.get(binding!.module)!);
        });
      });
      w.writeLine("],");
      for (const [key, list] of [
        ["resources", items.resources],
        ["resourceTemplates", items.templates],
        ["prompts", items.prompts],
      ] as const) {
        if (list.length === 0) continue;
        w.writeLine(`${key}: [`);
        w.indent(() => {
          for (const item of list) writeItem(item);
        });
        w.writeLine("],");
      }
    });
    w.write("})");
  };
  const writeItem = (item: EmitItem) => {
    const binding = item.binding!;
    const alias = aliases.get(binding.module)!;
    const list =
      item.kind === "resource" ? "resources" : item.kind === "template" ? "resourceTemplates" : "prompts";
    w.writeLine("{");
    w.indent(() => {
      w.writeLine(`definition: ${list}[${item.index}],`);
      if (item.kind === "template") w.writeLine(`variables: resourceTemplateValidators${access(item.name)},`);
      if (item.kind === "prompt") w.writeLine(`input: promptValidators${access(item.name)},`);
      if (item.coerce && Object.keys(item.coerce).length > 0)
        w.writeLine(`coerce: ${jsLiteral(item.coerce)},`);
      w.writeLine(`usesContext: ${binding.contextIndex !== undefined},`);
      const complete = Object.entries(item.complete ?? {});
      if (complete.length > 0) {
        w.writeLine("complete: {");
        w.indent(() => {
          for (const [name, c] of complete) w.writeLine(`${propertyKey(name)}: ${completer(c, aliases)},`);
        });
        w.writeLine("},");
      }
      const method = item.kind === "prompt" ? "get" : "read";
      w.writeLine(
        `${method}: ${itemCall(binding, alias, item.kind === "resource" ? undefined : item.kind === "template" ? "variables" : "args")},`,
      );
    });
    w.writeLine("},");
  };
  const writeTool = (tool: ContractTool, binding: ToolBinding, index: number, alias: string) => {
    const validator = `validators${access(tool.name)}`;
    w.writeLine("{");
    w.indent(() => {
      w.writeLine(`definition: tools[${index}],`);
      w.writeLine(`input: ${validator}.input,`);
      if (tool.outputSchema) w.writeLine(`output: ${validator}.output,`);
      w.writeLine(`resultWrapped: ${isWrapped(ctx, tool)},`);
      w.writeLine(`usesContext: ${binding.contextIndex !== undefined},`);
      const scopes = ctx.contract["x-mcp-gen"]?.tools[tool.name]?.scopes;
      if (scopes?.length) w.writeLine(`scopes: ${JSON.stringify(scopes)},`);
      if (ctx.contract["x-mcp-gen"]?.tools[tool.name]?.taskDeferred) w.writeLine("taskDeferred: true,");
      w.writeLine(`invoke: ${invocation(binding, alias, argsTypes.get(tool.name))},`);
    });
    w.writeLine("},");
  };

  if (classes.length === 0) {
    writeDoc(w, [
      `The ${others.length > 0 ? "tools, resources and prompts" : "tools"} of ${server} bound to their implementations, with their validators.`,
      `Serve it with \`serve(manifest)\` from @mcp-gen/runtime/server, or \`npx mcp-gen serve ${contract.server}\`.`,
    ]);
    w.write("export const manifest: ServerManifest = ");
    body();
    w.write(";").newLine();
  } else {
    writeDoc(w, [`Instances of the tool classes of ${server}, by export name.`]);
    w.writeLine("export interface Instances {");
    w.indent(() => {
      for (const [name, module] of classes)
        w.writeLine(`${propertyKey(name)}: ${aliases.get(module)}.${name};`);
    });
    w.writeLine("}").blankLine();
    writeDoc(w, [
      "The tool classes, by export name: `mcp-gen serve` builds each instance with the class's",
      "static `create()` (it may be async), or `new` when the constructor takes no arguments.",
    ]);
    w.writeLine("export const classes = {");
    w.indent(() => {
      for (const [name, module] of classes)
        w.writeLine(`${propertyKey(name)}: ${aliases.get(module)}.${name},`);
    });
    w.writeLine("} as const;").blankLine();
    writeDoc(w, [
      `Binds the tools of ${server} to their implementations; methods are called on \`instances\`.`,
      "",
      "@example",
      `serve(createManifest({ ${classes.map(([n]) => `${propertyKey(n)}: new ${n}(…)`).join(", ")} }));`,
    ]);
    w.writeLine("export function createManifest(instances: Instances): ServerManifest {");
    w.indent(() => {
      w.write("return ");
      body();
      w.write(";").newLine();
    });
    w.writeLine("}");
  }
  return [{ path: `${ctx.outDir}/server.ts`, content: finish(w.toString()) }];
}

/**
 * `(args, ctx) => module.fn(args.a, ctx!, args.b)`: arguments in declaration order, the context at
 * its index; parameters typed `Date` (`URL`) get their ISO (URI) strings back as `Date`s (`URL`s) first.
 */
function invocation(binding: ToolBinding, alias: string, argsType?: string): string {
  const usesContext = binding.contextIndex !== undefined;
  const dates = binding.dates ?? [];
  const urls = binding.urls ?? [];
  const list = (paths: string[]) => `[${paths.map((d) => JSON.stringify(d)).join(", ")}]`;
  const withDates = dates.length > 0 ? `reviveDates(args, ${list(dates)})` : "args";
  const source = urls.length > 0 ? `reviveUrls(${withDates}, ${list(urls)})` : withDates;
  const revived = dates.length > 0 || urls.length > 0;
  const object = revived ? "a" : "args";
  const values =
    binding.argsStyle === "object" ? [object] : binding.params.map((p) => `${object}${access(p)}`);
  if (usesContext) values.splice(Math.min(binding.contextIndex!, values.length), 0, "ctx!");
  const target =
    binding.kind === "method"
      ? `instances${access(binding.export)}${access(binding.method!)}`
      : `${alias}${access(binding.export)}`;
  const used = binding.argsStyle === "object" || binding.params.length > 0;
  const args = argsType ? `args: ${argsType}` : "args";
  const params = usesContext ? `(${used ? args : "_args"}, ctx)` : used ? `(${args})` : "()";
  if (revived) return `${params} => {\n  const a = ${source};\n  return ${target}(${values.join(", ")});\n}`;
  return `${params} => ${target}(${values.join(", ")})`;
}

/** A fixed list of values, or the completer function of its module. */
function completer(c: ContractCompletion, aliases: Map<string, string>): string {
  if ("values" in c) return jsLiteral(c.values);
  return `${aliases.get(c.binding.module)}${access(c.binding.export)}`;
}

/**
 * `(variables, ctx) => module.fn(variables.a, ctx!, variables.b)`: a resource, template or prompt
 * function called with its arguments in declaration order and the context at its index. Static
 * resources (`object` undefined) get only the context.
 */
function itemCall(binding: FunctionBinding, alias: string, object: string | undefined): string {
  const usesContext = binding.contextIndex !== undefined;
  const params = binding.params ?? [];
  const values = object ? params.map((p) => `${object}${access(p)}`) : [];
  if (usesContext) values.splice(Math.min(binding.contextIndex!, values.length), 0, "ctx!");
  const target = `${alias}${access(binding.export)}`;
  const head = object
    ? usesContext
      ? `(${params.length > 0 ? object : `_${object}`}, ctx)`
      : params.length > 0
        ? `(${object})`
        : "()"
    : usesContext
      ? "(ctx)"
      : "()";
  return `${head} => ${target}(${values.join(", ")})`;
}

/** `.name` or `["odd-name"]`. */
function access(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** One readable namespace alias per module: `examples/smart-home/tools.ts` → `smartHomeTools`. */
function moduleAliases(modules: string[]): Map<string, string> {
  const aliases = new Map<string, string>();
  const used = new Set(TAKEN);
  for (const module of [...new Set(modules)].sort()) {
    const parts = module.replace(/\.[cm]?tsx?$/, "").split("/");
    const base = camelCase(parts.slice(-2).join("-"));
    let alias = base;
    for (let n = 2; used.has(alias); n++) alias = `${base}${n}`;
    used.add(alias);
    aliases.set(module, alias);
  }
  return aliases;
}
