/**
 * Reading the records of a few known shapes without `JSON.parse`. Most of a stream is small records laid out alike
 * (a `thinking` delta of one token, an `assistant` delta): the same keys in the same order, the same constants, only
 * a few strings and numbers changing. `JSON.parse` reads every character of each in turn and builds every key; the
 * runtime's regular expressions, compiled to machine code, check a whole line against a layout in one call.
 *
 * So a reader learns layouts: once a record was parsed the usual way, and its value fits one of the shapes derived
 * from the dialect's schema (see `record-shape.ts`), the record's layout becomes a template: a regular expression
 * that matches exactly the lines written like it, with a capture for each string and number that may change, and a
 * plan that builds the value from the captures. A line a template matches is valid JSON of that layout, and the
 * value built is the one `JSON.parse` gives (same keys in the same order, same strings, same numbers); a line no
 * template matches is left to `JSON.parse`. What a template accepts:
 *
 * - the layout's punctuation, keys and constants exactly as the learnt record wrote them, with the whitespace it
 *   wrote between them (see `learnt-spacing.ts`), and no other (no other key order, no other key, no key twice: such
 *   a line is simply not matched);
 * - in a string, any character but a quote, a backslash or a control character, and any valid escape (a string
 *   holding one is decoded by `JSON.parse` itself, so `\u` escapes and lone surrogates read as they always do);
 * - in a number, a whole number of at most 15 digits with no leading zero, so every number read is exact;
 * - strings that decide another field's requirement (a content block's `type`) only as learnt, so a line matched
 *   fits its shape whatever its other strings hold.
 *
 * Templates are few (at most {@link MAX_TEMPLATES}, the least used given up first) and learning is rationed (see
 * {@link createRecordReader}), so a stream of ever new layouts costs little more than parsing it.
 */

import type { JsonObject } from '../dialect.ts';
import { followSpacing, type LineSpacing } from './learnt-spacing.ts';
import type { ObjectShape, RecordShape, ValueShape } from './record-shape.ts';

/**
 * Layouts a reader keeps. One run's records come in a handful of layouts, but a log of many runs joined (CLI versions
 * that write a field more or fewer, with and without `--stream-partial-output`) holds more, and a layout let go is
 * learnt again at its next record: on the real captures joined, 8 kept cost about 3% of `summary` in learning, 16
 * nearly nothing. A line of another layout fails on its first bytes, so a longer list costs little.
 */
export const MAX_TEMPLATES = 16;

/** Records longer than this (bytes) are not learnt from: a layout is learnt as well from a short record. */
export const MAX_LEARNT_RECORD_BYTES = 16 * 1024;

/**
 * V8 cuts a substring of 13 characters or more as a view into the string it comes from, which keeps that string
 * alive: a value kept past its record (a session id, a turn's text) would keep the whole line, and the line the
 * decoded chunk it was cut from. Such strings are copied, as `JSON.parse` copies every string.
 */
const SHORTEST_VIEW = 13;

/** Characters of a JSON string up to its first escape: anything but a quote, a backslash or a control character. */
export const PLAIN_CHARACTERS = '[^"\\\\\\u0000-\\u001f]*';
/**
 * A JSON string's content, as `JSON.parse` accepts it, in two captures: the characters before its first escape, and
 * the rest from that escape on (empty for a string without one).
 */
export const STRING_CONTENT = `(${PLAIN_CHARACTERS})((?:\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})${PLAIN_CHARACTERS})*)`;
/** A JSON number that is a whole number of at most 15 digits. */
export const WHOLE_NUMBER = '(0|[1-9][0-9]{0,14})';

/** Templates kept that have not read a line yet, at most: a layout learnt is most often read by the next records. */
const MAX_UNUSED_TEMPLATES = 2;

/** Learning attempts passed over after a layout that could not be learnt, at first and at most. */
const FIRST_PAUSE = 64;
const LONGEST_PAUSE = 64 * 1024;

/** What reads a dialect's known records and learns their layouts. */
export interface RecordReader {
  /**
   * The value `JSON.parse` gives for `text`, when `text` is laid out as a record learnt before; `undefined`
   * otherwise. `text` must hold no raw control character (the tokenizer gives only such lines).
   */
  read(text: string): JsonObject | undefined;
  /**
   * Learns the layout of a record parsed the usual way (`record` is `JSON.parse(text)`), if it is of one of the
   * reader's shapes and no template reads it yet. Never throws.
   */
  learn(text: string, record: JsonObject): void;
}

