import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Diagnostic } from "./diagnostics.ts";
import { forEachSubschema, isSchemaObject } from "./schema-utils.ts";

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * An Ajv made for standalone code keeps each validator's source (`validate.source`), which
 * `ajv/dist/standalone` writes out; it never runs the validators it compiles. So the function Ajv
 * evaluates with `new Function` is a stub instead of the validator, and V8 does not parse every
 * validator's code a second time — except for the JSON Schema meta-schemas, which Ajv runs itself
 * to check the schemas it is given.
 */
function standaloneOnly(code: string, env?: { baseId?: string }): string {
  if (env?.baseId?.startsWith("https://json-schema.org/")) return code;
  return 'return function standaloneOnly() { throw new Error("compiled for standalone code only"); }';
}

/** Ajv options shared by build-time compilation and the tests that run golden schemas. */
export function createAjv(options: { source: boolean; log?: (message: string) => void }): Ajv2020 {
  const log = options.log ?? (() => {});
  const ajv = new Ajv2020({
    allErrors: true,
    strict: "log",
    strictRequired: false,
    allowUnionTypes: true,
    validateFormats: true,
    // Standalone code skips Ajv's optimisation passes: a third less compile time for code that is
    // about 10 % larger and validates alike (V8 drops the unused assignments those passes remove).
    code: options.source
      ? { source: true, esm: true, lines: false, optimize: false, process: standaloneOnly }
      : { optimize: 1 },
    logger: {
      log: () => {},
      warn: (...args: unknown[]) => log(args.map(String).join(" ")),
      error: (...args: unknown[]) => log(args.map(String).join(" ")),
    },
  });
  addFormats(ajv);
  // MCP 2026-07-28: an argument mirrored into an `Mcp-Param-*` header (an annotation for validation).
  ajv.addKeyword({ keyword: "x-mcp-header" });
  return ajv;
}

/** Keys `declareAnnotations` has already seen, per Ajv instance. */
const KNOWN_KEYS = new WeakMap<Ajv2020, Set<string>>();

/**
 * Declares to Ajv the annotation keywords and unknown formats a schema keeps (a pulled or
 * hand-written contract may carry vendor keywords); reading the contract reports them with
 * their pointers, so Ajv need not log them again. Names Ajv cannot take stay as they are.
 */
export function declareAnnotations(ajv: Ajv2020, schema: unknown): void {
  const known = KNOWN_KEYS.get(ajv) ?? new Set<string>();
  KNOWN_KEYS.set(ajv, known);
  const visit = (node: unknown): void => {
    if (!isSchemaObject(node)) return;
    for (const key in node) {
      if (known.has(key)) continue;
      known.add(key);
      // `getKeyword` is false for keywords without a definition of their own (`description`,
      // `default` …), which `addKeyword` then refuses: ask the rules first, and only once per name.
      if (ajv.getKeyword(key) !== false || ajv.RULES.keywords[key]) continue;
      try {
        ajv.addKeyword({ keyword: key });
      } catch {
        // Not a name Ajv accepts as a keyword: its strict mode logs it instead.
      }
    }
    if (typeof node.format === "string" && !(node.format in ajv.formats)) ajv.addFormat(node.format, true);
    forEachSubschema(node, visit);
  };
  visit(schema);
}

/**
 * A strict-mode note of Ajv as a message and the pointer (relative to the compiled schema)
 * it names, when it names one: `strict mode: missing type "object" … at "key#/properties/a"`.
 */
export function strictNote(message: string): { message: string; pointer: string } {
  const text = message.replace(/^strict mode: /, "");
  const match = / at (?:path )?"[^"#]*#([^"]*)"(?: \(strict\w+\))?$/.exec(text);
  if (!match) return { message: text, pointer: "" };
  return { message: text.slice(0, match.index), pointer: match[1]! };
}

export type { Diagnostic };
