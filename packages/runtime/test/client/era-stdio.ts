import { appendFileSync } from "node:fs";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { DEVICES, eraFactory, wrappedFor } from "./era-server.ts";

/**
 * An SDK v2 server over this process's stdio (run with `node --import tsx`), serving both eras:
 * every tool answers with `DEVICES` in the form of the connection's era.
 */
process.stderr.write("era server up\n");
// Counts the processes a client starts (one line each).
if (process.env.ERA_STARTS) appendFileSync(process.env.ERA_STARTS, `${process.pid}\n`);
serveStdio(eraFactory((era) => wrappedFor(era, DEVICES)));
