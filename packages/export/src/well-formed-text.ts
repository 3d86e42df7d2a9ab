/**
 * Text every sink can hold: UTF-16 that no UTF-8 encodes (a lone surrogate, which a log's `\ud800` escape gives) is
 * refused by OTLP's protobuf strings and by the engines' text columns alike, so each is replaced by U+FFFD.
 */

/** A lone surrogate: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with each lone surrogate replaced by U+FFFD; `changed` when there was one. */
export function wellFormedText(text: string): { text: string; changed: boolean } {
  LONE_SURROGATE.lastIndex = 0;
  if (!LONE_SURROGATE.test(text)) return { text, changed: false };
  return { text: text.replace(LONE_SURROGATE, '\ufffd'), changed: true };
}
