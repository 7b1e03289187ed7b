/*
 * The model's reading of the compact form (`renderDeclarations(…, { compact: true, forModel: true })`):
 * what a code tool's description and `describeApi` carry. The checker keeps the compact form itself
 * (namespaces of `function`s returning `Promise<…>`); this text declares the same API in fewer
 * tokens, and is valid TypeScript too.
 */

/** The first line of the model's reading: the rule that replaces every `Promise<…>`. */
export const MODEL_RULE = "// Every function is async: it returns a Promise of the type shown; await it.\n";

/** One server in the model's reading (see `modelServer`). */
export interface ModelServer {
  /** The comment lines above the server (its title, the "no output schema" note). */
  head: string;
  namespace: string;
  /** Its named types (`type …;`, `interface … {…}`), each ending with a newline. */
  types: readonly string[];
  /**
   * Its functions as method signatures (`// doc\nf(args:{…}):T;\n`), each with its tool's traits
   * (`Read-only.`, `Destructive. Idempotent.`; empty for none and for read functions), which its
   * doc leaves to its group's heading.
   */
  methods: readonly { text: string; traits: string }[];
  /** Type names in use in the server, so that the interface's name hides none. */
  taken: ReadonlySet<string>;
}

/**
 * A server as the model reads it: a constant of an object type whose methods are the functions,
 * `declare const ns:{…}` (a word a function less than `function f(…)` in a namespace; a program
 * calls `ns.f(…)` alike). A server that declares types keeps them in a namespace of its name, with
 * the methods in an interface there, `declare const ns:ns.Api`, so that they name the types as they
 * are. The methods come grouped by their tools' traits, as GraphQL keeps queries apart from
 * mutations: first those without any, then under one heading a group (`// Read-only functions:`),
 * said once instead of on every tool.
 */
export function modelServer(server: ModelServer): string {
  const { head, namespace, types } = server;
  const methods = grouped(server.methods);
  if (types.length === 0) return `${head}declare const ${namespace}:{\n${methods.join("")}}\n`;
  let api = "Api";
  while (server.taken.has(api)) api = `${api}_`;
  return (
    `${head}declare namespace ${namespace} {\n${types.join("")}interface ${api}{\n${methods.join("")}}}\n` +
    `declare const ${namespace}:${namespace}.${api};\n`
  );
}

/** The order of the groups: no traits (and the read functions) first, then reading before writing. */
const GROUPS = ["", "Read-only.", "Idempotent.", "Destructive. Idempotent.", "Destructive."];

/** The methods grouped by traits (in their order within a group), each group under its heading. */
function grouped(methods: readonly { text: string; traits: string }[]): string[] {
  const rank = (traits: string) => (GROUPS.includes(traits) ? GROUPS.indexOf(traits) : GROUPS.length);
  const keys = [...new Set(methods.map((m) => m.traits))].sort((a, b) => rank(a) - rank(b));
  return keys.flatMap((traits) => [
    ...(traits === "" ? [] : [`// ${heading(traits)} functions:\n`]),
    ...methods.filter((m) => m.traits === traits).map((m) => m.text),
  ]);
}

/** `Destructive. Idempotent.` → `Destructive, idempotent`. */
const heading = (traits: string) =>
  traits
    .split(" ")
    .map((t, i) => (i === 0 ? t : t.toLowerCase()).replace(/\.$/, ""))
    .join(", ");
