import { type ApiServer, apiNames, functionIds, readKey } from "./api.ts";
import { readFunctions } from "./reads.ts";
import { renderDeclarations } from "./render.ts";

/** Options of `renderIndex`. */
export interface RenderIndexOptions {
  /** The name of the lookup function the index tells the model to call; default `describe`. */
  lookup?: string;
  /**
   * Longest listing of every function name, in characters (default 8,000, about 2k tokens): past
   * it, each server lists its topics (the first word of its function names) instead.
   */
  maxChars?: number;
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
  const functions = servers.map((s) => {
    const n = names.get(s.name)!;
    return { namespace: n.namespace, ids: functionIds(n) };
  });
  const count = functions.reduce((n, f) => n + f.ids.length, 0);
  const full = functions.map((f) => `${f.namespace}: ${f.ids.join(", ")}`).join("\n");
  if (full.length <= (options.maxChars ?? 8000)) {
    return (
      `// ${count} async functions, as namespace: functions. Before calling one, read its declaration with ` +
      `${lookup}("namespace.function") (or ${lookup}("namespace") for all of a server's).\n${full}\n`
    );
  }
  const topics = functions.map((f) => `${f.namespace} (${f.ids.length}): ${topicList(f.ids).join(", ")}`);
  return (
    `// ${count} async functions in ${servers.length} namespaces, listed by topic: a topic "x (3)" ` +
    `stands for 3 functions whose names start with x. Before calling any, read the declarations: ` +
    `${lookup}("namespace.x*") for a topic's functions, ${lookup}("namespace.function") for one.\n${topics.join("\n")}\n`
  );
}

/** The first word of each name (`account_get` → `account`), with how many names share it. */
function topicList(ids: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const topic = /^_*[A-Za-z0-9$]+?(?=_|[A-Z]|$)/.exec(id)?.[0] ?? id;
    groups.set(topic, [...(groups.get(topic) ?? []), id]);
  }
  return [...groups].map(([topic, members]) =>
    members.length === 1 ? members[0]! : `${topic} (${members.length})`,
  );
}

/** What `describeApi` answers: the declarations, or why there are none. */
export type Described = { ok: true; declarations: string } | { ok: false; error: string };

/**
 * The declarations of one server (`"smart_home"`), one tool (`"smart_home.search_devices"`) or the
 * tools whose identifiers start with a prefix (`"smart_home.search*"`), named by identifier or by
 * original name (`"smart-home"`, `"smart-home.search_devices"`).
 *
 * @example
 * describeApi(servers, "smart_home.search_devices") // { ok: true, declarations: "declare namespace smart_home {…" }
 */
export function describeApi(servers: readonly ApiServer[], query: string): Described {
  const names = apiNames(servers);
  const q = query.trim();
  for (const server of servers) {
    const n = names.get(server.name)!;
    // every function with the names it answers to: its identifier, and its tool's or resource's name
    const fns = [
      ...server.tools.map((t) => ({ names: [t.name], id: n.tools.get(t.name)! })),
      ...readFunctions(server).map((f) => ({ names: [f.name, readKey(f)], id: n.reads.get(readKey(f))! })),
    ];
    const render = (ids: ReadonlySet<string>) =>
      renderDeclarations([server], { only: (_, __, id) => ids.has(id), compact: true, forModel: true });
    for (const prefix of new Set([n.namespace, server.name])) {
      if (q === prefix)
        return {
          ok: true,
          declarations: renderDeclarations([server], { compact: true, forModel: true }),
        };
      if (!q.startsWith(`${prefix}.`)) continue;
      const rest = q.slice(prefix.length + 1);
      if (rest.endsWith("*")) {
        const start = rest.slice(0, -1);
        const matching = new Set(fns.filter((f) => f.id.startsWith(start)).map((f) => f.id));
        if (matching.size > 0) return { ok: true, declarations: render(matching) };
        return { ok: false, error: `${n.namespace} has no function starting with "${start}"` };
      }
      const fn = fns.find((f) => f.id === rest) ?? fns.find((f) => f.names.includes(rest));
      if (fn) return { ok: true, declarations: render(new Set([fn.id])) };
      return {
        ok: false,
        error: `${n.namespace} has no function "${rest}"${suggest(rest, functionIds(n))}`,
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
