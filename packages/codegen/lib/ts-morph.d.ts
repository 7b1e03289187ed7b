// The names `lib/ts-morph.js` exports, with ts-morph's own types (`ts` is the TypeScript namespace).
export { Project, ts } from "ts-morph";
