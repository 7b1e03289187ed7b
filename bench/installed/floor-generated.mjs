// The floor plus what mcp-gen generates: a low-level SDK v2 `Server` with no tools through
// `serveStdio` (bench/server/sdk-minimal.mjs), after importing the compiled generated validators,
// tool definitions and the tool module of the installed project's N = 25 server. What a server
// of these tools costs at least, before any of mcp-gen's runtime. Copy into <project>/serve/.
import { Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import "./dist/generated/server0/index.js";
import "./dist/generated/server0/tools.js";
import "./dist/tools/module0.js";

serveStdio(() => new Server({ name: "minimal", version: "1.0.0" }, { capabilities: { tools: {} } }));
