import { type ApiServer, apiNames, renderDeclarations } from "./render.ts";

/** Options of `renderIndex`. */
export interface RenderIndexOptions {
  /** The name of the lookup function the index tells the model to call; default `describe`. */
  lookup?: string;
}

/**
 * A compact index of a large API, for a model that cannot read every declaration at once: one
 * line per server with its namespace and tool functions, and how to read the declarations of
 * one server or tool (`describe("ns")`, `describe("ns.tool")`, answered by `describeApi`).
 *
 * @example
 * renderIndex(servers) // "// 3 functions …\nsmart_home: execute_commands, interpret_command, search_devices\n"
 */
export function renderIndex(servers: readonly ApiServer[], options: RenderIndexOptions = {}): string {
  const lookup = options.lookup ?? "describe";
  const names = apiNames(servers);
  const count = servers.reduce((n, s) => n + s.tools.length, 0);
  const lines = servers.map((s) => {
    const n = names.get(s.name)!;
    return `${n.namespace}: ${s.tools.map((t) => n.tools.get(t.name)).join(", ")}`;
  });
  return (
    `// ${count} async functions, as namespace: functions. Before calling one, read its declaration with ` +
    `${lookup}("namespace.function") (or ${lookup}("namespace") for all of a server's).\n${lines.join("\n")}\n`
  );
}

/** What `describeApi` answers: the declarations, or why there are none. */
export type Described = { ok: true; declarations: string } | { ok: false; error: string };

/**
 * The declarations of one server (`"smart_home"`) or one tool (`"smart_home.search_devices"`),
 * named by identifier or by original name (`"smart-home"`, `"smart-home.search_devices"`).
 *
 * @example
 * describeApi(servers, "smart_home.search_devices") // { ok: true, declarations: "declare namespace smart_home {…" }
 */
export function describeApi(servers: readonly ApiServer[], query: string): Described {
  const names = apiNames(servers);
  const q = query.trim();
  for (const server of servers) {
    const n = names.get(server.name)!;
    for (const prefix of new Set([n.namespace, server.name])) {
      if (q === prefix) return { ok: true, declarations: renderDeclarations([server]) };
      if (!q.startsWith(`${prefix}.`)) continue;
      const rest = q.slice(prefix.length + 1);
      const tool = server.tools.find((t) => t.name === rest || n.tools.get(t.name) === rest);
      if (tool) {
        const declarations = renderDeclarations(servers, {
          only: (s, t) => s === server.name && t === tool.name,
        });
        return { ok: true, declarations };
      }
      return {
        ok: false,
        error: `${n.namespace} has no function "${rest}"${suggest(rest, [...n.tools.values()])}`,
      };
    }
  }
  const all = [...names.values()].map((n) => n.namespace);
  return { ok: false, error: `no namespace "${q.split(".")[0]}"${suggest(q.split(".")[0] ?? "", all)}` };
}

function suggest(word: string, candidates: readonly string[]): string {
  const lower = word.toLowerCase();
  const close = candidates.filter((c) => {
    const l = c.toLowerCase();
    return l.includes(lower) || lower.includes(l) || distance(l, lower) <= Math.max(1, lower.length / 4);
  });
  return close.length > 0
    ? `; did you mean ${close
        .slice(0, 5)
        .map((c) => `"${c}"`)
        .join(", ")}?`
    : "";
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
