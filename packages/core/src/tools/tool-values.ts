/** What the tool texts share: reading a tool's arguments and output as records, one line at a time. */

/** Longest argument, headline or outcome text on one line, in characters. */
export const MAX_TOOL_TEXT_LENGTH = 160;

/** A tool's arguments or output read as a JSON object. */
export type ToolRecord = Record<string, unknown>;

/** Whether a value is a JSON object (not an array). */
export function isToolRecord(value: unknown): value is ToolRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first line of `text`, with ` …` when more lines follow. */
export function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? text : `${text.slice(0, end)} …`;
}
