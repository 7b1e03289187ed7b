import type { AgentEvent, AgentResult, ModelProvider } from "@mcp-gen/runtime/agent";
import { anthropicModel } from "@mcp-gen/runtime/anthropic";
import { openaiModel } from "@mcp-gen/runtime/openai";
import { defineManifest, type ManifestTool, type ServerManifest } from "@mcp-gen/runtime/server";
import { DeviceRegistry } from "../../../../examples/smart-home/registry.ts";
import { useRegistry } from "../../../../examples/smart-home/tools.ts";
import { manifest as smartHomeManifest } from "../../../../generated/smart-home/server.ts";
import { createSchemaCompiler } from "../../src/agent/tools/compile-schema.ts";
import type { ScriptedModel } from "../../src/testing/index.ts";

export type Provider = "anthropic" | "openai";

/** A model adapter of the given provider pointed at the scripted endpoint. */
export function modelFor(
  provider: Provider,
  scripted: ScriptedModel,
  options: { strict?: boolean } = {},
): ModelProvider {
  return provider === "anthropic"
    ? anthropicModel({ model: "claude-sonnet-5-5", apiKey: "test", baseURL: scripted.anthropicBaseURL })
    : openaiModel({ model: "gpt-5.4", apiKey: "test", baseURL: scripted.openaiBaseURL, ...options });
}

/** Wraps every tool of a manifest so each call that reaches an implementation is recorded. */
export function recording(manifest: ServerManifest): {
  manifest: ServerManifest;
  calls: { tool: string; args: unknown }[];
} {
  const calls: { tool: string; args: unknown }[] = [];
  return {
    calls,
    manifest: defineManifest({
      ...manifest,
      tools: manifest.tools.map((t) => ({
        ...t,
        invoke: (args: unknown, ctx: Parameters<typeof t.invoke>[1]) => {
          calls.push({ tool: t.definition.name, args });
          return t.invoke(args, ctx);
        },
      })),
    }),
  };
}

/** The smart-home manifest on a fresh device registry, recording every executed call. */
export function smartHome() {
  const registry = new DeviceRegistry();
  useRegistry(registry);
  return { registry, ...recording(smartHomeManifest) };
}

/** Consumes a run: every event, and the result. */
export async function collect(run: AsyncGenerator<AgentEvent, AgentResult>) {
  const events: AgentEvent[] = [];
  for (;;) {
    const next = await run.next();
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}

/** The JSON of the first tool result of a scripted request. */
export function firstResult(request: { toolResults: { content: string }[] }): any {
  return JSON.parse(request.toolResults[0]!.content);
}

/** A hand-made manifest tool (schema compiled at test time) for loop tests. */
export function testTool(options: {
  name: string;
  description?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  annotations?: Record<string, unknown>;
  invoke: (args: any) => unknown;
}): ManifestTool {
  const inputSchema = {
    type: "object" as const,
    properties: options.properties ?? {},
    required: options.required ?? [],
    additionalProperties: false,
  };
  return {
    definition: {
      name: options.name,
      description: options.description ?? `The ${options.name} tool.`,
      inputSchema,
      ...(options.annotations ? { annotations: options.annotations } : {}),
    },
    input: createSchemaCompiler()(inputSchema, `arguments of tool "${options.name}"`).validator,
    resultWrapped: false,
    usesContext: false,
    invoke: options.invoke,
  };
}

/** A manifest of hand-made tools. */
export function testManifest(server: string, tools: ManifestTool[]): ServerManifest {
  return defineManifest({ server, tools });
}
