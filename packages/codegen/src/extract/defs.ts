import type { IrParam, IrServer, IrType } from "../ir/types.ts";

/**
 * Puts the named definitions in `names` (tagged aliases used once) back where their one `ref` is,
 * with the annotations the use adds (a property's description, its own constraints).
 */
export function inlineDefinitions(server: IrServer, names: ReadonlySet<string>): void {
  if (names.size === 0) return;
  const definitions = server.definitions;
  const resolve = (type: IrType): IrType => {
    const inner = walk(type);
    if (inner.kind !== "ref" || !names.has(inner.name) || !definitions[inner.name]) return inner;
    const { kind: _k, name: _n, constraints, ...annotations } = inner;
    const definition = resolve(definitions[inner.name]!);
    const merged = { ...definition, ...annotations } as IrType;
    if (constraints) merged.constraints = { ...definition.constraints, ...constraints };
    return merged;
  };
  const walk = (type: IrType): IrType => {
    switch (type.kind) {
      case "array":
        return { ...type, items: resolve(type.items) };
      case "tuple":
        return {
          ...type,
          items: type.items.map(resolve),
          ...(type.rest ? { rest: resolve(type.rest) } : {}),
        };
      case "object":
        return {
          ...type,
          properties: type.properties.map((p) => ({ ...p, type: resolve(p.type) })),
          additional: type.additional === false ? false : resolve(type.additional),
        };
      case "union":
        return { ...type, members: type.members.map(resolve) };
      default:
        return type;
    }
  };
  const params = (list: IrParam[]) => {
    for (const param of list) param.type = resolve(param.type);
  };
  for (const tool of server.tools) {
    params(tool.params);
    if (tool.returns) tool.returns = resolve(tool.returns);
  }
  for (const template of server.resourceTemplates ?? []) params(template.params);
  for (const prompt of server.prompts ?? []) params(prompt.params);
  for (const item of [...(server.resources ?? []), ...(server.resourceTemplates ?? [])]) {
    if (item.result.kind === "json") item.result = { kind: "json", type: resolve(item.result.type) };
  }
  for (const name of Object.keys(definitions)) {
    if (names.has(name)) continue;
    definitions[name] = walk(definitions[name]!);
  }
  for (const name of names) delete definitions[name];
}
