import { type CanUseTool, createAgent } from "@mcp-gen/runtime/agent";
import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedModel, startScriptedModel } from "../../src/testing/index.ts";
import { collect, modelFor, type Provider, smartHome, testManifest, testTool } from "./support.ts";

let scripted: ScriptedModel | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

/** Two tools that each wait until both have started: they only finish when run concurrently. */
function barrierTools() {
  let started = 0;
  let release!: () => void;
  const both = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrive = async (label: string) => {
    if (++started === 2) release();
    await both;
    return { label };
  };
  return testManifest("barrier", [
    testTool({ name: "left", invoke: () => arrive("left") }),
    testTool({ name: "right", invoke: () => arrive("right") }),
  ]);
}

describe.each(["anthropic", "openai"] as Provider[])("the loop through %s", (provider) => {
  it("runs the tool calls of one turn concurrently and answers each in call order", async () => {
    scripted = await startScriptedModel({
      script: [
        {
          toolCalls: [
            { name: "left", arguments: {} },
            { name: "right", arguments: {} },
          ],
        },
        { text: "both done" },
      ],
    });
    // Sequential execution would leave "left" waiting for "right" until its 10 s timeout.
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [barrierTools()],
      timeoutMs: 10_000,
    });
    const { result } = await collect(agent.run("go"));
    expect(result.text).toBe("both done");
    expect(scripted.requests[1]!.toolResults.map((r) => [r.content, r.isError])).toStrictEqual([
      ['{"label":"left"}', false],
      ['{"label":"right"}', false],
    ]);
  });

  it("answers an unknown tool with the list of tools, and the model recovers", async () => {
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "find_devices", arguments: { query: "灯" } }] },
        { toolCalls: [{ name: "search_devices", arguments: { query: "灯" } }] },
        { text: "ok" },
      ],
    });
    const home = smartHome();
    const agent = createAgent({ model: modelFor(provider, scripted), tools: [home.manifest] });
    const { events } = await collect(agent.run("灯"));
    const first = scripted.requests[1]!.toolResults[0]!;
    expect(first.isError).toBe(true);
    expect(first.content).toContain(
      'Unknown tool "find_devices". Available tools: execute_commands, interpret_command, search_devices.',
    );
    expect(events.flatMap((e) => (e.type === "tool-result" ? [e.outcome] : []))).toStrictEqual([
      "unknown-tool",
      "ok",
    ]);
    expect(home.calls.map((c) => c.tool)).toStrictEqual(["search_devices"]);
  });

  it("returns what a throwing tool says as an error result and carries on", async () => {
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "execute_commands", arguments: { device_id: "uuid-nope", commands: [] } }] },
        { text: "那个设备不存在" },
      ],
    });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [home.manifest],
      canUseTool: () => ({ behavior: "allow" }),
    });
    const { result } = await collect(agent.run("开灯"));
    expect(result).toMatchObject({ text: "那个设备不存在", stopReason: "end_turn" });
    expect(scripted.requests[1]!.toolResults[0]).toMatchObject({
      isError: true,
      content: expect.stringContaining(
        'no device with id "uuid-nope"; call search_devices first to find its fullId',
      ),
    });
  });

  it("does not run a denied call; the model reads the reason", async () => {
    scripted = await startScriptedModel({
      script: [
        {
          toolCalls: [
            {
              name: "execute_commands",
              arguments: {
                device_id: "uuid-abc123",
                commands: [{ component: "main", capability: "switch", command: "on" }],
              },
            },
          ],
        },
        { text: "好的，不开了" },
      ],
    });
    const home = smartHome();
    const asked: unknown[] = [];
    const canUseTool: CanUseTool = (name, args, annotations) => {
      asked.push([name, args, annotations]);
      return { behavior: "deny", reason: "the user said no" };
    };
    const agent = createAgent({ model: modelFor(provider, scripted), tools: [home.manifest], canUseTool });
    const { events } = await collect(agent.run("开灯"));
    expect(home.calls).toStrictEqual([]);
    expect(home.registry.get("uuid-abc123")?.state.switch).toBe("off");
    expect(asked).toStrictEqual([
      [
        "execute_commands",
        { device_id: "uuid-abc123", commands: [{ component: "main", capability: "switch", command: "on" }] },
        { destructiveHint: true },
      ],
    ]);
    expect(scripted.requests[1]!.toolResults[0]).toMatchObject({
      isError: true,
      content: `${provider === "openai" ? "Error: " : ""}Permission denied: the user said no`,
    });
    expect(events.flatMap((e) => (e.type === "tool-result" ? [e.outcome] : []))).toStrictEqual(["denied"]);
  });
});

