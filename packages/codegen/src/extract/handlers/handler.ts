import type { ts } from "ts-morph";
import type { IrType } from "../../ir/types.ts";
import type { ExtractContext, Site } from "../context.ts";

/** Maps a (sub)type; handlers call it for the types they contain. */
export type MapType = (type: ts.Type, site: Site) => IrType;

/**
 * One TypeScript construct → IR. The mapper asks each handler in order whether it
 * supports a type and lets the first that does create the IR.
 */
export interface TypeHandler {
  readonly name: string;
  supports(type: ts.Type, ctx: ExtractContext): boolean;
  create(type: ts.Type, ctx: ExtractContext, site: Site, map: MapType): IrType;
}
