/** The chat id `cursor-agent create-chat` prints, read from its output lines wherever the command ran. */

/** An id is one token: the CLI prints a UUID; anything with spaces is a message, not an id. */
const CHAT_ID = /^[\w.:-]+$/;

/** Whether `text` has the form of a chat id (one token of letters, digits, `_`, `.`, `:` and `-`). */
export function isChatId(text: string): boolean {
  return CHAT_ID.test(text);
}

/** The chat id in `create-chat`'s output: its last non-empty line, when that is one; else `undefined`. */
export function chatIdOf(lines: readonly string[]): string | undefined {
  const last = lines.at(-1);
  return last !== undefined && isChatId(last) ? last : undefined;
}
