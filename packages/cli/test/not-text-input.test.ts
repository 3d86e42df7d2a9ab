import { expect, test } from 'vitest';
import { main } from '../src/cli.ts';
import { fakeIo } from './support.ts';

test('a NUL on line 2 is refused from a slow pipe as from a file', async () => {
  const first = '{"type":"system","subtype":"init","session_id":"s"}\n';
  const { io, stderr } = fakeIo([first, '{"a":1}\u0000\n']);
  const code = await main(['summary', '-'], io);
  expect(code).toBe(2);
  expect(stderr.text).toBe(
    `cursor-stream: <stdin>: not a text log (NUL byte at offset ${first.length + 7})\n`,
  );
});
