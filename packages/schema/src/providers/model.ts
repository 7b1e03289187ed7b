import type { JsonSchema } from "../contract.ts";
import { RECURSION_DEPTH } from "./inline.ts";
import type { Dialect } from "./targets.ts";

export {
  DIALECTS,
  type Dialect,
  PROVIDER_TARGETS,
  type ProviderTarget,
  TARGET_DIALECTS,
  TARGETS,
  type Target,
} from "./targets.ts";

/**
 * What a dialect did to a constraint it cannot express: `described` (moved into the description
 * text), `relaxed` (replaced by a looser keyword, e.g. `oneOf` → `anyOf`), `encoded` (the value
 * travels as JSON text and is parsed back by `normalizeArguments`), `narrowed` (the model is offered
 * less than the contract allows, e.g. an object closed for OpenAI strict), `bounded` (a recursive
 * type expanded a few levels, any value below). The validators still
 * enforce the contract in every case.
 */
export interface MovedConstraint {
  dialect: Dialect;
  tool: string;
  /** JSON pointer into the contract, through the input schema as the model sees it (references expanded). */
  pointer: string;
  keyword: string;
  action: "described" | "relaxed" | "encoded" | "narrowed" | "bounded";
  text: string;
}

/** A rule of a dialect that a tool cannot meet (the build stops for configured targets). */
export interface DialectProblem {
  dialect: Dialect;
  tool: string;
  pointer: string;
  /** Rule id, e.g. `gemini/no-recursion`. */
  rule: string;
  message: string;
}

/** Collects what one tool's conversion to one dialect moved, and how to normalize back. */
export class Conversion {
  readonly moved: MovedConstraint[] = [];
  readonly problems: DialectProblem[] = [];
  constructor(
    readonly dialect: Dialect,
    readonly tool: string,
    /** Pointer of the tool's input schema in the contract, e.g. `/tools/0/inputSchema`. */
    readonly base: string,
  ) {}

  move(pointer: string, keyword: string, action: MovedConstraint["action"], text: string): void {
    this.moved.push({
      dialect: this.dialect,
      tool: this.tool,
      pointer: `${this.base}${pointer}`,
      keyword,
      action,
      text,
    });
  }

  /** Records where a recursive type stopped being expanded. */
  bounded(cuts: readonly { pointer: string; ref: string }[]): void {
    for (const cut of cuts)
      this.move(
        cut.pointer,
        "$ref",
        "bounded",
        `${cut.ref} expanded ${RECURSION_DEPTH} levels deep; any value below`,
      );
  }

  fail(pointer: string, rule: string, message: string): void {
    this.problems.push({
      dialect: this.dialect,
      tool: this.tool,
      pointer: `${this.base}${pointer}`,
      rule,
      message,
    });
  }
}

/** Appends sentences to a schema's description (creating it when absent). */
export function describeIn(schema: JsonSchema, sentences: readonly string[]): void {
  if (sentences.length === 0) return;
  const text = sentences.map((s) => (/[.!?]$/.test(s) ? s : `${s}.`)).join(" ");
  schema.description =
    typeof schema.description === "string" && schema.description ? `${schema.description} ${text}` : text;
}

const json = (v: unknown) => JSON.stringify(v);

/** A constraint as a sentence a model can follow, e.g. `Must be ≥ 1`. */
export function constraintText(keyword: string, value: unknown): string {
  switch (keyword) {
    case "minimum":
      return `Must be >= ${json(value)}`;
    case "maximum":
      return `Must be <= ${json(value)}`;
    case "exclusiveMinimum":
      return `Must be > ${json(value)}`;
    case "exclusiveMaximum":
      return `Must be < ${json(value)}`;
    case "multipleOf":
      return `Must be a multiple of ${json(value)}`;
    case "minLength":
      return `At least ${json(value)} characters`;
    case "maxLength":
      return `At most ${json(value)} characters`;
    case "pattern":
      return `Must match the regular expression ${json(value)}`;
    case "format":
      return `Format: ${String(value)}`;
    case "minItems":
      return `At least ${json(value)} items`;
    case "maxItems":
      return `At most ${json(value)} items`;
    case "uniqueItems":
      return value === true ? "Items must be unique" : "Items need not be unique";
    case "minProperties":
      return `At least ${json(value)} properties`;
    case "maxProperties":
      return `At most ${json(value)} properties`;
    case "const":
      return `Must be ${json(value)}`;
    case "enum":
      return `One of: ${(value as unknown[]).map(json).join(", ")}`;
    case "default":
      return `Default: ${json(value)}`;
    case "examples":
      return `Example: ${json((value as unknown[])[0])}`;
    case "deprecated":
      return "Deprecated";
    default:
      return `Must also satisfy ${keyword} ${json(value)}`;
  }
}
