/** Decimal and binary size units, as in `--size 200MB` (1 MB = 10^6 bytes, 1 MiB = 2^20). */
const UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
};

/**
 * Reads a size such as `500KB`, `200MB`, `1.5GB` or `64MiB` (a bare number is bytes).
 *
 * @returns The size in bytes.
 * @throws RangeError when the text is not a positive size.
 */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = UNITS[(match?.[2] || 'b').toLowerCase()];
  const bytes = match === null || unit === undefined ? Number.NaN : Math.round(Number(match[1]) * unit);
  if (!(bytes > 0)) throw new RangeError(`not a size: ${JSON.stringify(text)} (e.g. 500KB, 200MB, 1GB)`);
  return bytes;
}
