import {
  type McpGenServerEvent,
  type McpGenServerOptions,
  type RunningServer,
  type ServerManifest,
  serve,
} from "@mcp-gen/runtime/server";
import { Client, InMemoryTransport, ProtocolError } from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { catalogManifest } from "../fixtures/catalog/manifest.ts";

/** The two ways an SDK v2 client talks: pinned to 2026-07-28, or negotiating the 2025 era. */
export const ERAS = ["2026-07-28", "legacy"] as const;
export type Era = (typeof ERAS)[number];

/** What the 2026-07-28 encoder stamps on every result of the catalog server. */
export const CATALOG_INFO = {
  name: "catalog",
  version: "1.2.3",
  title: "Catalog server",
  icons: [{ src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] }],
};
export const SERVER_INFO_META = { "io.modelcontextprotocol/serverInfo": CATALOG_INFO };

/** A result as a client of `era` receives it: 2026-07-28 results carry the server's identity in `_meta`. */
export function shaped<T extends object>(era: Era, result: T): T {
  return era === "legacy" ? result : { _meta: SERVER_INFO_META, ...result };
}

/** A cacheable 2026-07-28 result (lists, reads) also carries `ttlMs` and `cacheScope`. */
export function cacheable<T extends object>(
  era: Era,
  result: T,
  hints: { ttlMs: number; cacheScope: string } = { ttlMs: 0, cacheScope: "private" },
): T {
  return era === "legacy" ? result : { _meta: SERVER_INFO_META, ...result, ...hints };
}

/** The code, message and data of a JSON-RPC error a request was answered with. */
export async function errorOf(
  request: Promise<unknown>,
): Promise<{ code: number; message: string; data?: unknown }> {
  const error = await request.then(
    () => {
      throw new Error("expected a JSON-RPC error, got a result");
    },
    (e: unknown) => e,
  );
  if (error instanceof ProtocolError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined ? { data: error.data } : {}),
    };
  }
  // The SDK v1 client's McpError puts "MCP error <code>: " before the server's message.
  const { code, message, data } = error as { code?: unknown; message: string; data?: unknown };
  if (typeof code !== "number") throw error;
  const own = message.replace(`MCP error ${code}: `, "");
  return { code, message: own, ...(data !== undefined ? { data } : {}) };
}

export interface Connected {
  client: Client;
  running: RunningServer;
  events: McpGenServerEvent[];
}

/**
 * An SDK v2 client of `era` connected in memory to the catalog server (or `manifest`); with
 * `manual`, 2026-07-28 `input_required` results come back to the test instead of being fulfilled.
 */
export async function connectCatalog(
  era: Era,
  open: { close(): Promise<void> }[],
  options: McpGenServerOptions & {
    manifest?: ServerManifest;
    manual?: boolean;
    elicit?: (message: string) => Record<string, string | number | boolean | string[]>;
  } = {},
): Promise<Connected> {
  const { manifest = catalogManifest(), manual, elicit, ...serverOptions } = options;
  const events: McpGenServerEvent[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const running = await serve(manifest, {
    transport: serverSide as never,
    onError: (event) => events.push(event),
    ...serverOptions,
  });
  open.push(running);
  const client = new Client(
    { name: "catalog-test", version: "1.0.0" },
    {
      versionNegotiation: { mode: era === "legacy" ? "legacy" : { pin: era } },
      capabilities: elicit ? { elicitation: { form: {} } } : {},
      ...(manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  if (elicit) {
    client.setRequestHandler("elicitation/create", (request) => ({
      action: "accept",
      content: elicit(request.params.message),
    }));
  }
  await client.connect(clientSide);
  open.push(client);
  return { client, running, events };
}

/** Reads, gets and completes what the conformance scenarios do; the same answers on every transport. */
export async function exercise(client: {
  readResource(p: { uri: string }): Promise<{ contents: unknown[] }>;
  getPrompt(p: { name: string; arguments?: Record<string, string> }): Promise<{ messages: unknown[] }>;
  complete(p: object): Promise<{ completion: unknown }>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
}) {
  expect((await client.listResources()).resources.map((r) => r.uri)).toStrictEqual(
    catalogManifest().resources!.map((r) => r.definition.uri),
  );
  expect((await client.readResource({ uri: "test://template/123/data" })).contents).toStrictEqual([
    {
      uri: "test://template/123/data",
      mimeType: "application/json",
      text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
    },
  ]);
  expect((await client.readResource({ uri: "test://static-binary" })).contents).toStrictEqual([
    { uri: "test://static-binary", mimeType: "image/png", blob: "iVBORw0KGgo=" },
  ]);
  expect(
    (
      await client.getPrompt({
        name: "test_prompt_with_arguments",
        arguments: { arg1: "hello", arg2: "world" },
      })
    ).messages,
  ).toStrictEqual([
    { role: "user", content: { type: "text", text: "Prompt with arguments: arg1='hello', arg2='world'" } },
  ]);
  expect(
    (
      await client.complete({
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg1", value: "par" },
      })
    ).completion,
  ).toStrictEqual({ values: ["paris", "park", "party"], total: 3, hasMore: false });
  const uri = "test://nonexistent-resource-for-conformance-testing";
  expect(await errorOf(client.readResource({ uri }))).toStrictEqual({
    code: -32602,
    message: `Resource not found: ${uri}`,
    data: { uri },
  });
}
