import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toUIMessageReadableStream, type UIMessageEncoderOptions } from '@cursor-stream/ai-sdk';
import {
  type CanonicalEvent,
  createNormalizer,
  reduceSessions,
  type SessionSummary,
} from '@cursor-stream/core';
import { readUIMessageStream, type UIMessage } from 'ai';

/**
 * The `.ndjson` files of a folder and its subfolders, by name; not the benchmark's generated corpora (`generated/`,
 * gigabytes once a benchmark has run).
 */
export function recordingsIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ndjson') && !name.startsWith('generated'))
    .sort()
    .map((name) => join(dir, name));
}

/** A recording's canonical events and its session summaries. */
export function readRecording(path: string): { events: CanonicalEvent[]; sessions: SessionSummary[] } {
  const normalizer = createNormalizer();
  const events = [...normalizer.feed(readFileSync(path)), ...normalizer.end()];
  return { events, sessions: reduceSessions(events, { dialect: normalizer.dialect }) };
}

/** The last message the AI SDK's own reader builds from the bridge's chunks, and the errors it reported. */
export async function readAsAiSdk(
  events: Iterable<CanonicalEvent> | AsyncIterable<CanonicalEvent>,
  options?: UIMessageEncoderOptions,
): Promise<{ message: UIMessage | undefined; errors: string[] }> {
  const errors: string[] = [];
  let message: UIMessage | undefined;
  const stream = readUIMessageStream({
    stream: toUIMessageReadableStream(events, options),
    onError: (error) => errors.push(error instanceof Error ? error.message : String(error)),
  });
  for await (const snapshot of stream) message = snapshot;
  return { message, errors };
}

/** A tool part of a message, whichever way it is typed (`tool-NAME` or `dynamic-tool`). */
export interface ToolPartView {
  toolCallId: string;
  toolName: string;
  state: string;
  input: unknown;
  output: unknown;
  errorText: string | undefined;
}

/** The tool parts of a message. */
export function toolParts(message: UIMessage | undefined): ToolPartView[] {
  const parts: ToolPartView[] = [];
  for (const part of message?.parts ?? []) {
    if (part.type !== 'dynamic-tool' && !part.type.startsWith('tool-')) continue;
    const tool = part as unknown as Record<string, unknown>;
    parts.push({
      toolCallId: String(tool.toolCallId),
      toolName: part.type === 'dynamic-tool' ? String(tool.toolName) : part.type.slice('tool-'.length),
      state: String(tool.state),
      input: tool.input,
      output: tool.output,
      errorText: typeof tool.errorText === 'string' ? tool.errorText : undefined,
    });
  }
  return parts;
}

/** The joined text of a message's parts of one type. */
export function partText(message: UIMessage | undefined, type: 'text' | 'reasoning'): string {
  return (message?.parts ?? []).map((part) => (part.type === type ? part.text : '')).join('');
}
