import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { askingState, createAskingServer } from "./asking-server.ts";

// Serves the asking fixture over stdio: the first message of the connection picks the era
// (`server/discover`: 2026-07-28; `initialize`: the 2025 protocol).
const state = askingState();
serveStdio(() => createAskingServer(state));
