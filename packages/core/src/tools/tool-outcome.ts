/**
 * How a tool call ended, on one line: the facts its output gives, read from the fields the known formats use (so a
 * tool from another dialect with the same fields reads the same way), and for a failure its reason.
 */

import { escapeControls, plural, truncate } from '../text/index.ts';
import { toolFailureReason } from './tool-error-text.ts';
import { firstLine, isToolRecord, MAX_TOOL_TEXT_LENGTH, type ToolRecord } from './tool-values.ts';

function countFact(output: ToolRecord, key: string, noun: string): string | null {
  const value = output[key];
  return typeof value === 'number' ? plural(value, noun) : null;
}

/** `lines 10-59 of 120` from a read's `readRange` and `totalLines`, or `120 lines`. */
function readRangeFact(output: ToolRecord): string | null {
  const range = output.readRange;
  const total = typeof output.totalLines === 'number' ? output.totalLines : undefined;
  if (isToolRecord(range) && typeof range.startLine === 'number' && typeof range.endLine === 'number') {
    return `lines ${range.startLine}-${range.endLine}${total === undefined ? '' : ` of ${total}`}`;
  }
  return total === undefined ? null : plural(total, 'line');
}

/** A grep's counts, summed over its `workspaceResults` roots: matching lines and files, or files. */
function grepFact(output: ToolRecord): string | null {
  const roots = output.workspaceResults;
  if (!isToolRecord(roots)) return null;
  let matchedLines = 0;
  let files = 0;
  let listsFiles = false;
  for (const root of Object.values(roots)) {
    if (!isToolRecord(root)) continue;
    if (isToolRecord(root.content)) {
      matchedLines += typeof root.content.totalMatchedLines === 'number' ? root.content.totalMatchedLines : 0;
      files += Array.isArray(root.content.matches) ? root.content.matches.length : 0;
    } else if (isToolRecord(root.files)) {
      listsFiles = true;
      files += typeof root.files.totalFiles === 'number' ? root.files.totalFiles : 0;
    } else if (isToolRecord(root.count)) {
      matchedLines += typeof root.count.totalMatches === 'number' ? root.count.totalMatches : 0;
    }
  }
  if (listsFiles) return plural(files, 'file');
  return files === 0
    ? plural(matchedLines, 'matching line')
    : `${plural(matchedLines, 'matching line')} in ${plural(files, 'file')}`;
}

/** An ls's entries: the directories and files right under the listed one. */
function lsFact(output: ToolRecord): string | null {
  const root = output.directoryTreeRoot;
  if (!isToolRecord(root)) return null;
  const dirs = Array.isArray(root.childrenDirs) ? root.childrenDirs.length : 0;
  const files = Array.isArray(root.childrenFiles) ? root.childrenFiles.length : 0;
  return plural(dirs + files, 'entry', 'entries');
}

function successFacts(output: ToolRecord): string[] {
  const facts = [
    typeof output.exitCode === 'number' ? `exit ${output.exitCode}` : null,
    readRangeFact(output),
    typeof output.linesCreated === 'number' ? `${plural(output.linesCreated, 'line')} written` : null,
    typeof output.linesAdded === 'number' || typeof output.linesRemoved === 'number'
      ? `+${String(output.linesAdded ?? 0)} -${String(output.linesRemoved ?? 0)}`
      : null,
    grepFact(output),
    lsFact(output),
    'workspaceResults' in output ? null : countFact(output, 'totalFiles', 'file'),
    'workspaceResults' in output ? null : countFact(output, 'totalMatchedLines', 'matching line'),
    Array.isArray(output.references) ? plural(output.references.length, 'result') : null,
  ];
  return facts.filter((fact) => fact !== null);
}

/**
 * The outcome's facts (`exit 0`, `lines 1-54 of 54`, `+3 -1`, `12 matching lines in 3 files`) and, for a failure,
 * the first line of its reason (see `toolFailureReason`); an output that is text is its first line. Empty when there
 * is nothing to say. Control characters are escaped, and the line is cut to 160 characters.
 */
export function toolOutcomeDetails(output: unknown, isError: boolean): string {
  if (typeof output === 'string') return truncate(escapeControls(firstLine(output)), MAX_TOOL_TEXT_LENGTH);
  if (!isToolRecord(output)) return '';
  const facts = successFacts(output);
  const reason = isError ? toolFailureReason(output) : undefined;
  if (reason !== undefined) facts.push(firstLine(reason));
  return truncate(escapeControls(facts.join(', ')), MAX_TOOL_TEXT_LENGTH);
}
