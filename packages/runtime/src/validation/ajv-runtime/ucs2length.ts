import * as helper from "ajv/dist/runtime/ucs2length.js";
import { commonJs } from "../common-js.ts";

/**
 * `ajv/dist/runtime/ucs2length` as `require()` gives it to Ajv's standalone code: string length in code points (`minLength`, `maxLength`). Generated
 * `validators.ts` imports the helpers its validators call, each from its own entry, and nothing else.
 */
const helperModule: unknown = commonJs(helper);
export default helperModule;
