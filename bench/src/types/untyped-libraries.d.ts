// split2 and ndjson ship no types; these cover the calls the benchmark makes.

declare module 'split2' {
  import type { Transform } from 'node:stream';
  export default function split2(mapper?: (line: string) => unknown): Transform;
}

declare module 'ndjson' {
  import type { Transform } from 'node:stream';

  const ndjson: { parse(options?: { strict?: boolean }): Transform };
  export default ndjson;
}
