import type { CallToolResult } from "@modelcontextprotocol/client";
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import { ToolError } from "../../tool-error.ts";
import type { RelayedCall } from "./upstream-relay.ts";

/** The SDK's JSON Schema validator, and its compiled output schemas by tool name. */
export interface OutputCheck {
  provider: AjvJsonSchemaValidator;
  byTool: Map<string, ReturnType<AjvJsonSchemaValidator["getValidator"]>>;
}

/**
 * What `client.callTool` checks and the manual rounds skip (`client.request`): a tool with an
 * output schema returns structured content that matches it, unless it failed.
 */
export function checkOutput(outputs: OutputCheck, call: RelayedCall, result: CallToolResult): void {
  if (result.structuredContent === undefined)
    throw new ToolError(`Tool ${call.name} has an output schema but did not return structured content`);
  let validate = outputs.byTool.get(call.name);
  if (!validate) {
    validate = outputs.provider.getValidator(call.outputSchema as never);
    outputs.byTool.set(call.name, validate);
  }
  const checked = validate(result.structuredContent);
  if (!checked.valid)
    throw new ToolError(
      `Structured content does not match the tool's output schema: ${checked.errorMessage}`,
    );
}
