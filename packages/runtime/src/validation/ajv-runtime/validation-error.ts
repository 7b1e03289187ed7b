import * as helper from "ajv/dist/runtime/validation_error.js";
import { commonJs } from "../common-js.ts";

/**
 * `ajv/dist/runtime/validation_error` as `require()` gives it to Ajv's standalone code: the error class of asynchronous schemas. Generated
 * `validators.ts` imports the helpers its validators call, each from its own entry, and nothing else.
 */
const helperModule: unknown = commonJs(helper);
export default helperModule;
