import { formatEvent } from "@mcp-gen/runtime/agent";
import { describe, expect, it } from "vitest";

const call = { step: 1, id: "c1", repairs: [] as string[] };

describe("formatEvent", () => {
  it("names the operation of a router call, not of plain or namespaced calls", () => {
    expect(
      formatEvent({ type: "tool-call", ...call, name: "mcp_query", tool: "memory/read_graph", args: {} }),
    ).toBe("→ mcp_query [memory/read_graph] {}");
    expect(
      formatEvent({
        type: "tool-call",
        ...call,
        name: "memory__read_graph",
        tool: "memory/read_graph",
        args: {},
      }),
    ).toBe("→ memory__read_graph {}");
    expect(
      formatEvent({
        type: "tool-call",
        ...call,
        name: "search_devices",
        tool: "smart-home/search_devices",
        args: "x",
        repairs: ["trailing comma"],
      }),
    ).toBe("→ search_devices x (repaired: trailing comma)");
  });

  it("renders feedback, outcomes and long results readably", () => {
    expect(
      formatEvent({
        type: "validation-error",
        step: 1,
        id: "c1",
        name: "search_devices",
        message:
          'Invalid arguments of tool "search_devices": 1 problem\n- /query: expected a string, received number 1',
        issues: [],
        attempt: 2,
        retriesLeft: 1,
      }),
    ).toBe(
      '✗ search_devices: not run (attempt 2, 1 retry left)\n  Invalid arguments of tool "search_devices": 1 problem\n  - /query: expected a string, received number 1',
    );
    expect(
      formatEvent(
        {
          type: "tool-result",
          step: 1,
          id: "c1",
          name: "t",
          outcome: "denied",
          content: "Permission denied: no",
          durationMs: 1.4,
        },
        { times: false },
      ),
    ).toBe("← t denied: Permission denied: no");
    expect(
      formatEvent(
        {
          type: "tool-result",
          step: 1,
          id: "c1",
          name: "t",
          outcome: "ok",
          content: "x".repeat(20),
          durationMs: 3.6,
        },
        { maxLength: 5 },
      ),
    ).toBe("← t (4 ms) xxxxx…");
    expect(formatEvent({ type: "text-delta", step: 1, text: "x" })).toBeUndefined();
  });
});