/** The last string read at a capture, as written and as read: ids repeat record after record. */
export interface Repeat {
  raw: string;
  value: string;
}

/** How one value is built from a template's captures. */
const CONSTANT = 0;
const STRING = 1;
const NUMBER = 2;
const OBJECT = 3;
const ARRAY = 4;

/** One value of a template. Every part has every field, so that building reads parts of one layout only. */
interface Part {
  readonly op: typeof CONSTANT | typeof STRING | typeof NUMBER | typeof OBJECT | typeof ARRAY;
  readonly constant: string;
  /** The first capture group of a string or number. */
  readonly group: number;
  readonly repeat: Repeat;
  readonly object: ObjectPlan | undefined;
  readonly items: readonly Part[];
}

interface ObjectPlan {
  readonly keys: readonly string[];
  readonly parts: readonly Part[];
}

interface Template {
  /** The text every line of the layout begins with (up to its first string or number that may change). */
  readonly prefix: string;
  readonly pattern: RegExp;
  readonly plan: ObjectPlan;
}

/** A pattern and its plan, being put together from a record. */
interface Layout {
  source: string;
  groups: number;
  /** The literal text before the first capture, while there has been none. */
  prefix: string;
  /** The line learnt from, followed for its whitespace. */
  readonly spacing: LineSpacing;
}

/** Adds a token the layout holds as it is, with the whitespace the learnt line writes before it. */
function addLiteral(layout: Layout, token: string): void {
  const text = layout.spacing.token(token);
  layout.source += literal(text);
  if (layout.groups === 0) layout.prefix += text;
}

/** Learnt templates, the one read most recently first, with learning rationed as {@link createRecordReader} says. */
export interface LearntTemplates<Template> {
  /** The templates, in the order to try them. */
  readonly list: Template[];
  /** Whether learning rests for this record; each call counts the rest down. */
  resting(): boolean;
  /**
   * Keeps a learnt template first; for `undefined` (a layout that could not be learnt), or when too many templates
   * learnt have not read a line (a stream whose every record is laid out anew), rests twice as long.
   */
  keep(template: Template | undefined): void;
  /** Counts a line read by the template at `index`, and moves it first: layouts come in runs. */
  bringForward(index: number): void;
}

/** An empty set of learnt templates. */
export function createLearntTemplates<Template>(): LearntTemplates<Template> {
  const list: Template[] = [];
  /** Whether each template of `list`, at the same index, has read a line. */
  const used: boolean[] = [];
  let pause = 0;
  let nextPause = FIRST_PAUSE;
  function rest(): void {
    pause = nextPause;
    nextPause = Math.min(LONGEST_PAUSE, nextPause * 2);
  }
  return {
    list,
    resting() {
      if (pause === 0) return false;
      pause -= 1;
      return true;
    },
    keep(template) {
      if (template === undefined) {
        rest();
        return;
      }
      // Learning a layout costs a few dozen parses, and a template tried on every line costs a comparison: a stream
      // that lays out each record anew (whitespace or key order that changes line by line) would pay both for every
      // record. Past a few templates that never read a line, the oldest of them goes and learning rests.
      let unused = 0;
      let oldestUnused = -1;
      for (let index = 0; index < used.length; index++)
        if (used[index] === false) {
          unused++;
          oldestUnused = index;
        }
      if (unused >= MAX_UNUSED_TEMPLATES) {
        list.splice(oldestUnused, 1);
        used.splice(oldestUnused, 1);
        rest();
      } else nextPause = FIRST_PAUSE;
      list.unshift(template);
      used.unshift(false);
      if (list.length > MAX_TEMPLATES) {
        list.pop();
        used.pop();
      }
    },
    bringForward(index) {
      used[index] = true;
      if (index === 0) return;
      // Moved in place: a splice makes an array of what it removes, and the layouts of a stream take turns line by
      // line.
      const template = list[index] as Template;
      for (let at = index; at > 0; at--) {
        list[at] = list[at - 1] as Template;
        used[at] = used[at - 1] as boolean;
      }
      list[0] = template;
      used[0] = true;
    },
  };
}

/**
 * A reader of records of `shapes`. Learning is rationed: after a record of a known shape whose layout could not be
 * made a template (a constant written with an escape, say), or once templates learnt pile up unread (see
 * {@link LearntTemplates.keep}), learning pauses for a number of records that doubles with each such time, so that a
 * stream of such records pays for the attempt rarely.
 */
