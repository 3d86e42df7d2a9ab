/**
 * The NDJSON lines of a batch of canonical events, as `normalize` writes them. Long strings the tokenizer never
 * decoded are copied from the input's bytes into the output, so a tool output of megabytes is neither decoded,
 * escaped again nor encoded again; the bytes written are exactly those of `stringifyEvent`'s lines.
 */

import { isUtf8 } from 'node:buffer';
import {
  type CanonicalEvent,
  type EventPiece,
  stringifyEvent,
  stringifyEventPieces,
} from '@cursor-stream/core/normalize';

/** The pieces of one event's line; whole text when a copied piece is not valid UTF-8 (its decoding would differ). */
function linePieces(event: CanonicalEvent): readonly EventPiece[] {
  const pieces = stringifyEventPieces(event);
  if (pieces.length === 1) return pieces;
  return pieces.every((piece) => typeof piece === 'string' || isUtf8(piece))
    ? pieces
    : [stringifyEvent(event)];
}

/**
 * The lines of `events`, each ended by a line feed, as the bytes of the whole batch.
 *
 * @param file - The log the events come from, written as each line's first field (`{"file":"a.ndjson","type":...`)
 *   when several logs are read; the rest of the line is the event as one log gives it.
 */
export function eventLines(events: readonly CanonicalEvent[], file?: string): Uint8Array {
  // Every event is an object with a type, so its line opens with `{"`: the field goes in after the brace.
  const lead = file === undefined ? undefined : `{"file":${JSON.stringify(file)},`;
  // Each line is encoded into one buffer as it is made: a batch joined into one string first becomes a two-byte
  // string as soon as one line holds a character past Latin-1 (an excerpt's ellipsis, a CJK text), which doubles
  // the string, puts it in V8's large-object space and makes its UTF-8 encoding the slow path.
  // Sized for the batch's lines (a few hundred bytes each, mostly), grown as needed: one log of a folder is a batch.
  let out = Buffer.allocUnsafe(Math.min(64 * 1024, Math.max(1024, events.length * 256)));
  let at = 0;
  const room = (bytes: number): void => {
    if (out.length - at >= bytes) return;
    const grown = Buffer.allocUnsafe(Math.max(out.length * 2, at + bytes));
    out.copy(grown, 0, 0, at);
    out = grown;
  };
  for (const event of events) {
    let first = true;
    for (const piece of linePieces(event)) {
      if (typeof piece !== 'string') {
        room(piece.length);
        out.set(piece, at);
        at += piece.length;
      } else {
        const text = first && lead !== undefined ? lead + piece.slice(1) : piece;
        room(text.length * 3);
        at += out.write(text, at);
      }
      first = false;
    }
    room(1);
    out[at++] = 0x0a;
  }
  return out.subarray(0, at);
}
