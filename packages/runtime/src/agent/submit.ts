import type { ToolDefinition } from "../server/manifest.ts";
import type { Validator } from "../validation/validator.ts";
import type { AgentTool } from "./tools/agent-tool.ts";
import { convertedDialects, offerOf } from "./tools/dialects.ts";

/** A submit tool: the definition the model sees and the validator of the value it must send. */
export interface SubmitTool<T> {
  readonly definition: ToolDefinition;
  readonly input: Validator<T>;
}

/** What a generated `index.ts` exports (`tools` and `validators`). */
export interface GeneratedTools {
  readonly tools: readonly ToolDefinition[];
  readonly validators: { readonly [tool: string]: { readonly input: Validator<any> } };
}

type InputOf<V> = V extends { input: Validator<infer T> } ? T : never;

/**
 * Picks the submit tool of `extract()` from a server mcp-gen generated: declare the result type
 * once in TypeScript, as the parameter of a function in a tool module, and `mcp-gen build`
 * emits its schema and validator. The value `extract()` returns has that type.
 *
 * @example
 * // examples/structured-output/submit.ts, built by mcp-gen as the server "structured-output":
 * //   export function submit_distill_spec({ name, purpose, workflow, confidence }: DistillAgentSpec) { … }
 * import * as distill from "../generated/structured-output/index.ts";
 * const spec = await agent.extract("Distill this agent …", submitTool(distill, "submit_distill_spec"));
 */
export function submitTool<G extends GeneratedTools, K extends keyof G["validators"] & string>(
  generated: G,
  name: K,
): SubmitTool<InputOf<G["validators"][K]>> {
  const definition = generated.tools.find((t) => t.name === name);
  const validators = generated.validators[name];
  if (!definition || !validators) throw new Error(`the generated module has no tool "${name}"`);
  return { definition, input: validators.input };
}

/** The submit tool as an agent tool: its call ends the run; the value is the validated arguments. */
export function submitAgentTool(submit: SubmitTool<unknown>): AgentTool {
  const name = submit.definition.name;
  const dialects = convertedDialects("submit", [submit.definition]);
  return {
    name,
    definition: submit.definition,
    input: submit.input,
    offer: (dialect) => offerOf(dialects, dialect, name),
    normalize: (dialect, args) => dialects.normalize(dialect, name, args),
    execute: async () => ({ content: [{ type: "text", text: "Received." }] }),
  };
}
