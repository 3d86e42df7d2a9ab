/**
 * Whether a variable's or a field's name says that its value is a secret: `GITHUB_TOKEN`, `OPENAI_API_KEY`,
 * `dbPassword`, `client_secret`. The name's last word (or last two) decides, so that `apiKeySource`, `max_tokens`
 * and `inputTokens` are not secrets while `authToken` is.
 */

const SECRET_LAST_WORDS = new Set([
  'secret',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'token',
  'apikey',
  'credential',
  'credentials',
  'authorization',
  'cookie',
]);

const SECRET_LAST_PAIRS = new Set([
  'api key',
  'access key',
  'private key',
  'secret key',
  'signing key',
  'encryption key',
  'master key',
  'session key',
  'client secret',
  'connection string',
]);

/** The longest name looked at; a longer one is no variable's name. */
const MAX_NAME_LENGTH = 128;

/** The words of a name: split at `_`, `-`, `.` and where lower case turns upper (`apiKey`), in lower case. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/**
 * Last words that make a secret of an environment variable's name (`OPENAI_KEY`, `STRIPE_KEY`, `BASIC_AUTH`, `AUTH`),
 * written as variables are, in capitals: in a field's name (`sortKey`, `auth`) they mostly name no secret.
 */
const SECRET_VARIABLE_LAST_WORDS = new Set(['key', 'auth']);

const VARIABLE_NAME = /^[A-Z][A-Z0-9_]*$/;

/** Whether a value under this name is a secret. */
export function isSecretName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return false;
  const words = wordsOf(name);
  const last = words.at(-1);
  if (last === undefined) return false;
  if (SECRET_LAST_WORDS.has(last)) return true;
  if (SECRET_VARIABLE_LAST_WORDS.has(last) && VARIABLE_NAME.test(name)) return true;
  const pair = words.length >= 2 ? `${words.at(-2)} ${last}` : '';
  return SECRET_LAST_PAIRS.has(pair);
}

const ENVIRONMENT_NAMES = new Set([
  'env',
  'environ',
  'environment',
  'envvars',
  'environmentvariables',
  'shellenv',
]);

/** Whether a field of this name holds an environment (variables by name), as a tool's arguments or result may. */
export function isEnvironmentName(name: string): boolean {
  return name.length <= 32 && ENVIRONMENT_NAMES.has(name.replace(/[_-]/g, '').toLowerCase());
}
