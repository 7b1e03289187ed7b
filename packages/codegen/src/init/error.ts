import { diagnostic, formatDiagnostic } from "@mcp-gen/schema";

/**
 * Why `mcp-gen init` cannot set up a folder: what is wrong, where, and how to fix it. It is
 * thrown while planning, before anything is written.
 *
 * @example
 * throw new InitError({ message: "--dir names a file", file: "notes.txt", fix: "pass a folder" });
 */
export class InitError extends Error {
  override readonly name = "InitError";
  /** The file or folder at fault, when there is one. */
  readonly file: string | undefined;
  /** How to fix it. */
  readonly fix: string;

  constructor(problem: { message: string; file?: string; fix: string }) {
    super(problem.message);
    this.file = problem.file;
    this.fix = problem.fix;
  }
}

/** Renders an `InitError` as the other diagnostics are: `error MCPG096: what`, `  at where`, `  fix: how`. */
export function formatInitError(error: InitError): string {
  return formatDiagnostic(
    diagnostic("MCPG096", error.message, {
      ...(error.file !== undefined ? { file: error.file } : {}),
      fix: error.fix,
    }),
  );
}
