/**
 * The tokenizer's limits: how large a record may be, and the largest limit a caller may ask for. A record's size is
 * known from its bytes before anything parses it, so the limit bounds both the memory held and the parse work.
 */

/** Default {@link NdjsonTokenizerOptions.maxRecordBytes}: 64 MiB, well above the largest tool result seen. */
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;

/**
 * The largest `maxRecordBytes` accepted: 256 MiB. A record is held as one string before it is parsed, and a V8 string
 * holds at most 2^29 - 24 UTF-16 units (512 MiB of ASCII); half of that leaves room for the record's line pieces
 * being joined and for its control characters being escaped, so no limit the tokenizer accepts can end in a
 * `RangeError` from the runtime.
 */
export const MAX_RECORD_BYTES_CAP = 256 * 1024 * 1024;

/**
 * The `maxRecordBytes` to use for an option value.
 *
 * @throws RangeError when the value is not a positive integer or is above {@link MAX_RECORD_BYTES_CAP}.
 */
export function resolveMaxRecordBytes(value: number | undefined): number {
  const bytes = value ?? DEFAULT_MAX_RECORD_BYTES;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new RangeError(`maxRecordBytes must be a positive integer, got ${String(value)}`);
  }
  if (bytes > MAX_RECORD_BYTES_CAP) {
    throw new RangeError(
      `maxRecordBytes must be at most ${MAX_RECORD_BYTES_CAP} (256 MiB), the largest record a JavaScript string can hold with room to parse it; got ${bytes}`,
    );
  }
  return bytes;
}

/** The message of an `oversize` problem. */
export function oversizeMessage(maxRecordBytes: number): string {
  return `record is larger than maxRecordBytes (${maxRecordBytes} bytes); skipped to the next line`;
}
