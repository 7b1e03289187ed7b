import path from "node:path";
import type { Contract } from "@mcp-gen/schema";
import {
  convertContract,
  type Diagnostic,
  diagnostic,
  McpGenError,
  type MovedConstraint,
  NAME_RULE,
  TARGETS,
  type Target,
  TOOL_NAME_RULES,
} from "@mcp-gen/schema";
import type { ResolvedConfig } from "../config/load.ts";
import { contractFromIr } from "../contract/from-ir.ts";
import { dialectFileContent } from "../emit/providers/index.ts";
import { extract } from "../extract/index.ts";
import { CONTRACT_SUFFIX, readContracts } from "../pipeline/contracts.ts";
import { checkDialectFile, DIALECT_FILES } from "./rules/index.ts";
import { checkMcpRules } from "./rules/mcp.ts";

/** What `mcp-gen lint` found in one contract. */
export interface ContractLint {
  server: string;
  /** Contract file, relative to the project root. */
  file: string;
  tools: number;
  diagnostics: Diagnostic[];
  moved: MovedConstraint[];
}

export interface LintReport {
  targets: Target[];
  contracts: ContractLint[];
  /** Problems that kept a contract from being read or extracted at all. */
  diagnostics: Diagnostic[];
}

/**
 * Lints one contract against MCP's tool rules and each target's rules: every problem is a
 * diagnostic with the contract's JSON pointer and the rule id; OpenAI strict fallbacks are
 * warnings; constraints a target moved into descriptions are listed.
 *
 * @example
 * const lint = lintContract(readContract("schemas/x.tools.json"), { file: "schemas/x.tools.json", targets: ["gemini"] });
 */
export function lintContract(
  contract: Contract,
  options: { file: string; targets: readonly Target[] },
): ContractLint {
  const { file } = options;
  const diagnostics: Diagnostic[] = checkMcpRules(contract).map((v) =>
    diagnostic("MCPG061", `[${v.rule}] ${v.message}`, { file, pointer: v.pointer, severity: v.severity }),
  );
  const conversion = convertContract(contract, options.targets);
  for (const p of conversion.problems)
    diagnostics.push(
      diagnostic("MCPG060", `[${p.rule}] ${p.dialect}: tool "${p.tool}": ${p.message}`, {
        file,
        pointer: p.pointer,
      }),
    );
  for (const f of conversion.fallbacks) {
    const i = contract.tools.findIndex((t) => t.name === f.tool);
    for (const reason of f.reasons) {
      const [pointer, ...text] = reason.split(": ");
      diagnostics.push(
        diagnostic(
          "MCPG110",
          `[openai-strict/fallback] tool "${f.tool}" is sent with strict: false: ${text.join(": ")}`,
          {
            file,
            pointer: pointer || `/tools/${i}/inputSchema`,
          },
        ),
      );
    }
  }
  for (const r of conversion.renamed) {
    const i = contract.tools.findIndex((t) => t.name === r.tool);
    diagnostics.push(
      diagnostic(
        "MCPG111",
        `[${NAME_RULE[r.dialect]}/tool-name] ${r.dialect}: tool "${r.tool}" is sent as "${r.name}": the name does not match ${TOOL_NAME_RULES[NAME_RULE[r.dialect]].source}`,
        { file, pointer: `/tools/${i}/name` },
      ),
    );
  }
  for (const dialect of conversion.dialects) {
    for (const v of checkDialectFile(dialect, dialectFileContent(conversion, dialect)))
      diagnostics.push(
        diagnostic(
          "MCPG060",
          `[${v.rule}] the ${DIALECT_FILES[dialect]} definition breaks a rule: ${v.message} (a bug in mcp-gen)`,
          {
            file,
            pointer: v.pointer,
          },
        ),
      );
  }
  return {
    server: contract.server,
    file,
    tools: contract.tools.length,
    diagnostics,
    moved: conversion.moved,
  };
}

/**
 * `mcp-gen lint`: lints the contract of every configured TypeScript server (freshly extracted) and
 * every other contract in the schemas folder (hand-written or pulled), against MCP's rules and the
 * rules of `targets` (default: the config's).
 *
 * @example
 * const report = await lintProject(await loadConfig(), { targets: ["openai"] });
 */
export async function lintProject(
  config: ResolvedConfig,
  options: { servers?: string[]; targets?: readonly Target[] } = {},
): Promise<LintReport> {
  const targets = [...(options.targets ?? config.targets ?? TARGETS)];
  const report: LintReport = { targets, contracts: [], diagnostics: [] };
  const rel = (file: string) => path.relative(config.root, file).split(path.sep).join("/");
  const found: { file: string; contract: Contract }[] = [];
  try {
    const { servers } = await extract(config, options.servers);
    for (const server of servers)
      found.push({
        file: path.join(config.schemasDir, `${server.name}${CONTRACT_SUFFIX}`),
        contract: contractFromIr(server),
      });
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    report.diagnostics.push(...error.diagnostics);
  }
  try {
    found.push(...readContracts(config, options.servers, report.diagnostics));
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    report.diagnostics.push(...error.diagnostics);
  }
  for (const { file, contract } of found)
    report.contracts.push(lintContract(contract, { file: rel(file), targets }));
  return report;
}
