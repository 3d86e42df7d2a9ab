/**
 * The commands, in the order `--help` lists them: each one's declaration (`<name>/command.ts`, loaded for `--help`)
 * with its run module (`<name>/run.ts`, loaded only when the command runs). A new command is a folder and one entry
 * here; the compiler checks that the declaration's action and the run module agree.
 */

import type { Command } from 'commander';
import type { CommandContext, CommandDeclaration } from '../io/command-options.ts';
import { declareBench } from './bench/command.ts';
import { declareCensus } from './census/command.ts';
import { declareExport } from './export/command.ts';
import { declareNormalize } from './normalize/command.ts';
import { declareRender } from './render/command.ts';
import { declareReport } from './report/command.ts';
import { declareServe } from './serve/command.ts';
import { declareSummary } from './summary/command.ts';
import { declareUsage } from './usage/command.ts';
import { declareValidate } from './validate/command.ts';

/** A command of the registry: declares itself on a command already named, its run module loaded on demand. */
export interface CommandEntry {
  readonly declare: (command: Command, context: CommandContext) => void;
}

/** Pairs a declaration with the run module its action calls, which must be the one it was written for. */
function entry<RunModule>(
  declare: CommandDeclaration<RunModule>,
  load: () => Promise<RunModule>,
): CommandEntry {
  return { declare: (command, context) => declare(command, context, load) };
}

/** The name of each command, as typed on the command line. */
export type CommandName =
  | 'normalize'
  | 'validate'
  | 'summary'
  | 'render'
  | 'census'
  | 'report'
  | 'usage'
  | 'export'
  | 'serve'
  | 'bench';

/** THE list of commands, keyed by name, in `--help` order. */
export const COMMANDS = {
  normalize: entry(declareNormalize, () => import('./normalize/run.ts')),
  validate: entry(declareValidate, () => import('./validate/run.ts')),
  summary: entry(declareSummary, () => import('./summary/run.ts')),
  render: entry(declareRender, () => import('./render/run.ts')),
  census: entry(declareCensus, () => import('./census/run.ts')),
  report: entry(declareReport, () => import('./report/run.ts')),
  usage: entry(declareUsage, () => import('./usage/run.ts')),
  export: entry(declareExport, () => import('./export/run.ts')),
  serve: entry(declareServe, () => import('./serve/run.ts')),
  bench: entry(declareBench, () => import('./bench/run.ts')),
} as const satisfies Record<CommandName, CommandEntry>;
