/**
 * Keeps 32 tools/call requests in flight against a Streamable HTTP endpoint for 6 s (for
 * profiling), in the 2026-07-28 era (default) or the 2025 one (`initialize` first; a session when
 * the server hands one out).
 *   node --import tsx/esm bench/server/load.ts http://127.0.0.1:3000/mcp [2026|2025]
 */
import { httpChannel } from "./channels.ts";
import { checkCall, checkOpening, type Era, eraHeaders, INITIALIZED, opening, toolCall } from "./protocol.ts";

const era = (process.argv[3] ?? "2026") as Era;
const channel = httpChannel(process.argv[2]!, 32, (message) => eraHeaders(era, message));
checkOpening(era, await channel.call(opening(era, 0)));
if (era === "2025") await channel.notify(INITIALIZED);
let id = 1;
checkCall(era, await channel.call(toolCall(era, id++)));
let done = 0;
const until = performance.now() + 6000;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (performance.now() < until) {
      await channel.call(toolCall(era, id++));
      done++;
    }
  }),
);
process.stdout.write(`${(done / 6).toFixed(0)} calls/s\n`);
await channel.close();