describe("permissions", () => {
  const switchOn = {
    name: "execute_commands",
    arguments: {
      device_id: "uuid-abc123",
      commands: [{ component: "main", capability: "switch", command: "on" }],
    },
  };

  it("denies destructive tools when no hook is configured, and asks nothing for read-only ones", async () => {
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [switchOn, { name: "search_devices", arguments: { query: "灯" } }] },
        { text: "ok" },
      ],
    });
    const home = smartHome();
    const agent = createAgent({ model: modelFor("anthropic", scripted), tools: [home.manifest] });
    await collect(agent.run("开灯"));
    expect(home.calls.map((c) => c.tool)).toStrictEqual(["search_devices"]);
    expect(scripted.requests[1]!.toolResults[0]!.content).toBe(
      'Permission denied: Tool "execute_commands" is destructive and needs the user\'s permission, and no permission hook (canUseTool) is configured, so it was not run.',
    );
  });

  it("runs a call with the arguments the hook edited, validated again", async () => {
    scripted = await startScriptedModel({ script: [{ toolCalls: [switchOn] }, { text: "ok" }] });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [home.manifest],
      canUseTool: (_name, args) => ({ behavior: "allow", args: { ...args, device_id: "uuid-def456" } }),
    });
    const { events } = await collect(agent.run("开灯"));
    expect(home.calls).toStrictEqual([
      { tool: "execute_commands", args: { ...switchOn.arguments, device_id: "uuid-def456" } },
    ]);
    expect(events.flatMap((e) => (e.type === "permission-decision" ? [e.decision] : []))).toStrictEqual([
      "edit",
    ]);
  });

  it("asks for every tool with askPermission: all", async () => {
    scripted = await startScriptedModel({
      script: [{ toolCalls: [{ name: "search_devices", arguments: { query: "灯" } }] }, { text: "ok" }],
    });
    const home = smartHome();
    const asked: string[] = [];
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [home.manifest],
      askPermission: "all",
      canUseTool: (name) => {
        asked.push(name);
        return { behavior: "allow" };
      },
    });
    await collect(agent.run("灯"));
    expect(asked).toStrictEqual(["search_devices"]);
  });
});

describe("limits", () => {
  it("stops at max steps without running the calls of the last reply, keeping the transcript valid", async () => {
    const again = { toolCalls: [{ name: "search_devices", arguments: { query: "灯" } }] };
    scripted = await startScriptedModel({ script: [again, again, again, { text: "unused" }] });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [home.manifest],
      maxSteps: 2,
    });
    const { events, result } = await collect(agent.run("灯"));
    expect(result).toMatchObject({ stopReason: "max_steps", steps: 2 });
    expect(home.calls.length).toBe(1);
    expect(events.flatMap((e) => (e.type === "tool-result" ? [e.outcome] : []))).toStrictEqual([
      "ok",
      "skipped",
    ]);

    // The conversation can go on from there: every tool_use has its tool_result, then the new message.
    await collect(agent.run("继续", { history: result.messages }));
    expect(scripted.rejected).toStrictEqual([]);
    expect(scripted.requests[2]!.toolResults.map((r) => r.content)).toStrictEqual([
      "Not run: the agent reached its limit of 2 steps.",
    ]);
    expect(scripted.requests[2]!.lastUserText).toBe("继续");
  });

  it("gives up on a tool call after its timeout and tells the model", async () => {
    scripted = await startScriptedModel({
      script: [{ toolCalls: [{ name: "hang", arguments: {} }] }, { text: "too slow" }],
    });
    const hang = testManifest("slow", [testTool({ name: "hang", invoke: () => new Promise(() => {}) })]);
    const agent = createAgent({
      model: modelFor("openai", scripted),
      tools: [hang],
      toolTimeoutsMs: { hang: 20 },
    });
    const { result } = await collect(agent.run("go"));
    expect(result.text).toBe("too slow");
    expect(scripted.requests[1]!.toolResults[0]!.content).toBe('Error: Tool "hang" timed out after 20 ms');
  });

  it("cancels a running tool and the run through an AbortSignal", async () => {
    scripted = await startScriptedModel({
      script: [{ toolCalls: [{ name: "wait", arguments: {} }] }, { text: "unused" }],
    });
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const wait = testManifest("waiting", [
      {
        ...testTool({ name: "wait", invoke: () => undefined }),
        usesContext: true,
        invoke: (_args: unknown, ctx: { signal: AbortSignal } | undefined) => {
          toolSignal = ctx!.signal;
          controller.abort(new Error("the user pressed stop"));
          return new Promise(() => {});
        },
      },
    ]);
    const agent = createAgent({ model: modelFor("anthropic", scripted), tools: [wait] });
    await expect(agent.chat("go", { signal: controller.signal })).rejects.toThrow("the user pressed stop");
    expect(toolSignal?.aborted).toBe(true);
    expect(scripted.requests.length).toBe(1);
  });

  it("cancels a model request in flight", async () => {
    const controller = new AbortController();
    scripted = await startScriptedModel({
      script: [
        () => {
          controller.abort(new Error("stop now"));
          return { text: "too late" };
        },
      ],
    });
    const agent = createAgent({ model: modelFor("openai", scripted), tools: [] });
    await expect(agent.chat("go", { signal: controller.signal })).rejects.toThrow("stop now");
  });
});
