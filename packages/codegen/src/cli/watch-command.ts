import path from "node:path";
import { McpGenError } from "@mcp-gen/schema/diagnostics";
import { type WatchEvent, watchBuild } from "../watch/watcher.ts";
import { printDiagnostics } from "./report.ts";

/**
 * `mcp-gen build --watch`: prints one line per build and the diagnostics of a failed one, and runs
 * until interrupted (SIGINT/SIGTERM), then resolves with exit code 0.
 */
export async function runWatch(flags: { config?: string; server?: string[] }): Promise<number> {
  const cwd = process.cwd();
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const onEvent = (event: WatchEvent) => {
    switch (event.type) {
      case "changed":
        out(`change: ${event.files.map((f) => path.relative(cwd, f)).join(", ")}`);
        break;
      case "built": {
        const r = event.result;
        printDiagnostics(r.warnings);
        const what = event.initial
          ? `built ${r.rebuilt.length} server${r.rebuilt.length === 1 ? "" : "s"}`
          : r.rebuilt.length > 0
            ? `rebuilt ${r.rebuilt.join(", ")} (${r.extracted.length} module${r.extracted.length === 1 ? "" : "s"} extracted)`
            : "nothing to rebuild";
        out(
          `✓ ${what} in ${event.ms} ms: ${r.written.length === 0 ? "nothing written" : `wrote ${r.written.length} file${r.written.length === 1 ? "" : "s"}`}`,
        );
        break;
      }
      case "failed":
        if (event.error instanceof McpGenError) {
          printDiagnostics(event.error.diagnostics);
          const n = event.error.diagnostics.filter((d) => d.severity === "error").length;
          out(
            `✗ build failed with ${n} error${n === 1 ? "" : "s"}; nothing was written. Fix and save to retry.`,
          );
        } else {
          process.stderr.write(`mcp-gen: internal error: ${event.error.stack ?? event.error.message}\n`);
          out("✗ build failed; nothing was written. Fix and save to retry.");
        }
        break;
      case "watching":
        out(`watching ${event.files} files for changes (Ctrl+C to stop)`);
        break;
    }
  };
  const watcher = await watchBuild({
    ...(flags.config ? { configFile: flags.config } : {}),
    ...(flags.server ? { servers: flags.server } : {}),
    cwd,
    onEvent,
  });
  await new Promise<void>((resolve) => {
    const stop = () => {
      watcher.close();
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}
