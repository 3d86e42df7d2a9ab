/**
 * Builds the model of one session from a random source and a profile. Only this module draws the content, so the
 * content of a corpus depends on its seed and profile alone, whatever dialect it is written in.
 */

import type { Profile, Range } from './profiles.ts';
import type { Random } from './random.ts';
import type {
  AssistantMessageModel,
  SessionModel,
  TimedText,
  ToolCallModel,
  TurnModel,
  UsageModel,
} from './session-model.ts';
import { buildToolCall, pickToolKind } from './tool-calls.ts';
import { alnum, hex, sentence, token, uuid } from './vocabulary.ts';

/** Milliseconds: the recordings are from 2026; each session starts somewhere in that year. */
const EPOCH_MS = 1_767_225_600_000;
const YEAR_MS = 365 * 24 * 3600 * 1000;

type IdStyle = 'openai' | 'cursor' | 'anthropic';

/** A clock that only moves forward, in random steps. */
interface Clock {
  now(): number;
  advance(range: Range): number;
}

function createClock(random: Random, start: number): Clock {
  let time = start;
  return {
    now: () => time,
    advance: ([min, max]) => {
      time += random.int(min, max);
      return time;
    },
  };
}

/**
 * Builds one session.
 *
 * @param random - The content's random source; the session consumes a variable number of draws from it.
 * @param profile - The mix; see {@link Profile}.
 */
export function buildSession(random: Random, profile: Profile): SessionModel {
  const requestId = uuid(random);
  const startMs = EPOCH_MS + random.int(0, YEAR_MS);
  const clock = createClock(random, startMs);
  const idStyle = pickIdStyle(random, profile);
  const recentCli = random.chance(profile.recentCliShare);
  const partialOutput = random.chance(profile.partialOutputShare);
  const cwd = random.pick(['/workspace', '/home/user/project', '/Users/dev/src/app', 'C:\\Users\\dev\\repo']);
  const turnCount = random.int(...profile.turns);
  const context: TurnContext = {
    random,
    profile,
    clock,
    requestId,
    idStyle,
    recentCli,
    partialOutput,
    cwd,
    calls: 0,
  };
  const turns = Array.from({ length: turnCount }, (_, step) =>
    buildTurn(context, step, step === turnCount - 1),
  );
  const finalMessage = buildMessage(context);
  return {
    sessionId: uuid(random),
    requestId,
    model: random.pick(['Auto', 'Claude 4 Sonnet', 'GPT-5', 'gpt-5.3-codex']),
    cwd,
    apiKeySource: random.pick(['login', 'env', 'flag']),
    permissionMode: 'default',
    prompt: sentence(random, random.int(5, 40)),
    partialOutput,
    recentCli,
    turns,
    finalMessage,
    durationMs: clock.now() - startMs,
    usage: buildUsage(random),
  };
}

interface TurnContext {
  random: Random;
  profile: Profile;
  clock: Clock;
  requestId: string;
  idStyle: IdStyle;
  recentCli: boolean;
  partialOutput: boolean;
  cwd: string;
  /** Calls made so far in the session: Cursor-minted ids number them. */
  calls: number;
}

function pickIdStyle(random: Random, profile: Profile): IdStyle {
  if (!random.chance(profile.compositeIdShare)) return 'anthropic';
  return random.chance(0.7) ? 'openai' : 'cursor';
}

function buildTurn(context: TurnContext, step: number, last: boolean): TurnModel {
  const { random, profile, clock } = context;
  const modelCallId = `${context.requestId}-${step}-${alnum(random, 4).toLowerCase()}`;
  const thinking = timedTokens(context, random.int(...profile.thinkingDeltas));
  const thinkingCompletedMs = clock.advance([0, 40]);
  const callCount = last ? 0 : random.int(...profile.toolCalls);
  const message = !last && random.chance(0.85) ? buildMessage(context) : undefined;
  const parallel = callCount > 1 && random.chance(profile.parallelShare);
  const calls = Array.from({ length: callCount }, () => buildCall(context, parallel));
  const completionOrder = calls.map((_, index) => index);
  if (parallel) {
    // Parallel calls complete shortest first, which is often the reverse of their start order.
    if (random.chance(0.5)) completionOrder.reverse();
    else shuffle(random, completionOrder);
  }
  const turn: TurnModel = { modelCallId, thinking, thinkingCompletedMs, calls, parallel, completionOrder };
  if (message !== undefined) turn.message = message;
  return turn;
}

function buildCall(context: TurnContext, parallel: boolean): ToolCallModel {
  const { random, profile, clock } = context;
  const large = random.chance(profile.largeResultShare);
  const largeBytes = large ? Math.round(random.logUniform(...profile.largeResultBytes)) : 0;
  const unsuccessful = random.chance(profile.unsuccessfulShare);
  const callId = mintCallId(context);
  const kind = pickToolKind(random, large);
  const shape = buildToolCall(random, kind, {
    callId,
    cwd: context.cwd,
    largeBytes,
    unsuccessful,
    recentCli: context.recentCli,
  });
  const startedMs = clock.advance(parallel ? [0, 150] : [20, 400]);
  const completedMs = startedMs + random.int(30, 12_000);
  if (!parallel) clock.advance([completedMs - startedMs, completedMs - startedMs + 200]);
  return { callId, ...shape, startedMs, completedMs };
}

function mintCallId(context: TurnContext): string {
  const { random } = context;
  const n = context.calls++;
  switch (context.idStyle) {
    case 'openai':
      return `call_${alnum(random, 24)}\nfc_${hex(random, 48)}`;
    case 'cursor':
      return `call-${uuid(random)}-${n}\nfc_${uuid(random)}_${n}`;
    default:
      return `toolu_${random.chance(0.5) ? 'vrtx_' : ''}01${alnum(random, 22)}`;
  }
}

function buildMessage(context: TurnContext): AssistantMessageModel {
  const { random, profile } = context;
  const count = context.partialOutput ? random.int(...profile.partialDeltas) : random.int(5, 40);
  const pieces = timedTokens(context, count);
  const text = pieces.map((piece) => piece.text).join('');
  return { text, pieces, timestampMs: context.clock.advance([0, 50]) };
}

function timedTokens(context: TurnContext, count: number): TimedText[] {
  const { random, clock } = context;
  return Array.from({ length: count }, () => ({ text: token(random), timestampMs: clock.advance([0, 60]) }));
}

function buildUsage(random: Random): UsageModel {
  return {
    inputTokens: random.int(1_000, 200_000),
    outputTokens: random.int(50, 20_000),
    cacheReadTokens: random.int(0, 100_000),
    cacheWriteTokens: random.int(0, 5_000),
  };
}

function shuffle(random: Random, items: number[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j] as number, items[i] as number];
  }
}

/** The answer the `result` record repeats: every assistant text of the session, joined with no separator. */
export function resultText(session: SessionModel): string {
  let text = '';
  for (const turn of session.turns) if (turn.message !== undefined) text += turn.message.text;
  return text + session.finalMessage.text;
}
