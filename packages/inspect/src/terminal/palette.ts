/**
 * ANSI styling for the text outputs, decided once per stream: on a terminal by default, never when piped, and as
 * the `NO_COLOR` and `FORCE_COLOR` conventions ask.
 *
 * @see https://no-color.org
 */

/** The styles the text outputs use. Each returns its input unchanged when color is off. */
export interface Palette {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
}

/** What {@link shouldUseColor} looks at: the stream's terminal flag and the environment. */
export interface ColorContext {
  readonly isTTY?: boolean | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Whether to color a stream's output. `FORCE_COLOR` set to anything but `0`/`false` forces color on (even piped);
 * a non-empty `NO_COLOR` turns it off; otherwise color is on for a terminal other than `TERM=dumb`.
 */
export function shouldUseColor({ isTTY, env }: ColorContext): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY === true && env.TERM !== 'dumb';
}

function style(open: number, close: number): (text: string) => string {
  return (text) => (text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`);
}

const identity = (text: string): string => text;

/** A palette that styles text when `enabled`, and leaves it alone otherwise. */
export function createPalette(enabled: boolean): Palette {
  if (!enabled) {
    return {
      enabled,
      bold: identity,
      dim: identity,
      red: identity,
      green: identity,
      yellow: identity,
      blue: identity,
      magenta: identity,
      cyan: identity,
    };
  }
  return {
    enabled,
    bold: style(1, 22),
    dim: style(2, 22),
    red: style(31, 39),
    green: style(32, 39),
    yellow: style(33, 39),
    blue: style(34, 39),
    magenta: style(35, 39),
    cyan: style(36, 39),
  };
}
