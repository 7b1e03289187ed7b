import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { createValidator, type RawValidate, type Validator } from "../../validation/validator.ts";

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** One Ajv instance per tool source: schemas from different servers never share ids. */
export function createSchemaCompiler(): (schema: unknown, subject: string) => CompiledValidator {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    allowUnionTypes: true,
    validateFormats: true,
    logger: false,
  });
  addFormats(ajv);
  return (schema, subject) => {
    try {
      const raw = ajv.compile(portable(schema)) as RawValidate;
      return { validator: createValidator(raw, subject) };
    } catch (error) {
      return {
        validator: createValidator(acceptAll, subject),
        warning: `the schema of ${subject} does not compile (${(error as Error).message}); the server validates alone`,
      };
    }
  };
}

/** A validator, and why it accepts everything when the schema could not be compiled. */
export interface CompiledValidator {
  validator: Validator<unknown>;
  warning?: string;
}

const acceptAll: RawValidate = () => true;

/**
 * Schemas arrive normalised to 2020-12; a `$schema` left on them (2020-12 itself) and a root id
 * (which would clash between tools of one compiler) are dropped before compiling.
 */
function portable(schema: unknown): Record<string, unknown> {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return { type: "object" };
  const { $schema: _schema, $id: _id, ...rest } = schema as Record<string, unknown>;
  return rest;
}
