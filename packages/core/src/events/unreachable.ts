/**
 * The end of an exhaustive `switch` over a closed union (`default: return unreachable(event)`, or a bare
 * `unreachable(event)` in a function that returns nothing): the call compiles only while every member has a case,
 * so adding a member to the union makes `tsc` name each switch that must decide what to do with it, instead of each
 * silently dropping it.
 *
 * At run time it is reached only by a value from outside the union, such as an event of a type added by a newer
 * version of the core. That is no reason to end a stream, so it returns `undefined` and the caller skips the value.
 *
 * @param value - The value no case matched; typed `never` so that an unhandled member is a compile error here.
 * @returns `undefined`, always.
 */
export function unreachable(value: never): undefined {
  void value;
  return undefined;
}
