import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { INSTALL } from "./prelude.ts";

/** The prelude's functions a run calls from the host (see `INSTALL`). */
export interface InstalledBridge {
  /** `resolve(id, json)`: fulfils a call's promise with the parsed answer. */
  resolve: QuickJSHandle;
  /** `reject(id, message, name)`: rejects it with an error the program can catch. */
  reject: QuickJSHandle;
  /** `drain()`: the queued calls and console lines as JSON text without brackets ("" when none). */
  drain: QuickJSHandle;
}

/**
 * Evaluates the prelude in a fresh context: `console` and the API's namespaces on the global
 * object. Throws what the engine threw (a namespace that would hide a global, out of memory).
 */
export function installBridge(
  ctx: QuickJSContext,
  options: { api: readonly (readonly [string, readonly string[]])[]; logBytes: number },
): InstalledBridge {
  const install = ctx.unwrapResult(ctx.evalCode(INSTALL, "prelude.js"));
  const names = ctx.newArray();
  options.api.forEach(([ns, fns], i) => {
    const entry = ctx.newArray();
    ctx.setProp(entry, 0, ctx.newString(ns));
    const list = ctx.newArray();
    for (const [j, fn] of fns.entries()) ctx.setProp(list, j, ctx.newString(fn));
    ctx.setProp(entry, 1, list);
    ctx.setProp(names, i, entry);
    entry.dispose();
    list.dispose();
  });
  const logLimit = ctx.newNumber(options.logBytes);
  const installed = ctx.callFunction(install, ctx.undefined, names, logLimit);
  for (const handle of [install, names, logLimit]) handle.dispose();
  const bridge = ctx.unwrapResult(installed);
  const functions = {
    resolve: ctx.getProp(bridge, "resolve"),
    reject: ctx.getProp(bridge, "reject"),
    drain: ctx.getProp(bridge, "drain"),
  };
  bridge.dispose();
  return functions;
}
