import * as helper from "ajv/dist/runtime/equal.js";
import { commonJs } from "../common-js.ts";

/**
 * `ajv/dist/runtime/equal` as `require()` gives it to Ajv's standalone code: deep equality (`enum`, `const`, `uniqueItems` of objects). Generated
 * `validators.ts` imports the helpers its validators call, each from its own entry, and nothing else.
 */
const helperModule: unknown = commonJs(helper);
export default helperModule;
