/**
 * The fixture tools `@modelcontextprotocol/conformance` calls in its server scenarios, as plain
 * functions: `npx mcp-gen serve conformance --http` is what CI tests with
 * `npx conformance server --url http://localhost:3000/mcp`.
 */
import {
  audio,
  content,
  image,
  resource,
  type ToolContext,
  ToolError,
  type ToolResult,
  text,
} from "@mcp-gen/runtime";
import { RED_PIXEL_PNG, silentWav } from "./media.ts";

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  });

/** Returns a simple text response. */
export function test_simple_text(): ToolResult {
  return text("This is a simple text response for testing.");
}

/** Returns an image: a 1×1 red PNG. */
export function test_image_content(): ToolResult {
  return image(RED_PIXEL_PNG, "image/png");
}

/** Returns audio: a short silent WAV. */
export function test_audio_content(): ToolResult {
  return audio(silentWav(), "audio/wav");
}

/** Returns an embedded text resource. */
export function test_embedded_resource(): ToolResult {
  return resource({
    uri: "test://embedded-resource",
    mimeType: "text/plain",
    text: "This is an embedded resource content.",
  });
}

/** Returns text, an image and an embedded resource together. */
export function test_multiple_content_types(): ToolResult {
  return content(
    "Multiple content types test:",
    image(RED_PIXEL_PNG, "image/png"),
    resource({
      uri: "test://mixed-content-resource",
      mimeType: "application/json",
      text: JSON.stringify({ test: "data", value: 123 }),
    }),
  );
}

/** Sends three info log messages while it runs. */
export async function test_tool_with_logging(ctx: ToolContext): Promise<ToolResult> {
  await ctx.log("info", "Tool execution started");
  await pause(50, ctx.signal);
  await ctx.log("info", "Tool processing data");
  await pause(50, ctx.signal);
  await ctx.log("info", "Tool execution completed");
  return text("Logging test completed");
}

/** Reports progress 0, 50 and 100 of 100 while it runs. */
export async function test_tool_with_progress(ctx: ToolContext): Promise<ToolResult> {
  await ctx.progress(0, 100);
  await pause(50, ctx.signal);
  await ctx.progress(50, 100);
  await pause(50, ctx.signal);
  await ctx.progress(100, 100);
  return text("Progress test completed");
}

/** Always fails, to test error reporting. */
export function test_error_handling(): never {
  throw new ToolError("This tool intentionally returns an error for testing");
}

/**
 * Asks the client's model to answer a prompt (sampling).
 * @param prompt The prompt to send to the LLM
 */
export async function test_sampling(prompt: string, ctx: ToolContext): Promise<string> {
  const answer = await ctx.sample({
    messages: [{ role: "user", content: { type: "text", text: prompt } }],
    maxTokens: 100,
  });
  return `LLM response: ${answer.content.type === "text" ? answer.content.text : `(${answer.content.type})`}`;
}

/**
 * Asks the user for a username and an email (elicitation).
 * @param message The message to show the user
 */
export async function test_elicitation(message: string, ctx: ToolContext): Promise<string> {
  const reply = await ctx.elicit({
    message,
    requestedSchema: {
      type: "object",
      properties: {
        username: { type: "string", description: "User's response" },
        email: { type: "string", description: "User's email address" },
      },
      required: ["username", "email"],
    },
  });
  return `User response: action=${reply.action}, content=${JSON.stringify(reply.content ?? {})}`;
}

/** Asks the user for values whose schema has a default of every primitive type (SEP-1034). */
export async function test_elicitation_sep1034_defaults(ctx: ToolContext): Promise<string> {
  const reply = await ctx.elicit({
    message: "Please review and update the form fields with defaults",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "User name", default: "John Doe" },
        age: { type: "integer", description: "User age", default: 30 },
        score: { type: "number", description: "User score", default: 95.5 },
        status: {
          type: "string",
          description: "User status",
          enum: ["active", "inactive", "pending"],
          default: "active",
        },
        verified: { type: "boolean", description: "Verification status", default: true },
      },
    },
  });
  return `Elicitation completed: action=${reply.action}, content=${JSON.stringify(reply.content ?? {})}`;
}

/** Asks the user to choose from every kind of enum (SEP-1330). */
export async function test_elicitation_sep1330_enums(ctx: ToolContext): Promise<string> {
  const reply = await ctx.elicit({
    message: "Please select options from the enum fields",
    requestedSchema: {
      type: "object",
      properties: {
        untitledSingle: {
          type: "string",
          description: "Untitled single-select",
          enum: ["option1", "option2", "option3"],
        },
        titledSingle: {
          type: "string",
          description: "Titled single-select",
          oneOf: [
            { const: "value1", title: "First Option" },
            { const: "value2", title: "Second Option" },
            { const: "value3", title: "Third Option" },
          ],
        },
        legacyEnum: {
          type: "string",
          description: "Legacy titled enum",
          enum: ["opt1", "opt2", "opt3"],
          enumNames: ["Option One", "Option Two", "Option Three"],
        },
        untitledMulti: {
          type: "array",
          description: "Untitled multi-select",
          items: { type: "string", enum: ["option1", "option2", "option3"] },
        },
        titledMulti: {
          type: "array",
          description: "Titled multi-select",
          items: {
            anyOf: [
              { const: "value1", title: "First Choice" },
              { const: "value2", title: "Second Choice" },
              { const: "value3", title: "Third Choice" },
            ],
          },
        },
      },
    },
  });
  return `Elicitation completed: action=${reply.action}, content=${JSON.stringify(reply.content ?? {})}`;
}
