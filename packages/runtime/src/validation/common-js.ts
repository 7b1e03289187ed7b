/**
 * A CommonJS module's `module.exports` (what `require()` returns) from its namespace. Ajv's runtime
 * helpers are compiled ES modules (marked `__esModule`): Node makes the namespace's `default` the
 * whole `module.exports`, marker included; esbuild and Vite make the namespace itself look like
 * `module.exports`, its `default` being the module's own default export.
 */
export function commonJs(namespace: object): unknown {
  const exported = (namespace as { default?: { __esModule?: unknown } }).default;
  return exported?.__esModule === true ? exported : namespace;
}
