import { allowAll, createAgent } from "@mcp-gen/runtime/agent";
import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedModel, startScriptedModel } from "../../src/testing/index.ts";
import { collect, modelFor, type Provider, smartHome } from "./support.ts";

let scripted: ScriptedModel | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

describe.each(["anthropic", "openai"] as Provider[])("invalid arguments through %s", (provider) => {
  it("are never executed: the model gets the feedback and corrects itself", async () => {
    scripted = await startScriptedModel({
      script: [
        // wrong type, missing required, unknown extra — three slips in one call
        { toolCalls: [{ name: "search_devices", arguments: { limit: "5", room: "客厅" } }] },
        { toolCalls: [{ name: "search_devices", arguments: { query: "客厅 灯", limit: 5 } }] },
        { text: "找到了客厅吸顶灯" },
      ],
    });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [home.manifest],
      canUseTool: allowAll,
    });
    const { events, result } = await collect(agent.run("客厅有什么灯?"));

    expect(result.text).toBe("找到了客厅吸顶灯");
    expect(home.calls).toStrictEqual([{ tool: "search_devices", args: { query: "客厅 灯", limit: 5 } }]);
    const feedback = scripted.requests[1]!.toolResults;
    expect(feedback).toStrictEqual([
      {
        id: expect.any(String),
        isError: true,
        content: `${provider === "openai" ? "Error: " : ""}Invalid arguments of tool "search_devices": 3 problems
- /query: expected this required property, received nothing
- /room: expected no property "room" (unknown properties are not allowed: remove it), received string "客厅"
- /limit: expected an integer, received string "5"
The tool was not run. Correct the call and send it again (2 retries left).`,
      },
    ]);
    const invalid = events.filter((e) => e.type === "validation-error");
    expect(
      invalid.map(
        (e) => e.type === "validation-error" && [e.name, e.attempt, e.retriesLeft, e.issues.length],
      ),
    ).toStrictEqual([["search_devices", 1, 2, 3]]);
    expect(scripted.rejected).toStrictEqual([]);
  });

  it("stops the run once a tool's retry budget is spent, without executing", async () => {
    scripted = await startScriptedModel({
      script: [1, 2, 3].map(() => ({ toolCalls: [{ name: "search_devices", arguments: { query: 42 } }] })),
    });
    const home = smartHome();
    const agent = createAgent({ model: modelFor(provider, scripted), tools: [home.manifest], maxRetries: 2 });
    const { events, result } = await collect(agent.run("灯"));

    expect(result.stopReason).toBe("retries_exhausted");
    expect(result.steps).toBe(3);
    expect(home.calls).toStrictEqual([]);
    expect(events.flatMap((e) => (e.type === "validation-error" ? [e.retriesLeft] : []))).toStrictEqual([
      2, 1, 0,
    ]);
    const last = result.messages.at(-1);
    expect(last?.role === "tool" && last.results[0]!.content.split("\n").at(-1)).toBe(
      "The tool was not run, and this call will not be retried in this run.",
    );
  });
});

describe("argument slips", () => {
  it("tolerates a code fence and trailing commas in OpenAI arguments text", async () => {
    scripted = await startScriptedModel({
      script: [
        {
          toolCalls: [
            { name: "search_devices", arguments: '```json\n{"query": "客厅 灯", "limit": 2,}\n```' },
          ],
        },
        { text: "ok" },
      ],
    });
    const home = smartHome();
    const agent = createAgent({ model: modelFor("openai", scripted), tools: [home.manifest] });
    const { events } = await collect(agent.run("灯"));
    expect(home.calls).toStrictEqual([{ tool: "search_devices", args: { query: "客厅 灯", limit: 2 } }]);
    const call = events.find((e) => e.type === "tool-call");
    expect(call?.type === "tool-call" && call.repairs).toStrictEqual(["code fence", "trailing comma"]);
  });

  it("tolerates a trailing comma in tool input streamed by the Messages API", async () => {
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "search_devices", arguments: '{"query": "客厅 灯", "limit": 1,}' }] },
        { text: "ok" },
      ],
    });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [home.manifest],
      stream: true,
    });
    await collect(agent.run("灯"));
    expect(home.calls).toStrictEqual([{ tool: "search_devices", args: { query: "客厅 灯", limit: 1 } }]);
    // The conversation sent back carries the repaired input as an object, as the API requires.
    expect(scripted.rejected).toStrictEqual([]);
    expect(scripted.requests[1]!.body.messages[1].content[0].input).toStrictEqual({
      query: "客厅 灯",
      limit: 1,
    });
  });

  it("answers text that is not JSON with feedback, and runs nothing", async () => {
    scripted = await startScriptedModel({
      script: [{ toolCalls: [{ name: "search_devices", arguments: "query=客厅" }] }, { text: "sorry" }],
    });
    const home = smartHome();
    const agent = createAgent({ model: modelFor("openai", scripted), tools: [home.manifest] });
    await collect(agent.run("灯"));
    expect(home.calls).toStrictEqual([]);
    expect(scripted.requests[1]!.toolResults[0]!.content).toMatch(
      /^Error: The arguments are not valid JSON \(.*\)\. Send the arguments as one JSON object\.\nThe tool was not run\./,
    );
  });

  it("maps OpenAI strict nulls back to absent, so the tool's default applies", async () => {
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "search_devices", arguments: { query: "客厅 灯", limit: null } }] },
        { text: "ok" },
      ],
    });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor("openai", scripted, { strict: true }),
      tools: [home.manifest],
    });
    await collect(agent.run("灯"));
    expect(home.calls).toStrictEqual([{ tool: "search_devices", args: { query: "客厅 灯" } }]);
    expect(
      JSON.parse(scripted.requests[1]!.toolResults[0]!.content).result.map((d: { id: string }) => d.id),
    ).toStrictEqual(["abc123"]);
    const offered = scripted.requests[0]!.body.tools.find((t: any) => t.function.name === "search_devices");
    expect(offered.function.strict).toBe(true);
  });
});
