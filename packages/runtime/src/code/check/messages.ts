import type * as TS from "typescript-5";
import { API_FILE } from "./service.ts";
import type { TypeScriptApi } from "./typescript.ts";

/** Globals of Node, browsers and Deno a program may reach for: the sandbox has none of them. */
const HOST_GLOBALS = new Set(
  (
    "fetch require process module exports __dirname __filename Buffer global window self document " +
    "navigator location XMLHttpRequest WebSocket setTimeout setInterval clearTimeout clearInterval " +
    "setImmediate queueMicrotask structuredClone Deno Bun localStorage sessionStorage crypto " +
    "performance URL URLSearchParams TextEncoder TextDecoder atob btoa alert importScripts"
  ).split(" "),
);

/** TypeScript's "Cannot find name" family (plain, "Did you mean", "install @types/node", "change lib"). */
const CANNOT_FIND = new Set([2304, 2552, 2580, 2581, 2582, 2583, 2584, 2591, 2592, 2593]);

export interface WordingContext {
  ts: TypeScriptApi;
  checker: TS.TypeChecker;
  source: TS.SourceFile;
  /** Namespaces of the API with their functions, for hints. */
  api: ReadonlyMap<string, readonly string[]>;
}

/** The sentence a model reads for a refused host capability. */
export function unavailable(name: string, api: ReadonlyMap<string, readonly string[]>): string {
  return (
    `${name} is not available: the program runs in a sandbox whose only capabilities are the ` +
    `declared functions (${[...api.keys()].map((n) => `${n}.*`).join(", ")}) and console`
  );
}

/**
 * A TypeScript diagnostic worded for a model: the chain flattened to one line, host globals
 * refused by name, namespaces or functions listed when a name is not found, and the expected
 * argument type of the API function whose arguments are wrong.
 */
export function wordDiagnostic(d: TS.Diagnostic, ctx: WordingContext): string {
  const { ts } = ctx;
  let text = ts
    .flattenDiagnosticMessageText(d.messageText, "\n")
    .split("\n")
    .map((l) => l.trim())
    .join(" ");
  const quoted = /'([^']+)'/.exec(text)?.[1];
  if (CANNOT_FIND.has(d.code) && quoted !== undefined) {
    if (HOST_GLOBALS.has(quoted)) return unavailable(quoted, ctx.api);
    text = text.replace(/ Do you need to (install|change).*$/, "");
    return `${text} The API's namespaces: ${[...ctx.api.keys()].join(", ")}.`;
  }
  if (d.code === 2339 && !text.includes("Did you mean")) {
    const ns = /on type 'typeof ([A-Za-z0-9_$]+)'/.exec(text)?.[1];
    const functions = ns ? ctx.api.get(ns) : undefined;
    if (functions && functions.length <= 30) text += ` Its functions: ${functions.join(", ")}.`;
  }
  // TypeScript says a missed `await` in related information, which a flattened message leaves out
  const forgot = d.relatedInformation?.find((r) => /forget to use 'await'/.test(String(r.messageText)));
  if (forgot && !text.includes("forget to use 'await'"))
    text += ` ${ts.flattenDiagnosticMessageText(forgot.messageText, " ")}`;
  return d.start === undefined ? text : text + argumentHint(d.start, ctx);
}

/** ` (argument of ns.fn, which takes { … })` when the position is inside an API call's arguments. */
function argumentHint(position: number, ctx: WordingContext): string {
  const { ts, checker } = ctx;
  let node: TS.Node | undefined = findNode(ts, ctx.source, position);
  while (node && !ts.isSourceFile(node)) {
    if (ts.isCallExpression(node) && node.arguments.some((a) => a.pos <= position && position < a.end)) {
      const declaration = checker.getResolvedSignature(node)?.getDeclaration();
      if (declaration?.getSourceFile().fileName === API_FILE) {
        const param = declaration.parameters[0];
        const expected = param ? checker.typeToString(checker.getTypeAtLocation(param)) : "no arguments";
        return ` (argument of ${node.expression.getText(ctx.source)}, which takes ${expected})`;
      }
    }
    node = node.parent;
  }
  return "";
}

function findNode(ts: TypeScriptApi, node: TS.Node, position: number): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (n: TS.Node) => {
    if (n.pos <= position && position < n.end) {
      found = n;
      ts.forEachChild(n, visit);
    }
  };
  ts.forEachChild(node, visit);
  return found;
}