export function createRecordReader(shapes: readonly RecordShape[]): RecordReader {
  const templates = createLearntTemplates<Template>();
  const { list } = templates;

  function read(text: string): JsonObject | undefined {
    for (let index = 0; index < list.length; index++) {
      const template = list[index] as Template;
      // Most lines of another layout differ in their first few characters: a comparison, not a pattern run.
      if (!text.startsWith(template.prefix)) continue;
      const match = template.pattern.exec(text);
      if (match === null) continue;
      templates.bringForward(index);
      return buildObject(template.plan, match);
    }
    return undefined;
  }

  function learn(text: string, record: JsonObject): void {
    if (templates.resting()) return;
    const shape = shapeOf(shapes, record);
    // A record read before the stream was known to be of this dialect may have a template already.
    if (shape === undefined || !fits(record, shape.shape) || read(text) !== undefined) return;
    let template: Template | undefined;
    try {
      template = templateOf(record, shape.shape, text);
    } catch {
      // A pattern the runtime refuses (too large, say) is no template.
    }
    templates.keep(template);
  }

  return { read, learn };
}

/** The shape for `record`: the one of its subtype, else the one of its type. */
export function shapeOf(shapes: readonly RecordShape[], record: JsonObject): RecordShape | undefined {
  let any: RecordShape | undefined;
  for (const shape of shapes) {
    if (shape.type !== record.type) continue;
    if (shape.subtype === undefined) any = shape;
    else if (shape.subtype === record.subtype) return shape;
  }
  return any;
}

/** Whether `value` is what `shape` describes: only its fields, of their kinds, the required ones present. */
export function fits(value: unknown, shape: ObjectShape): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as JsonObject;
  for (const key of Object.keys(record)) {
    const field = Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined;
    if (field === undefined || !fitsValue(record[key], field)) return false;
  }
  for (const name of shape.required) if (!Object.hasOwn(record, name)) return false;
  for (const condition of shape.requiredWhen) {
    const tested = record[condition.field];
    const holds = tested === undefined ? condition.whenAbsent : tested === condition.equals;
    if (holds && condition.required.some((name) => !Object.hasOwn(record, name))) return false;
  }
  return true;
}

function fitsValue(value: unknown, shape: ValueShape): boolean {
  switch (shape.kind) {
    case 'const':
      return value === shape.value;
    case 'string':
      return typeof value === 'string' && (!shape.nonEmpty || value.length > 0);
    case 'whole-number':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
    case 'object':
      return fits(value, shape.shape);
    case 'array':
      return Array.isArray(value) && value.every((item) => fitsValue(item, shape.items));
  }
}

/**
 * The template of `record`'s layout, as `JSON.stringify` writes it but for the whitespace `text` writes between
 * tokens; `undefined` unless `text` is written so (the pattern must match the very text it was learnt from).
 */
function templateOf(record: JsonObject, shape: ObjectShape, text: string): Template | undefined {
  const layout: Layout = { source: '', groups: 0, prefix: '', spacing: followSpacing(text) };
  const plan = objectPlan(record, shape, layout);
  // Whitespace after the record: the pattern ends where the line does.
  addLiteral(layout, '');
  const pattern = new RegExp(`^${layout.source}$`);
  return pattern.test(text) ? { prefix: layout.prefix, pattern, plan } : undefined;
}

function part(op: Part['op'], fields: Partial<Omit<Part, 'op'>>): Part {
  return {
    op,
    constant: fields.constant ?? '',
    group: fields.group ?? 0,
    repeat: { raw: '', value: '' },
    object: fields.object,
    items: fields.items ?? [],
  };
}

function objectPlan(record: JsonObject, shape: ObjectShape, layout: Layout): ObjectPlan {
  // Fields whose value decides another's requirement are kept as learnt.
  const tested = new Set(shape.requiredWhen.map((condition) => condition.field));
  const keys = Object.keys(record);
  const parts: Part[] = [];
  addLiteral(layout, '{');
  keys.forEach((key, index) => {
    if (index > 0) addLiteral(layout, ',');
    addLiteral(layout, JSON.stringify(key));
    addLiteral(layout, ':');
    parts.push(valuePart(record[key], shape.fields[key] as ValueShape, tested.has(key), layout));
  });
  addLiteral(layout, '}');
  return { keys, parts };
}

