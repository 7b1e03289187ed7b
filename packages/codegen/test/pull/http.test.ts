import { readFileSync } from "node:fs";
import path from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempProject } from "../support/project.ts";
import { serveStaticHttp } from "./support/static-server.ts";

/**
 * Pull over Streamable HTTP from an SDK server on 127.0.0.1 that wants a bearer token
 * (serve-http.test.ts pulls from `mcp-gen serve --http`).
 */
let tools: Tool[] = [
  {
    name: "convert",
    description: "Convert an amount.",
    inputSchema: {
      type: "object",
      properties: { amount: { type: "number" }, to: { type: "string", enum: ["EUR", "USD"] } },
      required: ["amount", "to"],
    },
    outputSchema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
  },
];
let server: Awaited<ReturnType<typeof serveStaticHttp>>;
let dir: string;
const auth = ["--header", "Authorization: Bearer s3cret"];

beforeAll(async () => {
  server = await serveStaticHttp({ readTools: () => tools, token: "s3cret" });
  dir = tempProject({ "mcp-gen.config.json": '{ "servers": {} }\n' });
});
afterAll(() => server.close());

describe("pull --url", () => {
  it("without credentials: the server refuses, and the fix says how to pass them", async () => {
    const r = await runCli(["pull", "money", "--url", server.url], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error MCPG092: ${server.url} did not accept the MCP request (HTTP 401)`);
    expect(r.stderr).toContain('  fix: pass credentials with --header "Authorization: Bearer <token>"');
  });

  it("an endpoint that is not MCP", async () => {
    const r = await runCli(["pull", "money", "--url", server.url.replace("/mcp", "/"), ...auth], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("did not accept the MCP request (HTTP 404)");
  });

  it("with the header: writes the contract, recording the URL but no header value", async () => {
    const r = await runCli(["pull", "money", "--url", server.url, ...auth], dir);
    expect(r).toMatchObject({
      code: 0,
      stdout: "✓ money: 1 tool over MCP 2025-11-25 → schemas/money.tools.json\n  next: npx mcp-gen build\n",
    });
    const text = readFileSync(path.join(dir, "schemas/money.tools.json"), "utf8");
    expect(JSON.parse(text)["x-mcp-gen"]).toStrictEqual({ pulledFrom: { url: server.url }, tools: {} });
    expect(text).not.toContain("s3cret");
  });

  it("--check against the recorded URL, headers given again", async () => {
    expect(await runCli(["pull", "money", "--check", ...auth], dir)).toMatchObject({ code: 0 });
    tools = [{ ...tools[0]!, outputSchema: { type: "object", properties: { value: { type: "number" } } } }];
    const drift = await runCli(["pull", "money", "--check", ...auth], dir);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain(
      '  breaking      convert  /outputSchema/properties/value  result field "value" is now optional; it may be missing\n',
    );
  });
});
