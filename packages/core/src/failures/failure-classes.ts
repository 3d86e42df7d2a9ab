/**
 * Why a cursor-agent run failed, as a class a program can act on, read from the sentence the CLI ends with. The CLI
 * (2026.06 to 2026.10) reports a failure in words only: one line on standard error (or, when both streams are read
 * together, the last non-JSON line of the output), exit code 1, and no `result` record; a server-side rejection first
 * goes through three reconnects and retries. Exit codes alone do not tell the classes apart. This table is the one
 * place that knows the CLI's sentences; each class names the sentences it was seen with.
 */

/**
 * The class of a failure:
 * - `trust-required`: the workspace is not trusted yet (`--trust`, `--yolo` or `-f` would trust it); nothing ran.
 * - `auth`: not logged in, or the API key is missing or refused.
 * - `model-unavailable`: the model asked for does not exist, or the account's plan cannot use it.
 * - `usage-limit`: the account's included usage or spend limit for the month is used up.
 * - `rate-limit`: too many requests, or the service is over capacity, for now (worth retrying later).
 * - `unknown-option`: a flag or option the CLI or its server rejects (`[invalid_argument] unknown option`).
 * - `flagged`: the service blocked the request or the account (suspicious activity).
 * - `network`: the connection failed, or the CLI gave up after retrying.
 * - `cancelled`: the run's client stopped it before it ended (ACP's `session/cancel`, `@cursor/sdk`'s `CANCELLED`,
 *   `runAgent`'s signal): nothing failed, and nothing is to be retried by itself.
 * - `unknown`: none of these (or no sentence at all).
 */
export type FailureCode =
  | 'trust-required'
  | 'auth'
  | 'model-unavailable'
  | 'usage-limit'
  | 'rate-limit'
  | 'unknown-option'
  | 'flagged'
  | 'network'
  | 'cancelled'
  | 'unknown';

/** Every {@link FailureCode}, `unknown` last. */
export const FAILURE_CODES = [
  'trust-required',
  'auth',
  'model-unavailable',
  'usage-limit',
  'rate-limit',
  'unknown-option',
  'flagged',
  'network',
  'cancelled',
  'unknown',
] as const satisfies readonly FailureCode[];

/** One class of the table: what it means, and the CLI's words that show it. */
export interface FailureClass {
  readonly code: Exclude<FailureCode, 'unknown'>;
  /** What happened, for a person. */
  readonly description: string;
  /** Whether running again later, unchanged, may succeed. */
  readonly retryable: boolean;
  /** Sentences of the class as the CLI writes them (`<…>` stands for a varying part): what the patterns were made from. */
  readonly sentences: readonly string[];
  /** What in a sentence makes it this class. */
  readonly patterns: readonly RegExp[];
}

/**
 * The classes, in the order they are tried: the first that matches wins. Plan policy comes before the rate limit
 * because the service sends "Named models unavailable" with the code `resource_exhausted`, and the usage wall before
 * it too; a server's `[invalid_argument]` before the network, whose reconnects it follows.
 */
