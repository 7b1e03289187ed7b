import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createStaticServer, toolsFromFile } from "./static-server.ts";

// Serves the tools of the JSON file named by the first argument over stdio (PAGE_SIZE: tools per
// page); with `--no-tools` it is an MCP server without the tools capability.
const [file] = process.argv.slice(2);
if (!file) throw new Error("usage: static-stdio.ts <tools.json> | --no-tools");
const server =
  file === "--no-tools"
    ? new Server({ name: "no-tools", version: "1.0.0" }, { capabilities: { logging: {} } })
    : createStaticServer(
        toolsFromFile(file),
        process.env.PAGE_SIZE ? Number(process.env.PAGE_SIZE) : undefined,
      );
await server.connect(new StdioServerTransport());
