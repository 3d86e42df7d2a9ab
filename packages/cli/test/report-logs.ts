/** Logs for the report's tests, written as the CLI writes them (the official dialect). */

/** One tool call of a made-up session. */
export interface MadeCall {
  id: string;
  command: string;
  startMs: number;
  endMs: number;
  /** The result arm: `success`, `failure`, ... */
  arm: string;
  stdout: string;
}

/** A session of official-dialect records: init, prompt, reasoning, text, the calls (started together), result. */
export function sessionLog(options: {
  sessionId: string;
  model?: string;
  prompt?: string;
  /** The assistant's text after the calls. @defaultValue `'All done.'` */
  text?: string;
  calls: readonly MadeCall[];
  isError?: boolean;
  resultText?: string;
  usage?: Record<string, number>;
  timed?: boolean;
}): string {
  const session_id = options.sessionId;
  const timed = options.timed ?? true;
  const at = (ms: number) => (timed ? { timestamp_ms: ms } : {});
  const first = Math.min(...options.calls.map((call) => call.startMs), 1_790_000_000_000);
  const records: object[] = [
    { type: 'system', subtype: 'init', session_id, model: options.model ?? 'Auto', cwd: '/work' },
    {
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: options.prompt ?? 'do it' }] },
      session_id,
    },
    { type: 'thinking', subtype: 'delta', text: 'Planning the steps.', session_id, ...at(first - 900) },
    { type: 'thinking', subtype: 'completed', session_id, ...at(first - 400) },
  ];
  const toolCall = (call: MadeCall, result?: object) => ({
    shellToolCall: { args: { command: call.command }, ...(result === undefined ? {} : { result }) },
    ...(timed ? { startedAtMs: String(call.startMs) } : {}),
    ...(timed && result !== undefined ? { completedAtMs: String(call.endMs) } : {}),
  });
  for (const call of options.calls) {
    records.push({
      type: 'tool_call',
      subtype: 'started',
      call_id: call.id,
      tool_call: toolCall(call),
      session_id,
      ...at(call.startMs),
    });
  }
  for (const call of [...options.calls].sort((a, b) => a.endMs - b.endMs)) {
    const result = {
      [call.arm]: { exitCode: call.arm === 'success' ? 0 : 1, stdout: call.stdout, stderr: '' },
    };
    records.push({
      type: 'tool_call',
      subtype: 'completed',
      call_id: call.id,
      tool_call: toolCall(call, result),
      session_id,
      ...at(call.endMs),
    });
  }
  records.push({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text: options.text ?? 'All done.' }] },
    session_id,
  });
  records.push({
    type: 'result',
    subtype: options.isError === true ? 'error' : 'success',
    is_error: options.isError === true,
    duration_ms: 5000,
    result: options.resultText ?? 'All done.',
    session_id,
    ...(options.usage === undefined ? {} : { usage: options.usage }),
  });
  return `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
}

/** Three calls, two in parallel, one failing, one printing a script tag. */
export function sampleCalls(base = 1_790_000_000_000): MadeCall[] {
  return [
    {
      id: 'call-1',
      command: 'sleep 6',
      startMs: base,
      endMs: base + 6000,
      arm: 'success',
      stdout: 'slept\n',
    },
    {
      id: 'call-2',
      command: 'ls /missing',
      startMs: base + 100,
      endMs: base + 900,
      arm: 'failure',
      stdout: '',
    },
    {
      id: 'call-3',
      command: 'cat page.html',
      startMs: base + 6200,
      endMs: base + 7000,
      arm: 'success',
      stdout: '<script>window.pwned = true</script>\n<img src="http://127.0.0.1:9/x.png">\n',
    },
  ];
}
