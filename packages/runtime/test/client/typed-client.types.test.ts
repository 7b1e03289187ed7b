import type { CallOptions, ToolCallingClient, ToolCallResult, ToolContent } from "@mcp-gen/runtime/client";
import type { Client } from "@modelcontextprotocol/client";
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expectTypeOf, it } from "vitest";
import type { Device } from "../../../../examples/smart-home/registry.ts";
import type { createEconomicsClient } from "../../../../generated/economics/client.ts";
import type { createSmartHomeClient, SmartHomeClient } from "../../../../generated/smart-home/client.ts";

/**
 * Type-level tests: `tsc` (CI type-check) fails if a `@ts-expect-error` line compiles or an
 * `expectTypeOf` does not hold. At run time these only check that the functions exist.
 */
describe("typed client types", () => {
  it("accepts an SDK Client and returns typed results", () => {
    expectTypeOf<Client>().toExtend<Parameters<typeof createSmartHomeClient>[0]>();
    // SDK v1's callTool(params, resultSchema, options) would take the call options for a schema.
    expectTypeOf<V1Client>().not.toExtend<ToolCallingClient>();
    expectTypeOf<CallOptions>().toHaveProperty("onprogress");
    expectTypeOf<ReturnType<SmartHomeClient["searchDevices"]>>().toEqualTypeOf<
      Promise<ToolCallResult<Device[]>>
    >();
    expectTypeOf<Awaited<ReturnType<SmartHomeClient["executeCommands"]>>>()
      .extract<{ ok: true }>()
      .toHaveProperty("value")
      .toHaveProperty("status")
      .toEqualTypeOf<"ACCEPTED" | "REJECTED">();
    expectTypeOf<ToolContent>().toBeArray();
  });

  it("rejects wrong argument types at compile time", () => {
    const home = {} as SmartHomeClient;
    const economics = {} as ReturnType<typeof createEconomicsClient>;
    const never = () => {
      // @ts-expect-error query must be a string
      void home.searchDevices({ query: 42 });
      // @ts-expect-error query is required
      void home.searchDevices({ limit: 5 });
      // @ts-expect-error unknown property
      void home.searchDevices({ query: "x", colour: "red" });
      // @ts-expect-error arguments are required for a tool with required parameters
      void home.searchDevices();
      // @ts-expect-error commands must be an array of commands
      void home.executeCommands({ device_id: "d", commands: "on" });
      // @ts-expect-error format is "json" | "markdown"
      void economics.getAllParameters({ format: "yaml" });
      // @ts-expect-error there is no such tool method
      void home.search_devices({ query: "x" });
      void economics.getAllParameters();
      void home.searchDevices({ query: "x", limit: 3 });
    };
    expectTypeOf(never).toBeFunction();
  });
});
