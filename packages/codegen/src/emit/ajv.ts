import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Diagnostic } from "../diagnostics.ts";

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** Ajv options shared by build-time compilation and the tests that run golden schemas. */
export function createAjv(options: { source: boolean; log?: (message: string) => void }): Ajv2020 {
  const log = options.log ?? (() => {});
  const ajv = new Ajv2020({
    allErrors: true,
    strict: "log",
    strictRequired: false,
    allowUnionTypes: true,
    validateFormats: true,
    code: options.source ? { source: true, esm: true, lines: false, optimize: 1 } : { optimize: 1 },
    logger: {
      log: () => {},
      warn: (...args: unknown[]) => log(args.map(String).join(" ")),
      error: (...args: unknown[]) => log(args.map(String).join(" ")),
    },
  });
  addFormats(ajv);
  return ajv;
}

export type { Diagnostic };
