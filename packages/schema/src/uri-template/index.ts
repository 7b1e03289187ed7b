export { expandUriTemplate } from "./expand.ts";
export { type CompiledUriTemplate, compileUriTemplate, MAX_MATCHED_URI_LENGTH } from "./match.ts";
export {
  isUriTemplate,
  isUriTemplateProblem,
  type ParsedUriTemplate,
  parseUriTemplate,
  parseUriTemplateOrThrow,
  type UriTemplateOperator,
  type UriTemplatePart,
  type UriTemplateProblem,
  type UriTemplateVariable,
} from "./parse.ts";
