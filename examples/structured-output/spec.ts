import type { Int, Maximum, Minimum } from "@mcp-gen/runtime";

/** One step of the distilled agent's workflow. */
export interface WorkflowStep {
  /** What the step does, in one sentence. */
  action: string;
  /** Tools the step uses (names of MCP tools). */
  tools: string[];
}

/**
 * The structured result of seed 003: a specification of an agent, distilled from a
 * conversation. Declared once in TypeScript; `mcp-gen build` makes its schema and validator.
 */
export interface DistillAgentSpec {
  /** Short name of the agent, e.g. "smart-home-helper". */
  name: string;
  /** What the agent is for, in one or two sentences. */
  purpose: string;
  /** Steps of the agent's workflow, in order. */
  workflow: WorkflowStep[];
  /** How sure the distillation is, from 1 (guess) to 5 (certain). */
  confidence: Int & Minimum<1> & Maximum<5>;
}
