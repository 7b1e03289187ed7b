import * as helper from "ajv-formats/dist/formats.js";
import { commonJs } from "../common-js.ts";

/**
 * `ajv-formats/dist/formats` as `require()` gives it to Ajv's standalone code: ajv-formats' formats (`format`). Generated
 * `validators.ts` imports the helpers its validators call, each from its own entry, and nothing else.
 */
const helperModule: unknown = commonJs(helper);
export default helperModule;
