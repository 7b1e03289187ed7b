import { allowAll, createAgent } from "@mcp-gen/runtime/agent";
import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedModel, startScriptedModel } from "../../src/testing/index.ts";
import { collect, firstResult, modelFor, type Provider, smartHome } from "./support.ts";

let scripted: ScriptedModel | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

/** Seed 000: "打开客厅的灯" → search_devices → execute_commands on the device found → the answer. */
const SEED_000 = [
  { toolCalls: [{ name: "search_devices", arguments: { query: "客厅 灯", limit: 5 } }] },
  (request: { toolResults: { content: string }[] }) => {
    const device = firstResult(request).result[0];
    return {
      toolCalls: [
        {
          name: "execute_commands",
          arguments: {
            device_id: device.fullId,
            commands: [{ component: "main", capability: "switch", command: "on" }],
          },
        },
      ],
    };
  },
  (request: { toolResults: { content: string }[] }) => ({
    text: firstResult(request).status === "ACCEPTED" ? "已成功打开客厅吸顶灯" : "没能打开灯",
  }),
];

describe.each([
  { provider: "anthropic" as Provider, stream: false },
  { provider: "anthropic" as Provider, stream: true },
  { provider: "openai" as Provider, stream: false },
  { provider: "openai" as Provider, stream: true },
])("seed 000 end to end through the $provider SDK (stream: $stream)", ({ provider, stream }) => {
  it("finds the living-room light, switches it on and answers", async () => {
    scripted = await startScriptedModel({ script: SEED_000 });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [home.manifest],
      canUseTool: allowAll,
      stream,
    });
    const { events, result } = await collect(agent.run("打开客厅的灯"));

    expect(result.text).toBe("已成功打开客厅吸顶灯");
    expect(result.stopReason).toBe("end_turn");
    expect(result.steps).toBe(3);
    expect(result.usage).toStrictEqual({ inputTokens: 30, outputTokens: 15 });
    expect(home.calls).toStrictEqual([
      { tool: "search_devices", args: { query: "客厅 灯", limit: 5 } },
      {
        tool: "execute_commands",
        args: {
          device_id: "uuid-abc123",
          commands: [{ component: "main", capability: "switch", command: "on" }],
        },
      },
    ]);
    expect(home.registry.get("uuid-abc123")?.state.switch).toBe("on");
    expect(scripted.rejected).toStrictEqual([]);
    expect(scripted.requests.map((r) => r.tools)).toStrictEqual(
      Array(3).fill(["execute_commands", "interpret_command", "search_devices"]),
    );
    expect(scripted.requests.every((r) => r.stream === stream)).toBe(true);
    expect(scripted.requests[0]!.lastUserText).toBe("打开客厅的灯");
    expect(
      events
        .filter((e) => e.type !== "text-delta" && e.type !== "model-request")
        .map((e) => `${e.type}${"name" in e ? ` ${e.name}` : ""}`),
    ).toStrictEqual([
      "assistant",
      "tool-call search_devices",
      "tool-result search_devices",
      "assistant",
      "tool-call execute_commands",
      "permission-request execute_commands",
      "permission-decision execute_commands",
      "tool-result execute_commands",
      "assistant",
      "final",
    ]);
    const deltas = events.flatMap((e) => (e.type === "text-delta" ? [e.text] : []));
    expect(deltas.join("")).toBe(stream ? "已成功打开客厅吸顶灯" : "");
    if (stream) expect(deltas.length).toBeGreaterThan(1);
  });
});
