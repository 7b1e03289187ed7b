import { conversionOf } from "@mcp-gen/schema";
import type { EmitContext } from "./context.ts";
import { codeHeader, createWriter, finish, type OutputFile, writeDoc } from "./writer.ts";

/**
 * Emits `normalize.ts`: `normalizeArguments(dialect, toolName, args)`, which maps the arguments a
 * model produced under a provider dialect back to the canonical input of the contract (OpenAI
 * strict `null` for an omitted optional → absent, Gemini JSON text → the value), before validation.
 * The per-tool plans are data; `applyArgumentPlan` in the runtime applies them.
 */
export function emitNormalize(ctx: EmitContext): OutputFile {
  const conversion = conversionOf(ctx);
  const plans = Object.fromEntries(
    conversion.dialects
      .filter((d) => conversion.plans[d] && Object.keys(conversion.plans[d]!).length > 0)
      .map((d) => [d, conversion.plans[d]]),
  );
  const w = createWriter();
  w.write(codeHeader()).blankLine();
  w.writeLine(
    'import { type ArgumentPlan, applyArgumentPlan, type Dialect } from "@mcp-gen/runtime/providers";',
  );
  w.blankLine();
  writeDoc(w, [
    "How each dialect's arguments differ from the canonical input, by dialect and tool (absent: identical).",
  ]);
  w.writeLine(
    `const plans: Partial<Record<Dialect, Record<string, ArgumentPlan>>> = ${JSON.stringify(plans, null, 2)};`,
  );
  w.blankLine();
  writeDoc(w, [
    [
      `Maps the arguments a model produced for a "${ctx.contract.server}" tool under a provider dialect back`,
      'to the canonical input: OpenAI strict `null` for an optional property becomes "absent" (so the',
      "tool's default applies), values Gemini received as JSON text are parsed. Arguments given as JSON",
      "text (OpenAI's `function.arguments`) are parsed first. The input is not modified. Validate the",
      "result with `validators[toolName].input` before calling the tool; an unknown tool or dialect",
      "returns the arguments as they are.",
      "",
      "@example",
      'const args = normalizeArguments("openai-strict", call.function.name, call.function.arguments);',
    ].join("\n"),
  ]);
  w.write(
    "export function normalizeArguments(dialect: Dialect, toolName: string, args: unknown): unknown ",
  ).block(() => {
    w.writeLine('const value = typeof args === "string" ? parseJson(args) : args;');
    w.writeLine("const plan = plans[dialect]?.[toolName];");
    w.writeLine("return plan ? applyArgumentPlan(plan, value) : value;");
  });
  w.blankLine();
  for (const line of [
    "function parseJson(text: string): unknown {",
    "  try {",
    "    return JSON.parse(text);",
    "  } catch {",
    "    return text;",
    "  }",
    "}",
  ])
    w.writeLine(line);
  return { path: `${ctx.outDir}/normalize.ts`, content: finish(w.toString()) };
}
