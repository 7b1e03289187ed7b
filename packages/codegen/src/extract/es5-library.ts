import { ts } from "#ts-morph";

/**
 * Extraction from a program with only the ECMAScript 5 library (`lib.es5.d.ts`) instead of the
 * project's (ES2022's is 57 files): parsing and binding the libraries is most of a small build's
 * TypeScript time (bench/README.md, "Issue 23"). A schema depends on a library only where a type
 * reads a library type's members, so such a program serves unless the user's code does that:
 * `readsLibraryMembers` refuses the program before extraction, and the mapper marks the
 * extraction incomplete when it meets a library object type (`isLibraryObject`); either way the
 * extraction is done on the program with the project's libraries, as before.
 */
export const ES5_LIB = "lib.es5.d.ts";

/** Library aliases that are the same in every library (declared by es5, augmented by none). */
const SAME_IN_EVERY_LIB = new Set([
  "Partial",
  "Required",
  "Readonly",
  "Pick",
  "Record",
  "Exclude",
  "Extract",
  "Omit",
  "NonNullable",
  "Awaited",
  "Uppercase",
  "Lowercase",
  "Capitalize",
  "Uncapitalize",
  "NoInfer",
]);

/**
 * Library types the mapper reads by name or by element type, never by members (`Date` is a
 * date-time string, `T[]` an array of `T`, a tool's `Promise<T>` result is `T`) — unless a type
 * operator reads their members (`keyof Date`, `string[]["at"]`), which `readsLibraryMembers` refuses.
 */
const READ_BY_NAME = new Set(["Array", "ReadonlyArray", "Date", "Promise", "PromiseLike"]);

/**
 * Names the later libraries declare (Map, Set, Symbol …), and common ones of the host's (Node's type
 * packages, the DOM): a tool module naming one is not tried with ES5 alone, which would only find
 * the name unresolved and create the next program as well.
 */
const LATER_GLOBALS =
  /\b(Map|Set|WeakMap|WeakSet|WeakRef|Symbol|Iterable|Iterator|IterableIterator|AsyncIterable|AsyncIterator|AsyncIterableIterator|Generator|AsyncGenerator|Proxy|Reflect|BigInt|BigInt64Array|BigUint64Array|SharedArrayBuffer|Atomics|FinalizationRegistry|AggregateError|Intl|globalThis|NodeJS|Buffer|URL|URLSearchParams|TextEncoder|TextDecoder|AbortSignal|Blob|Request|Response|Headers|ReadableStream)\b/;

/** True when a source text names one of those globals (a cheap look before creating the program). */
export function namesLaterGlobals(text: string): boolean {
  return LATER_GLOBALS.test(text);
}

function isLibrarySymbol(symbol: ts.Symbol | undefined, program: ts.Program): boolean {
  const declarations = symbol?.getDeclarations() ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((d) => program.isSourceFileDefaultLibrary(d.getSourceFile()))
  );
}

/** Type positions whose result reads the members of the type inside them. */
function readsMembers(node: ts.Node): boolean {
  return (
    (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.KeyOfKeyword) ||
    ts.isIndexedAccessTypeNode(node) ||
    ts.isMappedTypeNode(node) ||
    ts.isConditionalTypeNode(node) ||
    ts.isTypeQueryNode(node)
  );
}

function underMemberRead(node: ts.Node): boolean {
  for (let at = node.parent; at && !ts.isStatement(at); at = at.parent) if (readsMembers(at)) return true;
  return false;
}

/** Keyword, array and tuple types: their members come from the library (`keyof string`). */
function isLibraryShaped(node: ts.TypeNode): boolean {
  return (
    ts.isArrayTypeNode(node) ||
    ts.isTupleTypeNode(node) ||
    ts.isLiteralTypeNode(node) ||
    ts.isTemplateLiteralTypeNode(node) ||
    (node.kind >= ts.SyntaxKind.FirstKeyword && node.kind <= ts.SyntaxKind.LastKeyword)
  );
}

/**
 * True when a type in the user's code (not declaration files, not `node_modules`) could read the
 * members of a library type, which differ between libraries: a library name other than the
 * aliases above and the types read by name, one of those under `keyof`, an indexed access, a
 * mapped or conditional type or `typeof`, or such an operator applied to a keyword, array, tuple or
 * literal type.
 */
export function readsLibraryMembers(program: ts.Program): boolean {
  const checker = program.getTypeChecker();
  const visit = (node: ts.Node): boolean => {
    let name: ts.Node | undefined;
    if (ts.isTypeReferenceNode(node)) name = node.typeName;
    else if (ts.isExpressionWithTypeArguments(node)) name = node.expression;
    else if (ts.isTypeQueryNode(node)) name = node.exprName;
    if (name) {
      let first = name;
      while (ts.isQualifiedName(first) || ts.isPropertyAccessExpression(first))
        first = ts.isQualifiedName(first) ? first.left : first.expression;
      const symbol = checker.getSymbolAtLocation(first);
      if (isLibrarySymbol(symbol, program)) {
        const text = symbol!.getName();
        if (!SAME_IN_EVERY_LIB.has(text) && !(READ_BY_NAME.has(text) && !underMemberRead(node))) return true;
      }
    }
    if (
      ts.isTypeOperatorNode(node) &&
      node.operator === ts.SyntaxKind.KeyOfKeyword &&
      isLibraryShaped(node.type)
    )
      return true;
    if (ts.isIndexedAccessTypeNode(node) && isLibraryShaped(node.objectType)) return true;
    return ts.forEachChild(node, visit) ?? false;
  };
  return program
    .getSourceFiles()
    .some((sf) => !sf.isDeclarationFile && !/[\\/]node_modules[\\/]/.test(sf.fileName) && visit(sf));
}

/**
 * A library object type the mapper would read member by member (`Error`, `PropertyDescriptor`):
 * in an es5-only program its members may not be the project's. Mapped types (`Partial<T>`) take
 * their members from `T`; the types read by name are not read member by member.
 */
export function isLibraryObject(type: ts.Type, program: ts.Program): boolean {
  if (!(type.flags & ts.TypeFlags.Object)) return false;
  if ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped) return false;
  const symbol = type.getSymbol();
  return !!symbol && !READ_BY_NAME.has(symbol.getName()) && isLibrarySymbol(symbol, program);
}
