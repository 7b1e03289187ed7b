import type { ServerManifest } from "@mcp-gen/runtime/server";
import { parseMcpOption } from "../chat/mcp-option.ts";
import { codeCompiler } from "./code-compiler.ts";

/** What `mcp-gen serve --code` was asked to add. */
export interface CodeServeRequest {
  manifest: ServerManifest;
  /** `--code-only`: serve the code tool alone. */
  only: boolean;
  /** `--code-allow-destructive`: run destructive calls when the client cannot be asked. */
  allowDestructive: boolean;
  /** `--mcp name=<command or url>`: more servers the programs can call. */
  mcp: readonly string[];
  report(line: string): void;
}

/**
 * The manifest with its code tool: connects the `--mcp` servers (stdio children or Streamable
 * HTTP), lists their tools, and declares them beside the server's own in one `run_program` tool.
 * What those servers ask while serving a program's call goes to the client that sent the program.
 * `close` ends the sandbox and the connections.
 */
export async function withCodeServe(
  request: CodeServeRequest,
): Promise<{ manifest: ServerManifest; close(): Promise<void> }> {
  const [{ withCodeTool, relayUpstream, RELAY_CAPABILITIES }, { connectHttp, connectStdio }] =
    await Promise.all([import("@mcp-gen/runtime/code"), import("@mcp-gen/runtime/client")]);
  const connections: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    await Promise.all(connections.splice(0).map((c) => c.close().catch(() => {})));
  };
  try {
    const servers = [];
    for (const option of request.mcp) {
      const source = parseMcpOption(option);
      // the programs' clients answer what these servers ask (see relayUpstream)
      const relayed = { clientOptions: { capabilities: RELAY_CAPABILITIES } };
      const connection =
        "url" in source
          ? await connectHttp(source.url, relayed)
          : "stdio" in source
            ? await connectStdio(source.stdio, relayed)
            : undefined;
      if (!connection) continue;
      connections.push(connection);
      const { tools } = await connection.client.listTools();
      request.report(`mcp-gen: ${source.name}: ${tools.length} tools for the code tool`);
      servers.push({
        name: source.name,
        client: connection.client,
        tools: tools as never[],
        relay: relayUpstream({ client: connection.client, name: source.name }),
      });
    }
    const coded = await withCodeTool({
      manifest: request.manifest,
      servers,
      only: request.only,
      allowDestructive: request.allowDestructive,
      ...(await codeCompiler()),
    });
    return {
      manifest: coded.manifest,
      close: async () => {
        await coded.close();
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
