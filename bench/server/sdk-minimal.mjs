// Cold-start floor of a server on the SDK v2: a low-level `Server` with no tools, served by
// `serveStdio`, answering the opening. Any MCP server on the SDK's server package does at least this.
import { Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

serveStdio(() => new Server({ name: "minimal", version: "1.0.0" }, { capabilities: { tools: {} } }));