function valuePart(value: unknown, shape: ValueShape, keep: boolean, layout: Layout): Part {
  switch (shape.kind) {
    case 'const':
      return constantPart(value as string, layout);
    case 'string': {
      if (keep) return constantPart(value as string, layout);
      addLiteral(layout, '"');
      layout.spacing.skipString();
      layout.spacing.token('"');
      const group = layout.groups + 1;
      layout.groups += 2;
      // A string that must not be empty begins with a character (an escape is one).
      layout.source += `${shape.nonEmpty ? '(?!")' : ''}${STRING_CONTENT}"`;
      return part(STRING, { group });
    }
    case 'whole-number':
      addLiteral(layout, '');
      layout.spacing.skipNumber();
      layout.groups += 1;
      layout.source += WHOLE_NUMBER;
      return part(NUMBER, { group: layout.groups });
    case 'object':
      return part(OBJECT, { object: objectPlan(value as JsonObject, shape.shape, layout) });
    case 'array': {
      const items: Part[] = [];
      addLiteral(layout, '[');
      (value as unknown[]).forEach((item, index) => {
        if (index > 0) addLiteral(layout, ',');
        items.push(valuePart(item, shape.items, false, layout));
      });
      addLiteral(layout, ']');
      return part(ARRAY, { items });
    }
  }
}

function constantPart(value: string, layout: Layout): Part {
  addLiteral(layout, JSON.stringify(value));
  return part(CONSTANT, { constant: value });
}

/** `text` as a pattern that matches it alone. */
export function literal(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/**
 * An object's fields in their order. The first few are stored each at a place of its own in the code: each place
 * then sees few layouts, and the runtime keeps such stores fast, where one store for every field of every layout
 * would be slow.
 */
function buildObject(plan: ObjectPlan, match: RegExpExecArray): JsonObject {
  const object: JsonObject = {};
  const { keys, parts } = plan;
  const count = keys.length;
  if (count > 0) object[keys[0] as string] = buildPart(parts[0] as Part, match);
  if (count > 1) object[keys[1] as string] = buildPart(parts[1] as Part, match);
  if (count > 2) object[keys[2] as string] = buildPart(parts[2] as Part, match);
  if (count > 3) object[keys[3] as string] = buildPart(parts[3] as Part, match);
  if (count > 4) object[keys[4] as string] = buildPart(parts[4] as Part, match);
  if (count > 5) object[keys[5] as string] = buildPart(parts[5] as Part, match);
  for (let index = 6; index < count; index++)
    object[keys[index] as string] = buildPart(parts[index] as Part, match);
  return object;
}

function buildPart(part: Part, match: RegExpExecArray): unknown {
  switch (part.op) {
    case CONSTANT:
      return part.constant;
    case STRING:
      return capturedString(match[part.group] as string, match[part.group + 1] as string, part.repeat);
    case NUMBER:
      return wholeNumber(match[part.group] as string);
    case OBJECT:
      return buildObject(part.object as ObjectPlan, match);
    case ARRAY: {
      const items: unknown[] = [];
      for (const item of part.items) items.push(buildPart(item, match));
      return items;
    }
  }
}

/** A string from its two captures (see {@link STRING_CONTENT}). */
export function capturedString(plain: string, escaped: string, repeat: Repeat): string {
  // An escape is decoded by `JSON.parse` itself, which makes a string of its own: the pattern let only valid ones by.
  if (escaped !== '') return JSON.parse(`"${plain}${escaped}"`) as string;
  if (plain.length < SHORTEST_VIEW) return plain;
  // A repeat is the same string, which costs a comparison rather than a copy.
  if (plain === repeat.raw) return repeat.value;
  const value = ownString(plain);
  repeat.raw = value;
  repeat.value = value;
  return value;
}

/** The value of the digits of a whole number of at most 15 digits: exact, as any such integer is in a double. */
function wholeNumber(digits: string): number {
  let value = 0;
  for (let index = 0; index < digits.length; index++) value = value * 10 + (digits.charCodeAt(index) - 0x30);
  return value;
}

/**
 * `value` as a string of its own rather than a view into the text it was cut from (see {@link SHORTEST_VIEW}):
 * joining it to a character and cutting that off makes the runtime flatten the join into a new string.
 */
export function ownString(value: string): string {
  return ` ${value}`.slice(1);
}
