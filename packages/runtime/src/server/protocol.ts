import type { jsonSchemaValidator } from "@modelcontextprotocol/server";

/**
 * An error the SDK sends as a JSON-RPC error with this code and message as is (a
 * `ProtocolError` would put its own prefix into the message on the wire).
 */
export function protocolError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data !== undefined ? { data } : {}) });
}

/**
 * The SDK compiles a JSON schema at run time in one place on the server: the reply to a 2025
 * push-style elicitation, checked against the requested schema. Elicitation schemas are flat
 * (primitive properties only, spec "Elicitation"), so a small interpreter checks them instead
 * of a compiler.
 */
export const noRuntimeCompiler: jsonSchemaValidator = {
  getValidator(schema) {
    return (input) => {
      const problem = elicitationProblem(schema as ElicitationSchema, input);
      return problem === undefined
        ? { valid: true, data: input as never, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: problem };
    };
  },
};

interface ElicitationSchema {
  properties?: Record<string, { type?: string; enum?: unknown[]; items?: { enum?: unknown[] } } | undefined>;
  required?: string[];
}

export function elicitationProblem(schema: ElicitationSchema, input: unknown): string | undefined {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "expected an object";
  const values = input as Record<string, unknown>;
  for (const key of schema.required ?? []) if (!(key in values)) return `missing property "${key}"`;
  for (const [key, value] of Object.entries(values)) {
    const property = schema.properties?.[key];
    if (!property) continue;
    const type = property.type;
    const ok =
      type === "string"
        ? typeof value === "string"
        : type === "boolean"
          ? typeof value === "boolean"
          : type === "number"
            ? typeof value === "number"
            : type === "integer"
              ? Number.isInteger(value)
              : type === "array"
                ? Array.isArray(value)
                : true;
    if (!ok) return `property "${key}" must be of type ${type}`;
    if (property.enum && !property.enum.includes(value))
      return `property "${key}" must be one of the allowed values`;
  }
  return undefined;
}
