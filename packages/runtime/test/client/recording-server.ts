import type { ServerManifest } from "@mcp-gen/runtime/server";
import { createServer } from "@mcp-gen/runtime/server";

/**
 * The runtime server for a generated manifest, with every call that reaches an implementation
 * recorded in `calls` (to prove invalid arguments never get that far).
 */
export function recordingServer(manifest: ServerManifest) {
  const calls: string[] = [];
  const server = createServer({
    ...manifest,
    tools: manifest.tools.map((tool) => ({
      ...tool,
      invoke: (args: unknown, context: Parameters<typeof tool.invoke>[1]) => {
        calls.push(tool.definition.name);
        return tool.invoke(args, context);
      },
    })),
  });
  return { server, calls };
}
