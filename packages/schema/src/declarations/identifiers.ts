/**
 * The one identifier rule of code mode, shared by the declarations (what the model reads) and the
 * runtime (what it installs in the sandbox):
 *
 * 1. every character outside `[A-Za-z0-9_$]` becomes `_` (`smart-home` → `smart_home`,
 *    `files/read.text` → `files_read_text`); names stay otherwise as the server spells them;
 * 2. a name that starts with a digit gets a leading `_` (`2fa` → `_2fa`);
 * 3. a reserved word gets a trailing `_` (`delete` → `delete_`), and so does a server whose name is
 *    a global of the sandbox (`console`, `JSON`, `Math`, `Promise` … → `console_`), so that a
 *    namespace never merges with or hides the standard library;
 * 4. names that still collide are numbered in the order of their original names, sorted by code
 *    unit (`a-b` → `a_b`, `a.b` → `a_b_2`), so the mapping does not depend on listing order.
 */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if import in instanceof new null return super switch this throw true try " +
    "typeof var void while with yield let static implements interface package private protected " +
    "public await async of get set type declare namespace module arguments eval undefined"
  ).split(" "),
);

/** Globals of the sandbox's standard library a namespace must not merge with or hide. */
const GLOBALS = new Set(
  (
    "globalThis console JSON Math Reflect Proxy Intl Atomics Object Function Array String Number " +
    "Boolean Symbol BigInt Date RegExp Error TypeError RangeError SyntaxError ReferenceError " +
    "EvalError URIError AggregateError Promise Map Set WeakMap WeakSet WeakRef ArrayBuffer " +
    "SharedArrayBuffer DataView Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array " +
    "Int32Array Uint32Array Float32Array Float64Array BigInt64Array BigUint64Array NaN Infinity " +
    "isNaN isFinite parseInt parseFloat encodeURI decodeURI encodeURIComponent decodeURIComponent " +
    "escape unescape FinalizationRegistry"
  ).split(" "),
);

/** The identifier of one name, before collisions are numbered (steps 1–3 of the rule). */
export function codeIdentifier(name: string, options: { namespace?: boolean } = {}): string {
  let id = name.replace(/[^A-Za-z0-9_$]/g, "_") || "_";
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id) || (options.namespace === true && GLOBALS.has(id))) id = `${id}_`;
  return id;
}

/**
 * Identifiers of a list of names under the whole rule (with collisions numbered): a map from each
 * original name to its identifier.
 *
 * @example
 * codeIdentifiers(["a-b", "a.b", "list"]) // Map { "a-b" → "a_b", "a.b" → "a_b_2", "list" → "list" }
 */
export function codeIdentifiers(
  names: readonly string[],
  options: { namespace?: boolean } = {},
): Map<string, string> {
  const sorted = [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const wanted = new Map(sorted.map((n) => [n, codeIdentifier(n, options)]));
  const taken = new Set<string>();
  const result = new Map<string, string>();
  for (const name of sorted) {
    const base = wanted.get(name)!;
    let id = base;
    for (let i = 2; taken.has(id); i++) id = `${base}_${i}`;
    taken.add(id);
    result.set(name, id);
  }
  return new Map(names.map((n) => [n, result.get(n)!]));
}
