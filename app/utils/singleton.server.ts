/**
 * One instance per process, surviving dev-server rebuilds (module re-evaluation).
 */
export function singleton<T>(name: string, create: () => T): T {
  const g = globalThis as unknown as { __singletons?: Map<string, unknown> };
  g.__singletons ??= new Map();
  if (!g.__singletons.has(name)) g.__singletons.set(name, create());
  return g.__singletons.get(name) as T;
}
