import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerManifest } from "@mcp-gen/runtime/server";
import { serve } from "@mcp-gen/runtime/server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/build.ts";
import { writeOutputs } from "../src/write/atomic.ts";
import { fixtureConfig } from "./support/project.ts";

/**
 * The tools of the golden fixture `input-schema` (hand-written schemas, JSDoc `@inputSchema`),
 * built and served: the server lists each schema as written and refuses arguments it rejects —
 * `anyOf` of `required`, `if`/`then`/`else` — before the function runs.
 */
const FIXTURE = path.join(import.meta.dirname, "fixtures", "input-schema");
const DIR = path.join(import.meta.dirname, ".tmp", "input-schema-serve");

let client: Client;
let server: { close(): Promise<void> };
let calls: string[];

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  for (const file of ["tools.ts", "contact.json", "booking.json", "tag.json"])
    cpSync(path.join(FIXTURE, file), path.join(DIR, file));
  const config = { ...fixtureConfig(DIR), importExtension: ".ts" as const, targets: ["openai" as const] };
  writeOutputs((await generate(config)).outputs, DIR);
  const url = (file: string) => pathToFileURL(path.join(DIR, file)).href;
  const { manifest } = (await import(url("generated/input-schema-serve/server.ts"))) as {
    manifest: ServerManifest;
  };
  ({ calls } = (await import(url("tools.ts"))) as { calls: string[] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  server = await serve(manifest, { transport: serverSide });
  client = new Client({ name: "input-schema", version: "1.0.0" });
  await client.connect(clientSide);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
});

const call = async (args: Record<string, unknown>) => {
  const before = calls.length;
  const result = await client.callTool({ name: "add_contact", arguments: args });
  const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
  return { isError: result.isError === true, text, ran: calls.length > before };
};

describe("a served tool with a hand-written input schema", () => {
  it("lists the schema as written", async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === "add_contact")?.inputSchema as Record<string, unknown>;
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$defs).toStrictEqual({
      address: {
        $anchor: "addressDef",
        type: "object",
        properties: { street: { type: "string" }, city: { type: "string" } },
      },
    });
    expect(schema.allOf).toStrictEqual([{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }]);
    expect(schema.then).toStrictEqual({ required: ["phone"] });
    expect(schema.additionalProperties).toBe(false);
  });

  it("refuses arguments that break anyOf before the function runs", async () => {
    const result = await call({ name: "Ann" });
    expect(result).toMatchObject({ isError: true, ran: false });
    expect(result.text).toContain("/phone");
    expect(result.text).toContain("/email");
  });

  it("refuses arguments that break if/then/else before the function runs", async () => {
    const then = await call({ contactMethod: "phone", email: "ann@example.com" });
    expect(then).toMatchObject({ isError: true, ran: false });
    expect(then.text).toContain('must match "then" schema');
    const otherwise = await call({ contactMethod: "email", phone: "555-0100" });
    expect(otherwise).toMatchObject({ isError: true, ran: false });
    expect(otherwise.text).toContain('must match "else" schema');
  });

  it("calls the function with the arguments object when the schema accepts it", async () => {
    const result = await call({ contactMethod: "phone", phone: "555-0100" });
    expect(result).toStrictEqual({ isError: false, text: "call 555-0100", ran: true });
    const booked = await client.callTool({
      name: "book",
      arguments: { at: "2025-01-01T12:00:00Z", minutes: 45, room: "B" },
    });
    expect(booked.structuredContent).toStrictEqual({
      result: "B at 2025-01-01T12:00:00Z for 45 minutes (request)",
    });
  });
});
