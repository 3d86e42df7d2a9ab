/**
 * The OpenTelemetry GenAI semantic conventions the traces follow, pinned to one version: attribute names moved and
 * changed between versions, so a backend is told which it gets through the schema URL.
 */

/** The GenAI conventions version the spans follow. */
export const GEN_AI_SEMCONV_VERSION = '1.42.0';

/** Its schema URL, set on the resource and the instrumentation scope. */
export const GEN_AI_SCHEMA_URL = `https://opentelemetry.io/schemas/gen-ai/${GEN_AI_SEMCONV_VERSION}`;

/** `gen_ai.provider.name`: no well-known value names Cursor, and a custom one is allowed. */
export const PROVIDER_NAME = 'cursor';

/** `gen_ai.agent.name`. */
export const AGENT_NAME = 'cursor-agent';

/** Attribute names used, as the pinned version spells them. */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  /** Where the span came from in the log, and what the conventions have no name for. */
  logFile: 'cursor_stream.log.file',
  logLine: 'cursor_stream.log.line',
  sessionStatus: 'cursor_stream.session.status',
  toolStatus: 'cursor_stream.tool.status',
  toolProviderName: 'cursor_stream.tool.provider_name',
  timeSource: 'cursor_stream.time_source',
} as const;
