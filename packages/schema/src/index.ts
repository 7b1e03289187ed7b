export { createAjv, declareAnnotations, strictNote } from "./ajv.ts";
export { canonicalSchema, canonicalShared } from "./canonical.ts";
export type {
  Contract,
  ContractArgumentsExtras,
  ContractCoercions,
  ContractCompletion,
  ContractIcon,
  ContractPrompt,
  ContractPromptExtras,
  ContractResource,
  ContractResourceAnnotations,
  ContractResourceExtras,
  ContractResourceResult,
  ContractResourceTemplate,
  ContractResourceTemplateExtras,
  ContractTool,
  ContractToolExtras,
  FunctionBinding,
  JsonSchema,
  ToolBinding,
} from "./contract.ts";
export { RESULT_WRAPPED_META } from "./contract.ts";
export {
  type ApiNames,
  type ApiServer,
  type ApiTool,
  apiNames,
  apiServer,
  type CodeToolDescription,
  type CodeToolDescriptionOptions,
  codeIdentifier,
  codeIdentifiers,
  codeToolDescription,
  constraintWords,
  type Described,
  describeApi,
  docLines,
  jsdoc,
  type PrintOptions,
  propertyDoc,
  propertyKey,
  type RenderDeclarationsOptions,
  type RenderIndexOptions,
  renderDeclarations,
  renderIndex,
  schemaToTs,
  type WordingOptions,
} from "./declarations/index.ts";
export {
  CODES,
  type Diagnostic,
  type DiagnosticCode,
  diagnostic,
  formatDiagnostic,
  McpGenError,
  type SourceLocation,
} from "./diagnostics.ts";
export { MCP_HEADER_KEYWORD, type McpHeader, type McpHeaderProblem, scanMcpHeaders } from "./headers.ts";
export {
  type Dialect as SchemaDialect,
  dialectOf,
  type Rewritten,
  rewriteDialect,
} from "./ingest/dialect.ts";
export type { IngestIssue } from "./ingest/issues.ts";
export { type NormalizeMode, normalizeContract, normalizeSchema } from "./ingest/normalize.ts";
export { rewriteRefs } from "./ingest/refs.ts";
export { isQuietAnnotation, KEYWORDS_2020_12, knownFormats } from "./ingest/vocabulary.ts";
export {
  ANNOTATION_KEYWORDS,
  bareSchema,
  type MetaSchemaError,
  metaSchemaErrors,
  withoutAnnotations,
} from "./meta-schema.ts";
export { toAnthropic } from "./providers/anthropic.ts";
export {
  type ConversionCache,
  conversionOf,
  convertContract,
  type ProviderConversion,
  type RenamedTool,
} from "./providers/convert.ts";
export { toGemini, toGeminiJsonSchema } from "./providers/gemini.ts";
export { hasRefs, inlineRefs, RECURSION_DEPTH, type RecursionCut } from "./providers/inline.ts";
export { mergeAllOf } from "./providers/merge.ts";
export {
  type Conversion,
  constraintText,
  DIALECTS,
  type Dialect,
  type DialectProblem,
  describeIn,
  type MovedConstraint,
  PROVIDER_TARGETS,
  type ProviderTarget,
  TARGET_DIALECTS,
  TARGETS,
  type Target,
} from "./providers/model.ts";
export { NAME_RULE, providerToolName } from "./providers/names.ts";
export { acceptsNull, nullable, toOpenAi, toOpenAiStrict } from "./providers/openai.ts";
export { isActive, type Plan } from "./providers/plan.ts";
export {
  GEMINI_JSON_SCHEMA,
  GEMINI_SCHEMA,
  OPENAI_STRICT,
  PROPERTY_NAME_RULES,
  TOOL_NAME_RULES,
} from "./providers/rules.ts";
export {
  ARRAY_SCHEMA_KEYWORDS,
  escapeToken,
  forEachSubschema,
  isNeverSchema,
  isSchemaObject,
  MAP_SCHEMA_KEYWORDS,
  mapSubschemas,
  resolveLocalRef,
  SINGLE_SCHEMA_KEYWORDS,
  typesOf,
} from "./schema-utils.ts";
export {
  type CompiledUriTemplate,
  compileUriTemplate,
  expandUriTemplate,
  isUriTemplate,
  type ParsedUriTemplate,
  parseUriTemplate,
  type UriTemplateProblem,
} from "./uri-template/index.ts";
