/**
 * The resources, resource templates, prompts and completions of the server scenarios of
 * `@modelcontextprotocol/conformance` (`resources-*`, `prompts-*`, `completion-complete`,
 * `input-required-result-non-tool-request`), written as plain functions with JSDoc tags: a
 * `@resource` is read by `resources/read`, a `@prompt` by `prompts/get`, and `@complete` fills in
 * `completion/complete`.
 */
import type { PromptMessage, ToolContext } from "@mcp-gen/runtime";
import { RED_PIXEL_PNG } from "./media.ts";

/**
 * A static text resource.
 * @resource test://static-text
 * @mimeType text/plain
 */
export function static_text(): string {
  return "This is the content of the static text resource.";
}

/**
 * A static binary resource: a 1×1 PNG.
 * @resource test://static-binary
 * @mimeType image/png
 */
export function static_binary(): Uint8Array {
  return Uint8Array.from(atob(RED_PIXEL_PNG), (c) => c.charCodeAt(0));
}

/**
 * A resource clients may subscribe to.
 * @resource test://watched-resource
 * @mimeType text/plain
 */
export function watched_resource(): string {
  return "The watched resource.";
}

/** What `test://template/{id}/data` holds for one id. */
export interface TemplateData {
  id: string;
  templateTest: boolean;
  data: string;
}

/**
 * Data for one id, from a resource template.
 * @resource test://template/{id}/data
 * @param id The id to look up
 */
export function template_data(id: string): TemplateData {
  return { id, templateTest: true, data: `Data for ID: ${id}` };
}

/**
 * A simple prompt without arguments.
 * @prompt
 */
export function test_simple_prompt(): string {
  return "This is a simple prompt for testing.";
}

/**
 * A prompt with two arguments.
 * @prompt
 * @param arg1 First test argument
 * @param arg2 Second test argument
 */
export function test_prompt_with_arguments(arg1: string, arg2: string): string {
  return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
}

/**
 * Completes the first argument of `test_prompt_with_arguments`.
 * @complete test_prompt_with_arguments arg1
 */
export function complete_arg1(value: string): string[] {
  return ["test", "testValue1", "other"].filter((v) => v.startsWith(value));
}

/**
 * A prompt that embeds a resource.
 * @prompt
 * @param resourceUri URI of the resource to embed
 */
export function test_prompt_with_embedded_resource(resourceUri: string): PromptMessage[] {
  return [
    {
      role: "user",
      content: {
        type: "resource",
        resource: {
          uri: resourceUri,
          mimeType: "text/plain",
          text: "Embedded resource content for testing.",
        },
      },
    },
    { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
  ];
}

/**
 * A prompt with an image.
 * @prompt
 */
export function test_prompt_with_image(): PromptMessage[] {
  return [
    { role: "user", content: { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" } },
    { role: "user", content: { type: "text", text: "Please analyze the image above." } },
  ];
}

/**
 * A prompt that asks the user for context first: a 2026-07-28 client gets `input_required` and
 * calls again with the answer, a 2025 client an elicitation request.
 * @prompt
 */
export async function test_input_required_result_prompt(ctx: ToolContext): Promise<string> {
  const reply = await ctx.elicit(
    {
      message: "What context should the prompt use?",
      requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
    },
    { key: "user_context" },
  );
  const context = reply.action === "accept" ? String(reply.content?.context ?? "") : `(${reply.action})`;
  return `Prompt with user context: ${context}`;
}
