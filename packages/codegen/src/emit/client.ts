import type { ContractTool } from "@mcp-gen/schema";
import { diagnostic, McpGenError, scanMcpHeaders } from "@mcp-gen/schema";
import type { EmitContext } from "./context.ts";
import { exampleValue, toolExample } from "./example.ts";
import { importSpecifier } from "./imports.ts";
import { camelCase, jsLiteral, pascalCase, propertyKey } from "./names.ts";
import { type EmitItem, type EmitItems, emitItems } from "./resources.ts";
import { isWrapped, toolTypeNames } from "./types.ts";
import { codeHeader, createWriter, finish, type OutputFile, writeDoc } from "./writer.ts";

/**
 * Method name of every tool on the typed client (`search_devices` → `searchDevices`,
 * `read.file` → `readFile`). Two tools mapping to one name are an error naming both.
 */
export function toolMethodNames(ctx: EmitContext): Map<string, string> {
  const names = new Map<string, string>();
  const owners = new Map<string, string>();
  ctx.contract.tools.forEach((tool, i) => {
    const method = camelCase(tool.name);
    const other = owners.get(method);
    if (other !== undefined) {
      throw new McpGenError(
        diagnostic(
          "MCPG032",
          `tools "${other}" and "${tool.name}" both map to the client method ${method}()`,
          {
            file: ctx.contractFile,
            pointer: `/tools/${i}/name`,
          },
        ),
      );
    }
    owners.set(method, tool.name);
    names.set(tool.name, method);
  });
  return names;
}

/** `smart-home` → `createSmartHomeClient` / `SmartHomeClient`. */
export function clientNames(server: string): { factory: string; type: string; variable: string } {
  const base = pascalCase(server);
  return { factory: `create${base}Client`, type: `${base}Client`, variable: camelCase(server) };
}

/** Whether a tool can be called without arguments (its input schema requires nothing). */
export function argsOptional(tool: ContractTool): boolean {
  const required = tool.inputSchema.required;
  const combinators = ["anyOf", "oneOf", "allOf", "$ref"].some((k) => k in tool.inputSchema);
  return !combinators && (!Array.isArray(required) || required.length === 0);
}

const ANNOTATION_WORDS: Record<string, string> = {
  readOnlyHint: "read-only",
  destructiveHint: "destructive",
  idempotentHint: "idempotent",
  openWorldHint: "open-world",
};

/** The annotation hints that are set, in words (`["read-only", "idempotent"]`). */
export function annotationWords(tool: ContractTool): string[] {
  const a = tool.annotations ?? {};
  return Object.entries(ANNOTATION_WORDS)
    .filter(([key]) => (a as Record<string, unknown>)[key] !== undefined)
    .map(([key, word]) => ((a as Record<string, unknown>)[key] ? word : `not ${word}`));
}

/**
 * Emits `client.ts`: `create<Server>Client(client)` over an MCP SDK `Client`, one camelCase
 * method per tool with typed arguments and a typed `ToolCallResult` (tool errors are `{ ok: false }`).
 */
