/**
 * JavaScript evaluated inside the engine before each program: the captured `console`, the API
 * namespaces (each function queues its JSON arguments for the host), and the check that turns the
 * return value into JSON. Plain ES2020 source text, run by QuickJS.
 */

/**
 * `(names, logLimit) => { drain, resolve, reject }`: installs `console` and the namespaces on the
 * global object. Nothing calls out of the engine: calls and console lines wait in a queue that
 * the host takes with `drain()` whenever the engine stops running. The queue is JSON text without
 * its brackets ("" when empty), one item per call `[id, function, arguments]` (id ≥ 1; `function`
 * the number of the function in the order of `names`, namespace by namespace) or
 * console line `[0, level, text]`; each item is serialised as the program makes it, and draining joins them
 * into one string. A call's promise lives in the engine; `resolve(id, json)` fulfils it with the parsed
 * answer, `reject(id, message, name)` rejects it with an error the program can catch. Console
 * output over `logLimit` characters is dropped here, with a note.
 */
export const INSTALL = `(function (names, logLimit) {
  "use strict";
  const waiting = new Map();
  // items as JSON text, joined when drained (no quadratic concatenation for a long queue)
  const queue = [];
  let next = 0;
  let logged = 0;
  let logFull = false;
  const show = (v) => {
    if (typeof v === "string") return v;
    if (v instanceof Error) return v.name + ": " + v.message;
    try { const s = JSON.stringify(v); if (s !== undefined) return s; } catch (e) {}
    return String(v);
  };
  const writer = (level) => function () {
    if (logFull) return;
    const parts = [];
    for (let i = 0; i < arguments.length; i++) parts.push(show(arguments[i]));
    let text = parts.join(" ");
    if (text.length > logLimit - logged) {
      logFull = true;
      text = text.slice(0, Math.max(0, logLimit - logged)) + "\\n[console output over the log limit of " + logLimit + " characters: the rest was dropped]";
    }
    logged += text.length;
    queue.push(JSON.stringify([0, level, text]));
  };
  // one executor for every call's promise (no closure per call): the call's id is \`next\`
  const keep = (resolve, reject) => { waiting.set(next, [resolve, reject]); };
  globalThis.console = Object.freeze({ log: writer("log"), info: writer("info"), warn: writer("warn"), error: writer("error") });
  // each function's number, in the order of \`names\`: a queued call names its function by it
  let index = 0;
  for (const [ns, fns] of names) {
    if (ns in globalThis) throw new Error("the API namespace \\"" + ns + "\\" would hide the global \\"" + ns + "\\": give the namespace another name");
    const functions = Object.create(null);
    for (const fn of fns) {
      // the item's middle, made once: the function's number (the host knows its namespace and
      // name); a call's own arguments go into the text as the JSON they already are
      const middle = "," + index++ + ",";
      functions[fn] = function (args) {
        const json = JSON.stringify(args === undefined ? {} : args);
        const id = ++next;
        queue.push("[" + id + middle + (json === undefined ? "null" : json) + "]");
        return new Promise(keep);
      };
    }
    Object.defineProperty(globalThis, ns, { value: Object.freeze(functions), enumerable: false, writable: false, configurable: false });
  }
  return {
    drain() {
      if (queue.length === 0) return "";
      const text = queue.length === 1 ? queue[0] : queue.join(",");
      queue.length = 0;
      return text;
    },
    resolve(id, json) {
      const callbacks = waiting.get(id);
      if (!callbacks) return;
      waiting.delete(id);
      callbacks[0](JSON.parse(json));
    },
    reject(id, message, name) {
      const callbacks = waiting.get(id);
      if (!callbacks) return;
      waiting.delete(id);
      const error = new Error(message);
      error.name = name;
      callbacks[1](error);
    },
  };
})`;

/**
 * `(value, limit) => string`: the return value as JSON, or a \`ResultError\` saying what is not
 * JSON (with its JSON pointer) or that it is over \`limit\` characters — checked while walking,
 * before a large value is serialised.
 */
export const TO_JSON = `(function (value, limit) {
  "use strict";
  const ancestors = [];
  let size = 0;
  const fail = (message) => { const e = new Error(message); e.name = "ResultError"; throw e; };
  const notJson = (pointer, what) => fail("the return value is not JSON: " + what + " at " + (pointer || "(root)") + "; return plain data (objects, arrays, strings, numbers, booleans, null)");
  const grow = (n) => {
    size += n;
    if (size > limit) fail("the return value is larger than the result limit of " + limit + " characters of JSON; return less (filter, summarise or slice it)");
  };
  const walk = (v, pointer) => {
    if (v === null) return grow(4);
    switch (typeof v) {
      case "string": return grow(v.length + 2);
      case "boolean": return grow(5);
      case "number": if (!Number.isFinite(v)) notJson(pointer, String(v)); return grow(String(v).length);
      case "undefined": return notJson(pointer, "undefined");
      case "bigint": return notJson(pointer, "a BigInt (convert it to a string)");
      case "function": return notJson(pointer, "a function");
      case "symbol": return notJson(pointer, "a symbol");
    }
    if (ancestors.includes(v)) notJson(pointer, "a circular reference");
    if (v instanceof Promise) notJson(pointer, "a Promise (await it first)");
    if (typeof v.toJSON === "function") return walk(v.toJSON(), pointer);
    ancestors.push(v);
    if (Array.isArray(v)) {
      grow(2 + v.length);
      for (let i = 0; i < v.length; i++) walk(v[i] === undefined ? null : v[i], pointer + "/" + i);
    } else {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        const name = v.constructor && v.constructor.name ? v.constructor.name : "non-plain";
        notJson(pointer, "a " + name + " object (convert it to a plain object or array)");
      }
      grow(2);
      for (const key of Object.keys(v)) {
        if (v[key] === undefined) continue;
        grow(key.length + 4);
        walk(v[key], pointer + "/" + key.replace(/~/g, "~0").replace(/\\//g, "~1"));
      }
    }
    ancestors.pop();
  };
  if (value === undefined) return "null";
  walk(value, "");
  const json = JSON.stringify(value);
  if (json.length > limit) grow(limit);
  return json;
})`;

/**
 * The program as the body of an async function. The opening sits on line 1 before the program's
 * first line, so engine line numbers are program line numbers (columns of line 1 are shifted by
 * its length).
 */
export function wrapProgram(program: string): string {
  return `${PROGRAM_OPENING}${program}\n})()`;
}

export const PROGRAM_OPENING = "(async function () {";
