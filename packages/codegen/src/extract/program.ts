import type { ts } from "ts-morph";
import type { ResolvedConfig } from "../config/load.ts";
import { createProject } from "./project.ts";
import { lightRuntimeEntry, verifyLightImports, withRuntimePath } from "./runtime-entry.ts";

/**
 * The TypeScript program the tools are extracted from: the tool modules and what they import.
 * The runtime's root entry resolves to a lighter one when the tool modules only import what that
 * exports (see `lightRuntimeEntry`); when another file of the program uses more of the runtime,
 * the program is created again with the root entry as it is.
 *
 * @example
 * const program = createExtractionProgram(config, ["/abs/src/tools.ts"]);
 */
export function createExtractionProgram(config: ResolvedConfig, files: readonly string[]): ts.Program {
  const project = createProject(config);
  const sourceFiles = files.map((file) => project.addSourceFileAtPath(file).compilerNode);
  const light = lightRuntimeEntry(project, sourceFiles);
  if (!light) return project.getProgram().compilerObject;
  project.compilerOptions.set({ paths: withRuntimePath(project.compilerOptions.get().paths, light) });
  const program = project.getProgram().compilerObject;
  if (verifyLightImports(program, light, project.getModuleResolutionHost())) return program;
  const full = createProject(config);
  for (const file of files) full.addSourceFileAtPath(file);
  return full.getProgram().compilerObject;
}
