import { ts } from "#ts-morph";

export interface DocTag {
  name: string;
  text: string;
  node?: ts.Node;
}

export interface DocInfo {
  summary?: string;
  tags: DocTag[];
  /** `@param` texts by parameter name. */
  params: Map<string, string>;
}

const EMPTY: DocInfo = { tags: [], params: new Map() };

function clean(text: string | undefined): string {
  return (text ?? "").replace(/\r\n/g, "\n").trim();
}

/** The JSDoc of a function, method or variable-held arrow function. */
export function docOfDeclaration(node: ts.Node): DocInfo {
  const holder = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const jsDocs = (holder as { jsDoc?: ts.JSDoc[] }).jsDoc;
  if (!jsDocs || jsDocs.length === 0) return EMPTY;
  const doc = jsDocs[jsDocs.length - 1]!;
  const summary = clean(ts.getTextOfJSDocComment(doc.comment));
  const tags: DocTag[] = [];
  const params = new Map<string, string>();
  for (const tag of doc.tags ?? []) {
    const text = clean(ts.getTextOfJSDocComment(tag.comment)).replace(/^-\s*/, "");
    if (ts.isJSDocParameterTag(tag)) {
      params.set(tag.name.getText(), text);
      continue;
    }
    tags.push({ name: tag.tagName.text, text, node: tag });
  }
  return { ...(summary ? { summary } : {}), tags, params };
}

/** The JSDoc of a property (or any symbol), read through the checker so inherited docs count. */
export function docOfSymbol(symbol: ts.Symbol, checker: ts.TypeChecker): DocInfo {
  const summary = clean(ts.displayPartsToString(symbol.getDocumentationComment(checker)));
  const tags = symbol.getJsDocTags(checker).map((t) => ({
    name: t.name,
    text: clean(ts.displayPartsToString(t.text)).replace(/^-\s*/, ""),
  }));
  return { ...(summary ? { summary } : {}), tags, params: new Map() };
}

export function hasTag(doc: DocInfo, name: string): boolean {
  return doc.tags.some((t) => t.name === name);
}

export function tagText(doc: DocInfo, name: string): string | undefined {
  return doc.tags.find((t) => t.name === name)?.text;
}
