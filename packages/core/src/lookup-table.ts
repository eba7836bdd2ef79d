/**
 * A table looked up by text from a file. A plain object literal also answers "constructor", "toString" or
 * "__proto__" from Object.prototype: a cell reading "Constructor" became a function, which was sent to Meta as
 * `function Object() { [native code] }` or made hashing throw. This one has no prototype.
 */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T | undefined>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
