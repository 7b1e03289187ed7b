import { ts } from "#ts-morph";
import type { IrCoercion, IrCompletion, IrParam, IrType } from "../../ir/types.ts";
import type { Site } from "../context.ts";
import { extractParam, isToolContext } from "../tools.ts";
import { declaredParams, type TaggedFunction } from "./common.ts";

/** The parameters of a template or prompt: arguments that travel as strings. */
export interface StringArguments {
  params: IrParam[];
  contextIndex?: number;
  coerce: Record<string, IrCoercion>;
  /** Fixed completions of literal unions and enums. */
  complete: Record<string, IrCompletion>;
}

/**
 * Reads the parameters of a resource template or prompt. Each must be a named parameter whose type
 * can be converted from a string (string, string literals and enums, number, `Int`, boolean); a
 * `ToolContext` may sit anywhere. `what` names an argument in messages (`variable`, `argument`).
 */
export function stringArguments(fn: TaggedFunction, owner: string, what: string): StringArguments {
  const { candidate, doc, ctx, map } = fn;
  const result: StringArguments = { params: [], coerce: {}, complete: {} };
  for (const [index, param] of declaredParams(candidate).entries()) {
    const paramName = ts.isIdentifier(param.name) ? param.name.text : undefined;
    const site: Site = { node: param, path: `${owner} › parameter "${paramName ?? param.name.getText()}"` };
    const type = ctx.checker.getTypeAtLocation(param);
    if (isToolContext(type)) {
      if (result.contextIndex !== undefined)
        ctx.fail("MCPG027", "a function takes at most one ToolContext parameter", site);
      result.contextIndex = index;
      continue;
    }
    if (param.dotDotDotToken || !paramName) {
      return ctx.fail(
        "MCPG027",
        `each ${what} is a named parameter (no rest or destructured parameters)`,
        site,
        `declare one plain parameter per ${what}`,
      );
    }
    const ir = extractParam(param, paramName, type, doc, ctx, map, site);
    const kind = stringKind(ir.type);
    if (!kind) {
      return ctx.fail(
        "MCPG035",
        `a ${what} travels as a string; ${ctx.checker.typeToString(ctx.checker.getNonNullableType(type))} cannot be converted from one`,
        site,
        "use string, a union of string literals, a string enum, number, Int or boolean",
      );
    }
    if (kind !== "string") {
      if (kind === "number" || kind === "integer" || kind === "boolean") result.coerce[paramName] = kind;
      else result.complete[paramName] = { values: kind.values };
    }
    result.params.push(ir);
  }
  return result;
}

/** How a string becomes a value of `type`; `undefined` when it cannot. */
function stringKind(type: IrType): "string" | IrCoercion | { values: string[] } | undefined {
  switch (type.kind) {
    case "string":
      return type.date ? undefined : "string";
    case "number":
    case "integer":
    case "boolean":
      return type.kind;
    case "literal":
      return typeof type.value === "string" ? { values: [type.value] } : undefined;
    case "enum":
      return type.values.every((v) => typeof v === "string")
        ? { values: type.values as string[] }
        : undefined;
    default:
      return undefined;
  }
}
