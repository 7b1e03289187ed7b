import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedModel, startScriptedModel } from "../../src/testing/index.ts";

let scripted: ScriptedModel | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

describe("the scripted model endpoint", () => {
  it("rejects an Anthropic request with a tool_use left unanswered, as the API does", async () => {
    scripted = await startScriptedModel({ script: [{ text: "unused" }] });
    const client = new Anthropic({ apiKey: "test", baseURL: scripted.anthropicBaseURL, maxRetries: 0 });
    const request = client.messages.create({
      model: "m",
      max_tokens: 10,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "t", input: {} }] },
        { role: "user", content: "and?" },
      ],
    });
    await expect(request).rejects.toThrow(
      /tool_use ids were found without tool_result blocks immediately after: toolu_1/,
    );
    expect(scripted.remaining()).toBe(1);
  });

  it("rejects an OpenAI tool message that answers no call", async () => {
    scripted = await startScriptedModel({ script: [{ text: "unused" }] });
    const client = new OpenAI({ apiKey: "test", baseURL: scripted.openaiBaseURL, maxRetries: 0 });
    const request = client.chat.completions.create({
      model: "m",
      messages: [
        { role: "user", content: "hi" },
        { role: "tool", tool_call_id: "call_9", content: "x" },
      ],
    });
    await expect(request).rejects.toThrow(/must be a response to a preceeding message with 'tool_calls'/);
  });

  it("answers with a scripted HTTP error and says so when the script runs out", async () => {
    scripted = await startScriptedModel({ script: [{ error: { status: 429, message: "slow down" } }] });
    const client = new OpenAI({ apiKey: "test", baseURL: scripted.openaiBaseURL, maxRetries: 0 });
    const ask = () =>
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
    await expect(ask()).rejects.toThrow(/429 slow down/);
    await expect(ask()).rejects.toThrow(/scripted model: no reply left for request #1/);
  });

  it("streams text in pieces to the OpenAI SDK", async () => {
    scripted = await startScriptedModel({ script: [{ text: "已成功打开客厅吸顶灯" }], chunkSize: 3 });
    const client = new OpenAI({ apiKey: "test", baseURL: scripted.openaiBaseURL });
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    const pieces: string[] = [];
    for await (const chunk of stream)
      if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
    expect(pieces).toStrictEqual(["已成功", "打开客", "厅吸顶", "灯"]);
  });
});
