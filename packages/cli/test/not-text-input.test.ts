import { expect, test } from 'vitest';
import { main } from '../src/cli.ts';
import { fakeIo } from './support.ts';

test('a NUL on line 1 is refused from a slow pipe as from a file', async () => {
  const first = '{"type":"system","subtype":"init","session_id":"s"}';
  const { io, stderr } = fakeIo([first.slice(0, 10), `${first.slice(10)}\u0000\n`]);
  const code = await main(['summary', '-'], io);
  expect(code).toBe(2);
  expect(stderr.text).toBe(`cursor-stream: <stdin>: not a text log (NUL byte at offset ${first.length})\n`);
});

test('NULs after a whole line (what a crash leaves at the end of a log) are an invalid line: the records are read', async () => {
  const lines = [
    '{"type":"system","subtype":"init","session_id":"s","model":"Auto"}\n',
    '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s"}\n',
  ];
  for (const chunks of [
    [lines.join('') + '\u0000'.repeat(4096)],
    [...lines, '\u0000'.repeat(10), '\u0000'.repeat(10)],
  ]) {
    const { io, stdout, stderr } = fakeIo(chunks);
    const code = await main(['summary', '--json', '-'], io);
    expect(code).toBe(1);
    expect(stderr.text).toMatch(/^cursor-stream: <stdin>: 1 invalid line/);
    expect(JSON.parse(stdout.text)).toMatchObject({
      sessions: [{ sessionId: 's', status: 'success' }],
      invalidLines: [{ code: 'non-json-output', line: 3 }],
    });
  }
});