export function emitClient(ctx: EmitContext): OutputFile {
  const methods = toolMethodNames(ctx);
  const types = toolTypeNames(ctx);
  const names = clientNames(ctx.contract.server);
  const tools = ctx.contract.tools;
  const items = emitItems(ctx);
  const hasResources = items.resources.length + items.templates.length > 0;
  const hasPrompts = items.prompts.length > 0;
  for (const [key, present] of [
    ["resources", hasResources],
    ["prompts", hasPrompts],
  ] as const) {
    const i = tools.findIndex((t) => methods.get(t.name) === key);
    if (present && i >= 0) {
      throw new McpGenError(
        diagnostic(
          "MCPG032",
          `tool "${tools[i]!.name}" maps to the client method ${key}(), which holds the server's ${key}`,
          {
            file: ctx.contractFile,
            pointer: `/tools/${i}/name`,
          },
        ),
      );
    }
  }
  const w = createWriter();
  w.write(codeHeader()).blankLine();
  const runtimeTypes = [
    "CallOptions",
    "ToolCallingClient",
    "ToolContent",
    "ToolCallResult",
    "ToolSpec",
    "TypedClientOptions",
  ];
  const runtimeValues = ["createToolCaller"];
  const hasTasks = tools.some(isTaskTool);
  if (hasTasks) {
    runtimeTypes.push("TaskCallingClient", "TaskCallOptions", "ToolTask");
    runtimeValues.push("createTaskStarter");
  }
  if (hasResources) {
    runtimeTypes.push("ResourceReadingClient", "ResourceSpec", "RequestCallOptions");
    if (items.resources.some((i) => !i.resultKind) || items.templates.some((i) => !i.resultKind))
      runtimeTypes.push("ResourceContentsList");
    runtimeValues.push("createResourceReader");
  }
  if (hasPrompts) {
    runtimeTypes.push("PromptGettingClient", "PromptMessages", "PromptSpec");
    if (!hasResources) runtimeTypes.push("RequestCallOptions");
    runtimeValues.push("createPromptGetter");
  }
  w.writeLine(`import type { ${runtimeTypes.join(", ")} } from "@mcp-gen/runtime/client";`);
  w.writeLine(`import { ${runtimeValues.join(", ")} } from "@mcp-gen/runtime/client";`);
  const indexNames = [
    ...(tools.length > 0 ? ["validators"] : []),
    ...(items.templates.length > 0 ? ["resourceTemplateValidators"] : []),
    ...(hasPrompts ? ["promptValidators"] : []),
  ];
  if (indexNames.length > 0)
    w.writeLine(`import { ${indexNames.join(", ")} } from "${importSpecifier(ctx, "./index.ts")}";`);
  const typed =
    tools.length > 0 || items.templates.length > 0 || hasPrompts || items.resources.some((i) => i.valueType);
  if (typed) w.writeLine(`import type * as T from "${importSpecifier(ctx, "./types.ts")}";`);
  w.blankLine();

  w.writeLine("/** What the client knows about each tool: its MCP name and validators. */");
  w.writeLine("const specs = {");
  w.indent(() => {
    for (const tool of tools) {
      const key = propertyKey(tool.name);
      const parts = [`name: ${JSON.stringify(tool.name)}`, `input: validators${access(tool.name)}.input`];
      if (tool.outputSchema) parts.push(`output: validators${access(tool.name)}.output`);
      if (isWrapped(ctx, tool)) parts.push("resultWrapped: true");
      const headers = headerSchema(tool.inputSchema);
      if (headers) parts.push(`headers: ${JSON.stringify(headers)}`);
      w.writeLine(`${key}: { ${parts.join(", ")} },`);
    }
  });
  w.writeLine("} satisfies Record<string, ToolSpec>;").blankLine();
  writeSpecs(w, items);

  writeDoc(w, [`Typed client of the "${ctx.contract.server}" tools: one method per tool.`]);
  w.write(`export interface ${names.type} `).block(() => {
    tools.forEach((tool, i) => {
      if (i > 0) w.blankLine();
      const n = types.get(tool.name)!;
      const result = n.result ? `T.${n.result}` : "ToolContent";
      writeDoc(w, methodDoc(tool, methods.get(tool.name)!, names.variable));
      const optional = argsOptional(tool) ? "?" : "";
      const method = methods.get(tool.name)!;
      if (!isTaskTool(tool)) {
        w.writeLine(
          `${method}(args${optional}: T.${n.input}, options?: CallOptions): Promise<ToolCallResult<${result}>>;`,
        );
        return;
      }
      w.write(`${method}: `).inlineBlock(() => {
        w.writeLine(
          `(args${optional}: T.${n.input}, options?: CallOptions): Promise<ToolCallResult<${result}>>;`,
        );
        writeDoc(w, taskDoc(tool, method, names.variable));
        w.writeLine(
          `task(args${optional}: T.${n.input}, options?: TaskCallOptions): Promise<ToolTask<${result}>>;`,
        );
      });
      w.write(";").newLine();
    });
    writeMemberTypes(w, items, names.variable);
  });
  w.blankLine();

  writeDoc(w, [
    [
      `Wraps an MCP SDK \`Client\` connected to a "${ctx.contract.server}" server. Arguments are validated`,
      "before sending and structured results against the output schema (both can be turned off in",
      "`options`); a tool error (`isError`) resolves to `{ ok: false, message }` instead of throwing.",
      "",
      "@example",
      `const { client } = await connectStdio({ command: "node", args: ["server.js"] });`,
      `const ${names.variable} = ${names.factory}(client);`,
    ].join("\n"),
  ]);
  const clientType = [
    "ToolCallingClient",
    ...(hasTasks ? ["TaskCallingClient"] : []),
    ...(hasResources ? ["ResourceReadingClient"] : []),
    ...(hasPrompts ? ["PromptGettingClient"] : []),
  ].join(" & ");
  w.write(
    `export function ${names.factory}(client: ${clientType}, options: TypedClientOptions = {}): ${names.type} `,
  ).block(() => {
    w.writeLine("const call = createToolCaller(client, options);");
    if (hasTasks) w.writeLine("const startTask = createTaskStarter(client, options);");
    if (hasResources) w.writeLine("const read = createResourceReader(client, options);");
    if (hasPrompts) w.writeLine("const get = createPromptGetter(client, options);");
    w.write("return ").inlineBlock(() => {
      for (const tool of tools) {
        const spec = `specs${access(tool.name)}`;
        w.writeLine(
          isTaskTool(tool)
            ? // Object.assign gives the functions no contextual types: the parameters say theirs.
              `${methods.get(tool.name)}: Object.assign((args: unknown, callOptions?: CallOptions) => call(${spec}, args, callOptions), { task: (args: unknown, taskOptions?: TaskCallOptions) => startTask(${spec}, args, taskOptions) }),`
            : `${methods.get(tool.name)}: (args, callOptions) => call(${spec}, args, callOptions),`,
        );
      }
      writeMembers(w, items);
    });
    w.write(";");
  });
  return { path: `${ctx.outDir}/client.ts`, content: finish(w.toString()) };
}

