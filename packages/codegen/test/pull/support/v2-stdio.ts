import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createV2Server } from "./v2-server.ts";

// Serves the SDK v2 fixture server over stdio: the first message of the connection picks the
// era (`server/discover`: 2026-07-28; `initialize`: the 2025 protocol).
serveStdio(() => createV2Server());
