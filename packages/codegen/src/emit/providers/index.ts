import { type Diagnostic, diagnostic, McpGenError } from "../../diagnostics.ts";
import { checkDialectFile, DIALECT_FILES } from "../../lint/rules/index.ts";
import type { EmitContext } from "../context.ts";
import { codeHeader, finish, type OutputFile } from "../writer.ts";
import { convertContract, type ProviderConversion } from "./convert.ts";
import { type Dialect, TARGETS } from "./model.ts";

const DEFINITION_TYPE: Record<Dialect, string> = {
  anthropic: "AnthropicToolDefinition[]",
  openai: "OpenAiToolDefinition[]",
  "openai-strict": "OpenAiToolDefinition[]",
  gemini: "GeminiToolDefinition",
  "gemini-json-schema": "GeminiToolDefinition",
};

const json = (value: unknown) => finish(JSON.stringify(value, null, 2));

/** The content of a dialect's file: a `tools` array, or one Gemini `Tool`. */
export function dialectFileContent(conversion: ProviderConversion, dialect: Dialect): unknown {
  const list = conversion.definitions[dialect] ?? [];
  return dialect === "gemini" || dialect === "gemini-json-schema" ? { functionDeclarations: list } : list;
}

/**
 * Emits `providers/<dialect>.json` for every dialect of the configured targets, `providers/report.json`
 * (constraints moved into descriptions, tools OpenAI strict mode could not take) and `providers/index.ts`.
 * A tool a target cannot express stops the build; every emitted file is checked against its
 * provider's rules before it is written.
 */
export function emitProviders(
  ctx: EmitContext,
  conversion = convertContract(ctx.contract, ctx.targets ?? TARGETS),
): OutputFile[] {
  if (conversion.problems.length > 0) {
    throw new McpGenError(
      conversion.problems.map((p) =>
        diagnostic("MCPG060", `[${p.rule}] tool "${p.tool}" cannot be sent to ${p.dialect}: ${p.message}`, {
          file: ctx.contractFile,
          pointer: p.pointer,
        }),
      ),
    );
  }
  if (conversion.dialects.length === 0) return [];
  const dir = `${ctx.outDir}/providers`;
  const files: OutputFile[] = [];
  const broken: Diagnostic[] = [];
  for (const dialect of conversion.dialects) {
    const content = dialectFileContent(conversion, dialect);
    const path = `${dir}/${DIALECT_FILES[dialect]}`;
    for (const v of checkDialectFile(dialect, content)) {
      broken.push(
        diagnostic(
          "MCPG060",
          `[${v.rule}] emitted definition breaks a ${dialect} rule: ${v.message} (a bug in mcp-gen)`,
          {
            file: path,
            pointer: v.pointer,
            fix: "report it with the contract; meanwhile leave the target out of `targets`",
          },
        ),
      );
    }
    files.push({ path, content: json(content) });
  }
  if (broken.length > 0) throw new McpGenError(broken);
  files.push({
    path: `${dir}/report.json`,
    content: json({ moved: conversion.moved, strictFallbacks: conversion.fallbacks }),
  });
  files.push({ path: `${dir}/index.ts`, content: indexModule(ctx, conversion.dialects) });
  return files;
}

function indexModule(ctx: EmitContext, dialects: readonly Dialect[]): string {
  const local = (d: Dialect) => d.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const types = [...new Set(dialects.map((d) => DEFINITION_TYPE[d].replace("[]", "")))].sort();
  const lines = [
    codeHeader(),
    `import type { ${types.join(", ")} } from "@mcp-gen/runtime";`,
    ...dialects.map((d) => `import ${local(d)} from "./${DIALECT_FILES[d]}" with { type: "json" };`),
    "",
    `/**`,
    ` * Tool definitions of the "${ctx.contract.server}" server for each provider dialect, ready to send as`,
    " * the request's `tools` (Gemini: one entry of `tools`). Map the model's arguments back with",
    ` * \`normalizeArguments\` from "../normalize.ts" before validating them.`,
    " *",
    " * @example",
    ` * import { providerTools } from "./providers/index.ts";`,
    ` * await anthropic.messages.create({ model, max_tokens: 1024, messages, tools: providerTools.anthropic });`,
    " */",
    "export const providerTools = {",
    ...dialects.map((d) => `  ${JSON.stringify(d)}: ${local(d)} as ${DEFINITION_TYPE[d]},`),
    "};",
  ];
  return finish(lines.join("\n"));
}