/** `resourceSpecs` and `promptSpecs`: what the client knows about each resource, template and prompt. */
function writeSpecs(w: ReturnType<typeof createWriter>, items: EmitItems): void {
  const resources = [...items.resources, ...items.templates];
  if (resources.length > 0) {
    w.writeLine("/** What the client knows about each resource and resource template. */");
    w.writeLine("const resourceSpecs = {");
    w.indent(() => {
      for (const item of resources) {
        const parts = [`name: ${JSON.stringify(item.name)}`];
        if ("uri" in item.entry) parts.push(`uri: ${JSON.stringify(item.entry.uri)}`);
        if ("uriTemplate" in item.entry) {
          parts.push(`uriTemplate: ${JSON.stringify(item.entry.uriTemplate)}`);
          parts.push(`variables: resourceTemplateValidators${access(item.name)}`);
        }
        if (item.resultKind) parts.push(`result: ${JSON.stringify(item.resultKind)}`);
        w.writeLine(`${item.method}: { ${parts.join(", ")} },`);
      }
    });
    w.writeLine("} satisfies Record<string, ResourceSpec>;").blankLine();
  }
  if (items.prompts.length > 0) {
    w.writeLine("/** What the client knows about each prompt. */");
    w.writeLine("const promptSpecs = {");
    w.indent(() => {
      for (const item of items.prompts)
        w.writeLine(
          `${item.method}: { name: ${JSON.stringify(item.name)}, input: promptValidators${access(item.name)} },`,
        );
    });
    w.writeLine("} satisfies Record<string, PromptSpec>;").blankLine();
  }
}

/** The value a resource read resolves to. */
function valueType(item: EmitItem): string {
  switch (item.resultKind) {
    case "text":
      return "string";
    case "blob":
      return "Uint8Array";
    case "json":
      return `T.${item.valueType}`;
    default:
      return "ResourceContentsList";
  }
}

/** Example arguments of a template or prompt, as a literal (nothing for a static resource). */
function exampleArgs(item: EmitItem): string {
  if (!item.argumentsSchema) return "";
  const example = exampleValue(item.argumentsSchema, item.argumentsSchema);
  return optionalArgs(item) && isEmpty(example) ? "" : jsLiteral(example);
}

/** Whether a template's variables or a prompt's arguments may be left out (none is required). */
function optionalArgs(item: EmitItem): boolean {
  const required = item.argumentsSchema?.required;
  return !Array.isArray(required) || required.length === 0;
}

/** `resources: { … }` and `prompts: { … }` of the client interface. */
function writeMemberTypes(w: ReturnType<typeof createWriter>, items: EmitItems, variable: string): void {
  const resources = [...items.resources, ...items.templates];
  if (resources.length > 0) {
    w.blankLine();
    writeDoc(w, ["The server's resources and resource templates: each read returns the typed value."]);
    w.write("resources: ").inlineBlock(() => {
      resources.forEach((item, i) => {
        if (i > 0) w.blankLine();
        const what =
          "uri" in item.entry
            ? `resource \`${item.entry.uri}\``
            : `resource template \`${"uriTemplate" in item.entry ? item.entry.uriTemplate : ""}\``;
        const args =
          item.kind === "template" ? `variables${optionalArgs(item) ? "?" : ""}: T.${item.argsType}, ` : "";
        writeDoc(w, [
          [
            item.entry.title,
            item.entry.description ?? `Reads the ${what}.`,
            `MCP ${what}.`,
            `@example\nconst value = await ${variable}.resources.${item.method}(${exampleArgs(item)});`,
          ]
            .filter(Boolean)
            .join("\n\n"),
        ]);
        w.writeLine(`${item.method}(${args}options?: RequestCallOptions): Promise<${valueType(item)}>;`);
      });
    });
    w.write(";").newLine();
  }
  if (items.prompts.length > 0) {
    w.blankLine();
    writeDoc(w, ["The server's prompts: each get returns the prompt's messages."]);
    w.write("prompts: ").inlineBlock(() => {
      items.prompts.forEach((item, i) => {
        if (i > 0) w.blankLine();
        writeDoc(w, [
          [
            item.entry.title,
            item.entry.description ?? `Gets the prompt "${item.name}".`,
            `MCP prompt \`${item.name}\`.`,
            `@example\nconst messages = await ${variable}.prompts.${item.method}(${exampleArgs(item)});`,
          ]
            .filter(Boolean)
            .join("\n\n"),
        ]);
        w.writeLine(
          `${item.method}(args${optionalArgs(item) ? "?" : ""}: T.${item.argsType}, options?: RequestCallOptions): Promise<PromptMessages>;`,
        );
      });
    });
    w.write(";").newLine();
  }
}

