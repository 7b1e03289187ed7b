import type { Contract, ContractTool } from "../contract.ts";
import { codeIdentifier, codeIdentifiers } from "./identifiers.ts";
import {
  type ApiPrompt,
  type ApiResource,
  type ApiResourceTemplate,
  type ReadFunction,
  readFunctionName,
  readFunctions,
} from "./reads.ts";

/** A tool as code mode declares it: the contract's (or `tools/list`'s) tool. */
export interface ApiTool extends ContractTool {
  /**
   * The tool sends a non-object result as `structuredContent: { result }` (mcp-gen's
   * `resultWrapped`, or `_meta["dev.mcp-gen/resultWrapped"]` in `tools/list`): its function
   * resolves to `result` itself.
   */
  resultWrapped?: boolean;
  _meta?: Record<string, unknown>;
}

/**
 * One server of a code-mode API: its name (the namespace), its tools, and the resources, resource
 * templates and prompts that become read functions (see `ApiResource`).
 */
export interface ApiServer {
  name: string;
  title?: string;
  tools: readonly ApiTool[];
  resources?: readonly ApiResource[];
  resourceTemplates?: readonly ApiResourceTemplate[];
  prompts?: readonly ApiPrompt[];
}

/** The identifiers of one server: its namespace, each tool's function and each read function's. */
export interface ApiNames {
  namespace: string;
  /** By tool name. */
  tools: ReadonlyMap<string, string>;
  /** By `readKey` (`resource:<name>`, `template:<name>`, `prompt:<name>`). */
  reads: ReadonlyMap<string, string>;
}

/** The key of a read function in `ApiNames.reads`. */
export const readKey = (f: Pick<ReadFunction, "kind" | "name">) => `${f.kind}:${f.name}`;

/**
 * A contract as a code-mode server: its tools with `resultWrapped`, its resources and templates
 * with what `x-mcp-gen` knows of their values and variables, its prompts with their typed arguments.
 */
export function apiServer(contract: Contract): ApiServer {
  const x = contract["x-mcp-gen"];
  const extras = x?.tools ?? {};
  const with_ = <T extends { name: string }>(list: readonly T[] | undefined, add: (t: T) => object) =>
    list && list.length > 0 ? list.map((t) => ({ ...t, ...add(t) })) : undefined;
  const resources = with_(contract.resources, (r) => {
    const result = x?.resources?.[r.name]?.result;
    return result ? { result } : {};
  });
  const resourceTemplates = with_(contract.resourceTemplates, (t) => {
    const e = x?.resourceTemplates?.[t.name];
    return {
      ...(e?.result ? { result: e.result } : {}),
      ...(e?.argumentsSchema ? { argumentsSchema: e.argumentsSchema } : {}),
    };
  });
  const prompts = with_(contract.prompts, (p) => {
    const schema = x?.prompts?.[p.name]?.argumentsSchema;
    return schema ? { argumentsSchema: schema } : {};
  });
  return {
    name: contract.server,
    ...(contract.title ? { title: contract.title } : {}),
    tools: contract.tools.map((t) => (extras[t.name]?.resultWrapped ? { ...t, resultWrapped: true } : t)),
    ...(resources ? { resources } : {}),
    ...(resourceTemplates ? { resourceTemplates } : {}),
    ...(prompts ? { prompts } : {}),
  };
}

/**
 * Identifiers of every server, tool and read function under the identifier rule (see
 * `codeIdentifier`): tools first, so adding a resource never renames a tool; a read function whose
 * name is taken is numbered (`read_x_2`).
 */
export function apiNames(servers: readonly ApiServer[]): Map<string, ApiNames> {
  const namespaces = codeIdentifiers(
    servers.map((s) => s.name),
    { namespace: true },
  );
  return new Map(
    servers.map((s) => {
      const tools = codeIdentifiers(s.tools.map((t) => t.name));
      const taken = new Set(tools.values());
      const reads = new Map<string, string>();
      for (const f of readFunctions(s)) {
        const base = codeIdentifier(readFunctionName(f));
        let id = base;
        for (let i = 2; taken.has(id); i++) id = `${base}_${i}`;
        taken.add(id);
        reads.set(readKey(f), id);
      }
      return [s.name, { namespace: namespaces.get(s.name)!, tools, reads }];
    }),
  );
}

/** Every function identifier of a server: its tools', then its read functions'. */
export const functionIds = (n: ApiNames): string[] => [...n.tools.values(), ...n.reads.values()];
