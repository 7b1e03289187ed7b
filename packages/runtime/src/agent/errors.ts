/** What went wrong in setting up or running an agent. */
export type AgentErrorCode =
  /** Two tools would be offered under one name. */
  | "tool-collision"
  /** Two prompts would be offered under one name. */
  | "prompt-collision"
  /** No source lists the resource (nor a template matching its URI). */
  | "unknown-resource"
  /** No source offers the prompt. */
  | "unknown-prompt"
  /** Arguments a prompt does not declare, or required ones missing. */
  | "prompt-arguments"
  /** The source failed to read the resource (or to list what it offers). */
  | "resource-failed"
  /** The source failed to get the prompt. */
  | "prompt-failed"
  /** A resource the model cannot be shown (a blob neither text nor an image type it takes). */
  | "unsupported-content"
  /** A run with nothing to send. */
  | "empty-conversation";

/** An agent cannot run as configured (e.g. two tools would be offered under one name). */
export class AgentError extends Error {
  override readonly name = "AgentError";
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