export const FAILURE_CLASSES: readonly FailureClass[] = [
  {
    code: 'trust-required',
    description: 'The workspace is not trusted yet; nothing ran.',
    retryable: false,
    sentences: [
      '⚠ Workspace Trust Required … Pass --trust, --yolo, or -f if you trust this directory',
      'Error: Workspace Trust Required',
    ],
    patterns: [/workspace trust required/i, /pass --trust, --yolo, or -f/i],
  },
  {
    code: 'auth',
    description: 'Not logged in, or the API key is missing or refused.',
    retryable: false,
    sentences: [
      "Error: Authentication required. Please run 'agent login' first.",
      'Press any key to sign in...',
    ],
    patterns: [
      /authentication required/i,
      /run '?(?:cursor-)?agent login'?/i,
      /press any key to sign in/i,
      /\[unauthenticated\]/i,
      /\b(?:invalid|expired|revoked|bad) api key\b/i,
    ],
  },
  {
    code: 'model-unavailable',
    description: "The model does not exist, or the account's plan cannot use it.",
    retryable: false,
    sentences: [
      'Cannot use this model: <model>. Available models: auto, …',
      'ActionRequiredError: Named models unavailable Free plans can only use Auto. Upgrade your plan or remove --model to use Auto.',
    ],
    patterns: [
      /cannot use this model/i,
      /named models unavailable/i,
      /free plans can only use/i,
      /model unavailable on/i,
      /ERROR_RATE_LIMITED_CHANGEABLE/,
    ],
  },
  {
    code: 'usage-limit',
    description: "The account's included usage or spend limit for the month is used up.",
    retryable: false,
    sentences: [
      "ActionRequiredError: You've hit your usage limit … Your usage limits will reset when your monthly cycle ends on <M/D/YYYY>.",
      'Set a Spend Limit to continue with Auto. Your usage limits will reset when your monthly cycle ends on <M/D/YYYY>.',
      "You've hit your free requests limit",
    ],
    patterns: [/hit your (?:usage|free requests) limit/i, /usage limits? will reset/i, /spend limit/i],
  },
  {
    code: 'unknown-option',
    description: 'A flag or option the CLI or its server rejects.',
    retryable: false,
    sentences: [
      "RetriableError: [invalid_argument] unknown option '--system-prompt'",
      'RetriableError: [invalid_argument] Workspace context exclusion is not allowed for this user, team, or selected model',
      'Invalid --allowed-tools value(s): <names>. Expected one of: …',
      "error: unknown option '<flag>'",
    ],
    patterns: [/\[invalid_argument\]/i, /\bunknown option\b/i, /^invalid --[a-z-]+ value/im],
  },
  {
    code: 'flagged',
    description: 'The service blocked the request or the account.',
    retryable: false,
    sentences: [
      'Your request has been blocked as our system has detected suspicious activity from your account/ip address. …',
    ],
    patterns: [/suspicious activity/i, /request has been blocked/i],
  },
  {
    code: 'rate-limit',
    description: 'Too many requests, or the service is over capacity, for now.',
    retryable: true,
    sentences: [
      'ConnectError: [resource_exhausted] Rate limit exceeded, please try later',
      'ConnectError: [resource_exhausted] Error',
      "we're experiencing high demand",
    ],
    patterns: [/\[resource_exhausted\]/i, /rate limit exceeded/i, /too many requests/i, /high demand/i],
  },
  {
    code: 'network',
    description: 'The connection failed, or the CLI gave up after retrying.',
    retryable: true,
    sentences: [
      'T: [internal] Failed to run step, exceeded max retries',
      'Connection failed. Check your internet connection.',
    ],
    patterns: [
      /exceeded max retries/i,
      /connection (?:failed|lost)/i,
      /\b(?:ECONNRESET|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN)\b/,
      /fetch failed/i,
      /network error/i,
    ],
  },
  {
    code: 'cancelled',
    description: "The run's client stopped it before it ended.",
    retryable: false,
    sentences: [
      'the turn stopped: cancelled',
      'the run ended with status CANCELLED',
      'The run of cursor-agent was cancelled.',
    ],
    // Whole sentences only: a service's own "[canceled]" or "operation was cancelled" is a failure of its own.
    patterns: [
      /^the turn stopped: cancelled$/i,
      /^the run ended with status cancelled$/i,
      /^The run of \S{1,200} was cancelled\.$/,
    ],
  },
];

/** Longest text a sentence is classified from: a failure line is short; a longer text is cut, not scanned whole. */
const MAX_CLASSIFIED_CHARS = 4096;

/**
 * The class of a failure, from the sentence the CLI wrote (or all of its standard error): the first class of
 * {@link FAILURE_CLASSES} one of whose patterns matches, else `unknown`.
 */
export function classifyFailure(text: string | undefined): FailureCode {
  if (text === undefined || text === '') return 'unknown';
  const scanned = text.length > MAX_CLASSIFIED_CHARS ? text.slice(0, MAX_CLASSIFIED_CHARS) : text;
  for (const failureClass of FAILURE_CLASSES) {
    if (failureClass.patterns.some((pattern) => pattern.test(scanned))) return failureClass.code;
  }
  return 'unknown';
}
