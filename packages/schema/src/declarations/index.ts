export {
  type ApiNames,
  type ApiServer,
  type ApiTool,
  apiNames,
  apiServer,
  functionIds,
  readKey,
} from "./api.ts";
export { constraintWords, propertyDoc, type WordingOptions } from "./doc-words.ts";
export { codeIdentifier, codeIdentifiers } from "./identifiers.ts";
export { type Described, describeApi, type RenderIndexOptions, renderIndex } from "./index-listing.ts";
export {
  type ApiPrompt,
  type ApiResource,
  type ApiResourceTemplate,
  type ReadFunction,
  readFunctions,
} from "./reads.ts";
export { type RenderDeclarationsOptions, renderDeclarations } from "./render.ts";
export { docLines, type PrintOptions, schemaToTs } from "./schema-to-ts.ts";
export {
  type CodeToolDescription,
  type CodeToolDescriptionOptions,
  codeToolDescription,
} from "./tool-description.ts";
export { jsdoc, propertyKey } from "./ts-text.ts";
