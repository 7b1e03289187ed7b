import type { DistillAgentSpec } from "./spec.ts";

// The submit tool of seed 003: `agent.extract()` offers it to the model and returns its validated
// arguments, typed as `DistillAgentSpec` (a destructured parameter makes the type's properties the
// tool's arguments). The body does not run there; served as an MCP tool, it echoes the spec back.

/** Submit the distilled agent specification. Call it exactly once, with the final result. */
export function submit_distill_spec({
  name,
  purpose,
  workflow,
  confidence,
}: DistillAgentSpec): DistillAgentSpec {
  return { name, purpose, workflow, confidence };
}