/** `resources: { … }` and `prompts: { … }` of the client object. */
function writeMembers(w: ReturnType<typeof createWriter>, items: EmitItems): void {
  const resources = [...items.resources, ...items.templates];
  if (resources.length > 0) {
    w.write("resources: ").inlineBlock(() => {
      for (const item of resources) {
        w.writeLine(
          item.kind === "template"
            ? `${item.method}: (variables, requestOptions) => read(resourceSpecs.${item.method}, variables, requestOptions),`
            : `${item.method}: (requestOptions) => read(resourceSpecs.${item.method}, undefined, requestOptions),`,
        );
      }
    });
    w.write(",").newLine();
  }
  if (items.prompts.length > 0) {
    w.write("prompts: ").inlineBlock(() => {
      for (const item of items.prompts)
        w.writeLine(
          `${item.method}: (args, requestOptions) => get(promptSpecs.${item.method}, args, requestOptions),`,
        );
    });
    w.write(",").newLine();
  }
}

function access(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** A tool that may run as an MCP task (`execution.taskSupport` optional or required): it gets `.task()`. */
function isTaskTool(tool: ContractTool): boolean {
  const support = tool.execution?.taskSupport;
  return support === "optional" || support === "required";
}

function taskDoc(tool: ContractTool, method: string, variable: string): string[] {
  const only = tool.execution?.taskSupport === "required" ? " (this tool runs only as a task)" : "";
  const example = toolExample(tool.inputSchema);
  const args = argsOptional(tool) && isEmpty(example) ? "" : jsLiteral(example);
  return [
    [
      `Runs \`${tool.name}\` as an MCP task${only}: resolves once the server created the task, with a handle to its status, result and cancellation.`,
      [
        "@example",
        `const task = await ${variable}.${method}.task(${args});`,
        "const r = await task.result();",
      ].join("\n"),
    ].join("\n\n"),
  ];
}

function methodDoc(tool: ContractTool, method: string, variable: string): string[] {
  const paragraphs: string[] = [];
  const title = tool.title ?? tool.annotations?.title;
  if (title) paragraphs.push(title);
  paragraphs.push(tool.description ?? `Calls the tool "${tool.name}".`);
  const words = annotationWords(tool);
  paragraphs.push(`MCP tool \`${tool.name}\`${words.length > 0 ? ` (${words.join(", ")})` : ""}.`);
  const example = toolExample(tool.inputSchema);
  const args = argsOptional(tool) && isEmpty(example) ? "" : jsLiteral(example);
  paragraphs.push(
    ["@example", `const r = await ${variable}.${method}(${args});`, "if (r.ok) console.log(r.value);"].join(
      "\n",
    ),
  );
  return [paragraphs.join("\n\n")];
}

const isEmpty = (v: unknown) => v !== null && typeof v === "object" && Object.keys(v).length === 0;

/**
 * The part of an input schema that declares `x-mcp-header`s (the paths to them, the types and
 * names): what the SDK client needs to mirror those arguments into `Mcp-Param-*` headers.
 */
function headerSchema(inputSchema: unknown): Record<string, unknown> | undefined {
  const { headers } = scanMcpHeaders(inputSchema);
  if (headers.length === 0) return undefined;
  const root: Record<string, unknown> = { type: "object", properties: {} };
  for (const header of headers) {
    let node = root;
    header.path.forEach((key, i) => {
      const properties = node.properties as Record<string, Record<string, unknown>>;
      if (i === header.path.length - 1) {
        properties[key] = { type: header.type, "x-mcp-header": header.name };
      } else {
        properties[key] ??= { type: "object", properties: {} };
        node = properties[key]!;
      }
    });
  }
  return root;
}
