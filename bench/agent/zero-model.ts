import type { ModelProvider, ModelReply } from "@mcp-gen/runtime/agent";

/**
 * A model that answers instantly, in-process: `perTurn` calls of search_devices per turn for
 * `turns` turns (counted from the tool results in the conversation), then a final answer.
 */
export function zeroLatencyModel(options: { turns: number; perTurn: number; args: unknown }): ModelProvider {
  let id = 0;
  return {
    provider: "bench",
    model: "zero-latency",
    dialect: "anthropic",
    async complete(request): Promise<ModelReply> {
      const done = request.messages.filter((m) => m.role === "tool").length >= options.turns;
      if (done)
        return { text: "已成功打开客厅吸顶灯", toolCalls: [], stop: "end_turn", rawStopReason: "end_turn" };
      const toolCalls = Array.from({ length: options.perTurn }, () => ({
        id: `call_${id++}`,
        name: "search_devices",
        arguments: options.args,
      }));
      return { text: "", toolCalls, stop: "tool_use", rawStopReason: "tool_use" };
    },
  };
}
