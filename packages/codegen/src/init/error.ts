import { diagnostic, McpGenError } from "@mcp-gen/schema";

/**
 * Why `mcp-gen init` cannot set up a folder: what is wrong, where, and how to fix it, as the
 * diagnostic MCPG096. It is thrown while planning, before anything is written.
 *
 * @example
 * throw initError({ message: "--dir names a file", file: "notes.txt", fix: "pass a folder" });
 */
export function initError(problem: { message: string; file?: string; fix: string }): McpGenError {
  return new McpGenError(
    diagnostic("MCPG096", problem.message, {
      ...(problem.file !== undefined ? { file: problem.file } : {}),
      fix: problem.fix,
    }),
  );
}
