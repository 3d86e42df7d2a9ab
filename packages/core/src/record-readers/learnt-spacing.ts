/**
 * The whitespace a learnt line writes between its tokens. A template is written from the record `JSON.parse` read,
 * which has no whitespace; a writer other than the agent (Python's `json.dumps` writes `", "` and `": "`, a logger
 * may indent) spaces every record of a stream alike, so the template keeps the spacing of the line it is learnt from
 * and takes the lines written like it. Whitespace between tokens is what JSON allows anywhere, so a line taken is
 * still one `JSON.parse` reads, to the same value.
 */

/** Follows a learnt line token by token while its template is written. */
export interface LineSpacing {
  /**
   * `token` as the line writes it at this point: the whitespace before it, then `token`. Once the line is written
   * otherwise (another token here, a constant escaped), the token alone: the template is then written as
   * `JSON.stringify` writes, and does not match the line it is learnt from.
   */
  token(token: string): string;
  /** Passes over the content of a string whose opening quote was the last token, up to its closing quote. */
  skipString(): void;
  /** Passes over a number, the whitespace before it taken by a `token('')`. */
  skipNumber(): void;
}

const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether `code` is whitespace JSON allows between tokens (and no other space character). */
function isJsonSpace(code: number): boolean {
  return code === SPACE || code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN;
}

/** Characters a JSON number is written with, in any of its forms. */
function isNumberCharacter(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2b ||
    code === 0x2e ||
    code === 0x45 ||
    code === 0x65
  );
}

/** A follower of `text`, from its start. */
export function followSpacing(text: string): LineSpacing {
  let at = 0;
  let lost = false;
  return {
    token(token) {
      if (lost) return token;
      const from = at;
      while (at < text.length && isJsonSpace(text.charCodeAt(at))) at++;
      if (!text.startsWith(token, at)) {
        lost = true;
        return token;
      }
      at += token.length;
      return text.slice(from, at);
    },
    skipString() {
      if (lost) return;
      while (at < text.length) {
        const code = text.charCodeAt(at);
        if (code === QUOTE) return;
        at += code === BACKSLASH ? 2 : 1;
      }
      lost = true;
    },
    skipNumber() {
      if (lost) return;
      while (at < text.length && isNumberCharacter(text.charCodeAt(at))) at++;
    },
  };
}
