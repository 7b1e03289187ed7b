import nodeProcess from "node:process";
import { Server } from "@modelcontextprotocol/server";
import * as sdkShims from "@modelcontextprotocol/server/_shims";
import { describe, expect, it } from "vitest";
import { DefaultJsonSchemaValidator, process } from "../../src/server/sdk-shims.ts";

describe("@mcp-gen/runtime/server/sdk-shims (the bundle alias of the SDK's _shims)", () => {
  it("exports what the SDK's Node shims export, under the same names", () => {
    expect(Object.keys(sdkShims).sort()).toStrictEqual(["DefaultJsonSchemaValidator", "process"]);
    expect(process).toBe(nodeProcess);
  });

  it("lets the SDK construct a Server without a validator, and says what to do when one is asked for", () => {
    expect(
      () =>
        new Server({ name: "s", version: "1" }, { jsonSchemaValidator: new DefaultJsonSchemaValidator() }),
    ).not.toThrow();
    expect(() => new DefaultJsonSchemaValidator().getValidator()).toThrow(
      /replaced the MCP SDK's default JSON Schema validator \(Ajv\).*Pass a jsonSchemaValidator there, or bundle without that alias/,
    );
  });
});
