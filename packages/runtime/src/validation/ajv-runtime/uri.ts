import * as helper from "ajv/dist/runtime/uri.js";
import { commonJs } from "../common-js.ts";

/**
 * `ajv/dist/runtime/uri` as `require()` gives it to Ajv's standalone code: the URI resolver (fast-uri). Generated
 * `validators.ts` imports the helpers its validators call, each from its own entry, and nothing else.
 */
const helperModule: unknown = commonJs(helper);
export default helperModule;
