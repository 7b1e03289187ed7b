import { type AgentEvent, createAgent, ExtractError, submitTool } from "@mcp-gen/runtime/agent";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import type { DistillAgentSpec } from "../../../../examples/structured-output/spec.ts";
import * as distill from "../../../../generated/structured-output/index.ts";
import { type ScriptedModel, startScriptedModel } from "../../src/testing/index.ts";
import { modelFor, type Provider, smartHome } from "./support.ts";

let scripted: ScriptedModel | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

const SPEC: DistillAgentSpec = {
  name: "smart-home-helper",
  purpose: "Switches devices the user names by room and type.",
  workflow: [
    { action: "find the device", tools: ["search_devices"] },
    { action: "send the command", tools: ["execute_commands"] },
  ],
  confidence: 4,
};

const submit = submitTool(distill, "submit_distill_spec");

describe.each(["anthropic", "openai"] as Provider[])("extract() through %s (seed 003)", (provider) => {
  it("returns the validated, typed value of the submit call, after feedback on an invalid one", async () => {
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "search_devices", arguments: { query: "灯" } }] },
        { toolCalls: [{ name: "submit_distill_spec", arguments: { ...SPEC, confidence: 9 } }] },
        { toolCalls: [{ name: "submit_distill_spec", arguments: SPEC }] },
      ],
    });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [home.manifest],
      system: "You distill agents.",
    });
    const events: AgentEvent[] = [];
    const spec = await agent.extract("Distill the smart-home agent.", submit, {
      onEvent: (e) => events.push(e),
    });

    expectTypeOf(spec).toEqualTypeOf<distill.SubmitDistillSpecInput>();
    expectTypeOf(spec).toMatchTypeOf<DistillAgentSpec>();
    expect(spec).toStrictEqual(SPEC);
    expect(scripted.requests.length).toBe(3);
    expect(scripted.requests[0]!.tools).toStrictEqual([
      "execute_commands",
      "interpret_command",
      "search_devices",
      "submit_distill_spec",
    ]);
    expect(scripted.requests[0]!.system).toBe(
      'You distill agents.\n\nDeliver the result by calling the tool "submit_distill_spec" with it.',
    );
    expect(scripted.requests[2]!.toolResults[0]!.content).toContain(
      "- /confidence: expected a number <= 5, received number 9",
    );
    expect(events.at(-1)).toMatchObject({ type: "final", result: { stopReason: "submitted" } });
  });

  it("fails with the validation history when the model never sends a valid value", async () => {
    const bad = { toolCalls: [{ name: "submit_distill_spec", arguments: { name: "x", workflow: "none" } }] };
    scripted = await startScriptedModel({ script: [bad, bad, bad] });
    const agent = createAgent({ model: modelFor(provider, scripted), tools: [] });
    const error = await agent.extract("Distill.", submit).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExtractError);
    const failure = error as ExtractError;
    expect(failure.result.stopReason).toBe("retries_exhausted");
    expect(failure.attempts.length).toBe(3);
    expect(failure.attempts[0]!.args).toStrictEqual({ name: "x", workflow: "none" });
    expect(failure.attempts[0]!.issues.map((i) => i.pointer)).toStrictEqual([
      "/purpose",
      "/confidence",
      "/workflow",
    ]);
    expect(failure.message.split("\n")[0]).toBe(
      'extract failed: the model did not send a valid value for "submit_distill_spec" (3 invalid attempts; stop: retries_exhausted)',
    );
  });
});

describe("extract() nudges", () => {
  it("reminds a model that answers in text instead of submitting, then fails when it never does", async () => {
    scripted = await startScriptedModel({
      script: [{ text: "Here is the spec: …" }, { text: "done" }, { text: "really" }],
    });
    const agent = createAgent({ model: modelFor("anthropic", scripted), tools: [], maxRetries: 2 });
    await expect(agent.extract("Distill.", submit)).rejects.toThrow(
      'extract failed: the model ended without calling "submit_distill_spec" (stop: end_turn)',
    );
    expect(scripted.requests.slice(1).map((r) => r.lastUserText)).toStrictEqual([
      'Deliver the result by calling the tool "submit_distill_spec" with it. It is the only way to deliver it.',
      'Deliver the result by calling the tool "submit_distill_spec" with it. It is the only way to deliver it.',
    ]);
  });
});

describe("extract() from messages", () => {
  it("takes a conversation (a resource read into it) instead of a message", async () => {
    scripted = await startScriptedModel({
      script: [{ toolCalls: [{ name: "submit_distill_spec", arguments: SPEC }] }],
    });
    const home = smartHome();
    const agent = createAgent({ model: modelFor("anthropic", scripted), tools: [home.manifest] });
    const notes = {
      role: "user" as const,
      content: [
        {
          type: "resource" as const,
          uri: "notes://agent",
          mimeType: "text/plain",
          text: "It switches lights.",
        },
      ],
    };
    const spec = await agent.extract([notes, { role: "user", content: "Distill it." }], submit);
    expect(spec).toStrictEqual(SPEC);
    expect(scripted.requests[0]!.body.messages).toStrictEqual([
      {
        role: "user",
        content: [
          {
            type: "text",
            text: '<resource uri="notes://agent" mimeType="text/plain">\nIt switches lights.\n</resource>',
          },
          { type: "text", text: "Distill it." },
        ],
      },
    ]);
  });
});
