export { expandUriTemplate } from "./expand.ts";
export { compileUriTemplate, MAX_MATCHED_URI_LENGTH, type UriTemplate } from "./match.ts";
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
