/**
 * Keeps 32 tools/call requests in flight against a Streamable HTTP endpoint for 6 s (for profiling).
 *   node --import tsx/esm bench/server/load.ts http://127.0.0.1:3000/mcp
 */
import { httpChannel } from "./channels.ts";

const channel = httpChannel(process.argv[2]!, 32);
let id = 1;
let done = 0;
const until = performance.now() + 6000;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (performance.now() < until) {
      await channel.call({
        jsonrpc: "2.0",
        id: id++,
        method: "tools/call",
        params: { name: "search_devices", arguments: { query: "客厅 灯", limit: 2 } },
      });
      done++;
    }
  }),
);
process.stdout.write(`${(done / 6).toFixed(0)} calls/s\n`);
await channel.close();
