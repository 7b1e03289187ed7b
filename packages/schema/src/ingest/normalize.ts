import type { Contract, ContractTool, JsonSchema } from "../contract.ts";
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { isSchemaObject } from "../schema-utils.ts";
import { dialectOf, rewriteDialect } from "./dialect.ts";
import type { IngestIssue } from "./issues.ts";
import { rewriteRefs } from "./refs.ts";

/**
 * `pull`: the schema is written back normalised (no `$schema`: a contract is 2020-12 throughout;
 * unresolved `$ref`s kept as sent). `emit`: the in-memory form the emitters read for a contract
 * file that stays as written (a 2020-12 `$schema` is kept; unresolved `$ref`s are removed).
 */
export type NormalizeMode = "pull" | "emit";

/**
 * Normalises one schema from outside (a live server or a hand-written contract) into the
 * 2020-12 form the emitters read. Lossless rewrites are silent; anything kept without meaning
 * or that cannot be followed is reported with its pointer.
 *
 * @example
 * const issues: IngestIssue[] = [];
 * normalizeSchema({ $schema: "http://json-schema.org/draft-07/schema#", definitions: {} }, { mode: "pull", issues });
 */
export function normalizeSchema(
  schema: unknown,
  options: { mode: NormalizeMode; issues: IngestIssue[] },
): unknown {
  const { mode, issues } = options;
  const rewritten = rewriteDialect(schema, issues);
  let result = rewriteRefs({ ...rewritten, issues, drop: mode === "emit" });
  const declared = isSchemaObject(schema) ? schema.$schema : undefined;
  if (declared !== undefined && dialectOf(declared) === undefined) {
    issues.push({
      code: "MCPG125",
      pointer: { from: "/$schema", to: "" },
      message: `unknown "$schema" ${JSON.stringify(declared)}; read as JSON Schema 2020-12`,
    });
  }
  if (mode === "emit" && isSchemaObject(result) && dialectOf(declared) === "2020-12") {
    result = { $schema: declared, ...result };
  }
  return result;
}

const SLOTS = ["inputSchema", "outputSchema"] as const;

/**
 * Normalises every schema of a contract; issues become warnings naming the tool and the JSON
 * pointer in the contract file (`/tools/3/inputSchema/properties/x/format`).
 *
 * @example
 * const { contract, warnings } = normalizeContract(raw, { file: "schemas/memory.tools.json", mode: "emit" });
 */
export function normalizeContract(
  contract: Contract,
  options: { file: string; mode: NormalizeMode },
): { contract: Contract; warnings: Diagnostic[] } {
  const warnings: Diagnostic[] = [];
  const tools = contract.tools.map((tool, i): ContractTool => {
    const out: ContractTool = { ...tool };
    for (const slot of SLOTS) {
      if (tool[slot] === undefined) continue;
      const issues: IngestIssue[] = [];
      out[slot] = normalizeSchema(tool[slot], { mode: options.mode, issues }) as JsonSchema;
      for (const issue of issues) {
        const inner = options.mode === "pull" ? issue.pointer.to : issue.pointer.from;
        warnings.push(
          diagnostic(issue.code, `tool "${tool.name}": ${issue.message}`, {
            file: options.file,
            pointer: `/tools/${i}/${slot}${inner}`,
          }),
        );
      }
    }
    return out;
  });
  return { contract: { ...contract, tools }, warnings };
}
