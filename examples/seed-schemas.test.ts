import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The examples reproduce the seeds' FastMCP servers: their committed contracts must say at least
 * what the seeds' schemas say (seed 000: smart home; seed 001: economics; seed 004: ledger).
 */
const contract = (server: string) =>
  JSON.parse(readFileSync(path.join(import.meta.dirname, `../schemas/${server}.tools.json`), "utf8")) as {
    tools: { name: string; inputSchema: Record<string, any> }[];
  };
const input = (server: string, tool: string) => {
  const found = contract(server).tools.find((t) => t.name === tool);
  if (!found) throw new Error(`no tool ${tool} in ${server}`);
  return found.inputSchema;
};

describe("smart-home (seed 000)", () => {
  it("search_devices: query string required, limit integer defaulting to 5", () => {
    const s = input("smart-home", "search_devices");
    expect(s.properties.query.type).toBe("string");
    expect(s.properties.limit.type).toBe("integer");
    expect(s.properties.limit.default).toBe(5);
    expect(s.required).toStrictEqual(["query"]);
  });

  it("execute_commands: device_id string and commands array of {component, capability, command, arguments?}", () => {
    const s = input("smart-home", "execute_commands");
    expect(s.properties.device_id.type).toBe("string");
    expect(s.properties.commands.type).toBe("array");
    expect(s.properties.commands.items.type).toBe("object");
    expect(Object.keys(s.properties.commands.items.properties)).toStrictEqual([
      "component",
      "capability",
      "command",
      "arguments",
    ]);
    expect(s.properties.commands.items.required).toStrictEqual(["component", "capability", "command"]);
    expect(s.required).toStrictEqual(["device_id", "commands"]);
  });

  it("interpret_command: current_state is an optional nullable object (Optional[dict] = None)", () => {
    const s = input("smart-home", "interpret_command");
    expect(s.properties.user_input.type).toBe("string");
    expect(s.properties.device_capabilities).toMatchObject({ type: "array", items: { type: "string" } });
    expect(s.properties.current_state.type).toStrictEqual(["object", "null"]);
    expect(s.properties.current_state.default).toBeNull();
    expect(s.required).toStrictEqual(["user_input", "device_capabilities"]);
  });
});

describe("economics (seed 001)", () => {
  it("get_all_parameters: category defaults to all, format to json", () => {
    const s = input("economics", "get_all_parameters");
    expect(s.properties.category).toMatchObject({ type: "string", default: "all" });
    expect(s.properties.format).toMatchObject({
      type: "string",
      default: "json",
      enum: ["json", "markdown"],
    });
    expect(s.required).toBeUndefined();
  });

  it("analyze_question: one required question string", () => {
    const s = input("economics", "analyze_question");
    expect(s.properties.question.type).toBe("string");
    expect(s.required).toStrictEqual(["question"]);
  });
});

describe("ledger (seed 004)", () => {
  it("transfer_eth: to_address and amount required, sender optional; the amount is an exact decimal string", () => {
    const s = input("ledger", "transfer_eth");
    expect(s.properties.to_address.type).toBe("string");
    expect(s.properties.sender.type).toBe("string");
    // The seed's `amount: float` becomes a decimal string: floats cannot hold wei exactly.
    expect(s.properties.amount).toMatchObject({ type: "string", pattern: "^[0-9]+(\\.[0-9]{1,18})?$" });
    expect(s.required).toStrictEqual(["to_address", "amount"]);
  });

  it("get_balance and list_transactions: address, and an optional address and limit", () => {
    expect(input("ledger", "get_balance").required).toStrictEqual(["address"]);
    const s = input("ledger", "list_transactions");
    expect(s.properties.limit.type).toBe("integer");
    expect(s.required).toBeUndefined();
  });
});
