import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createStaticServer, toolsFromFile } from "./static-server.ts";

// Serves the tools of the JSON file named by the first argument over stdio (PAGE_SIZE: tools per
// page); with `--no-tools` it is an MCP server without the tools capability. With
// `--exit-on-discover` after the file it exits on a `server/discover` request, as servers on
// SDKs that stop at any request before `initialize` do.
const [file, flag] = process.argv.slice(2);
if (!file) throw new Error("usage: static-stdio.ts <tools.json> [--exit-on-discover] | --no-tools");
const server =
  file === "--no-tools"
    ? new Server({ name: "no-tools", version: "1.0.0" }, { capabilities: { logging: {} } })
    : createStaticServer(
        toolsFromFile(file),
        process.env.PAGE_SIZE ? Number(process.env.PAGE_SIZE) : undefined,
      );
const transport = new StdioServerTransport();
await server.connect(transport);
if (flag === "--exit-on-discover") {
  const receive = transport.onmessage;
  transport.onmessage = (message) => {
    if ("method" in message && message.method === "server/discover") {
      process.stderr.write("unexpected request before initialize: server/discover\n");
      process.exit(1);
    }
    receive?.(message);
  };
}
