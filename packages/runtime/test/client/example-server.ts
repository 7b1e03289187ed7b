import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

interface ContractFile {
  server: string;
  tools: { name: string; inputSchema: object; outputSchema?: object }[];
  "x-mcp-gen": {
    tools: Record<
      string,
      { resultWrapped?: boolean; binding: { module: string; export: string; params: string[] } }
    >;
  };
}

/**
 * A stand-in server for tests until the runtime server lands: the SDK's low-level `Server`
 * answering `tools/list` from a contract and `tools/call` by calling the example function its
 * binding names (positional arguments, `{ result }` wrapping, thrown errors as `isError`).
 * `calls` records every call that reached a handler.
 */
export async function createExampleServer(server: string): Promise<{ server: Server; calls: string[] }> {
  const contract = JSON.parse(
    readFileSync(path.join(ROOT, "schemas", `${server}.tools.json`), "utf8"),
  ) as ContractFile;
  const calls: string[] = [];
  const sdkServer = new Server({ name: server, version: "0.0.0" }, { capabilities: { tools: {} } });
  sdkServer.setRequestHandler(ListToolsRequestSchema, () => ({ tools: contract.tools as never }));
  sdkServer.setRequestHandler(CallToolRequestSchema, async (request) => {
    const extra = contract["x-mcp-gen"].tools[request.params.name];
    if (!extra) throw new Error(`unknown tool ${request.params.name}`);
    calls.push(request.params.name);
    const mod = (await import(pathToFileURL(path.join(ROOT, extra.binding.module)).href)) as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    const args = request.params.arguments ?? {};
    try {
      const value = await mod[extra.binding.export]!(...extra.binding.params.map((p) => args[p]));
      const structured = (extra.resultWrapped ? { result: value } : value) as Record<string, unknown>;
      return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (error) {
      return { isError: true, content: [{ type: "text", text: (error as Error).message }] };
    }
  });
  return { server: sdkServer, calls };
}
