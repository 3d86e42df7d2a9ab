import { join } from 'node:path';
import { chatIdOf, commandOutcome, type ProcessExit } from '@cursor-stream/node/agent-protocol';
import { describe, expect, test } from 'vitest';
import { bundleForBrowser } from '../../core/test/browser/bundle-for-browser.ts';

const ENTRY = join(import.meta.dirname, '../src/agent/protocol.ts');

/** A process that ran and exited with `exitCode`, having written `stderr`. */
function exited(exitCode: number, stderr = ''): ProcessExit {
  return {
    binary: 'cursor-agent',
    spawnFailures: [],
    exitCode,
    signal: null,
    stopReason: undefined,
    outputFailure: undefined,
    stderr: { text: stderr, totalBytes: stderr.length, truncated: false },
  };
}

describe('@cursor-stream/node/agent-protocol', () => {
  test('bundles for a browser: nothing it loads imports a Node built-in', async () => {
    await expect(bundleForBrowser(ENTRY)).resolves.toContain('create-chat');
  });

  test('reads the chat id create-chat prints from its last line, and nothing that is not one token', () => {
    expect(chatIdOf(['9f1c2d3e-0000-4000-8000-00000000c0de'])).toBe('9f1c2d3e-0000-4000-8000-00000000c0de');
    expect(chatIdOf(['Welcome', 'chat-42'])).toBe('chat-42');
    expect(chatIdOf(['chat-42', 'Press any key to sign in...'])).toBeUndefined();
    expect(chatIdOf([])).toBeUndefined();
  });

  test("a command's outcome: its lines, the failure stderr names, or what was missing", () => {
    const isId = (lines: readonly string[]) => chatIdOf(lines) !== undefined;
    expect(commandOutcome(exited(0), 'chat-42\n', isId, 'no id')).toEqual({ ok: true, lines: ['chat-42'] });
    expect(commandOutcome(exited(1, 'Not logged in\n'), '', isId, 'no id')).toEqual({
      ok: false,
      error: { code: 'exit-nonzero', message: 'cursor-agent exited with code 1: Not logged in' },
    });
    expect(commandOutcome(exited(0), 'Press any key\n', isId, 'no id')).toEqual({
      ok: false,
      error: { code: 'no-result', message: 'no id (last line: "Press any key").' },
    });
  });
});
