/** What went wrong in setting up or running an agent. */
export type AgentErrorCode = "tool-collision";

/** An agent cannot run as configured (e.g. two tools would be offered under one name). */
export class AgentError extends Error {
  override readonly name = "AgentError";
  constructor(
    readonly code: AgentErrorCode,
    message: string,
  ) {
    super(message);
  }
}
