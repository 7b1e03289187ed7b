import { fileURLToPath } from "node:url";
import { spawnServer } from "../packages/runtime/test/state/replicas.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BIN = fileURLToPath(new URL("../packages/codegen/bin/mcp-gen.js", import.meta.url));
const SERVING = /on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/;

/**
 * One `mcp-gen serve conformance --http --port 0` replica of the benches (`args` added: `--state`,
 * `--replica-id` …), through the shared-state tests' `spawnServer`; resolves once it serves.
 */
export async function startReplica(args: readonly string[]) {
  const server = spawnServer({
    bin: BIN,
    args: ["serve", "conformance", "--http", "--port", "0", ...args],
    cwd: ROOT,
    ready: SERVING,
  });
  await server.serving;
  const [, url, port] = SERVING.exec(server.stderr())!;
  return {
    url: url!,
    port: Number(port),
    stop: async () => {
      server.child.kill("SIGTERM");
      await server.exited;
    },
  };
}
