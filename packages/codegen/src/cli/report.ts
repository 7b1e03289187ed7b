import { type Diagnostic, formatDiagnostic, McpGenError } from "@mcp-gen/schema/diagnostics";

/** Prints diagnostics to stderr. */
export function printDiagnostics(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n\n`);
}

/**
 * Runs a command body; an `McpGenError` is printed with its diagnostics and exits 1. Commands that
 * write files (`writes`) say that nothing was written, since they write only when all went well.
 */
export async function run(body: () => Promise<number>, options: { writes?: boolean } = {}): Promise<void> {
  try {
    const code = await body();
    if (typeof code === "number") process.exitCode = code;
  } catch (error) {
    if (error instanceof McpGenError) {
      printDiagnostics(error.diagnostics);
      const n = error.diagnostics.filter((d) => d.severity === "error").length;
      const summary = `mcp-gen: ${n} error${n === 1 ? "" : "s"}`;
      process.stderr.write(options.writes ? `${summary}; nothing was written\n` : `${summary}\n`);
    } else if ((error as { code?: unknown }).code === "ERR_MCP_GEN_MISSING_PEER") {
      // An optional package the command needs (a provider's SDK): the message says what to install.
      process.stderr.write(`mcp-gen: ${(error as Error).message}\n`);
    } else {
      process.stderr.write(`mcp-gen: internal error: ${(error as Error).stack ?? String(error)}\n`);
    }
    process.exitCode = 1;
  }
}
