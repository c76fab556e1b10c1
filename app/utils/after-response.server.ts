/*
 * Work whose duration must not show in an answer's timing (forgot password: whether the address has an
 * account). The task starts only after the current turn of the event loop, i.e. once the action has
 * returned; its failure is logged, never reported to the requester (who is told the same either way).
 */
const pending = new Set<Promise<void>>();

export function afterResponse(label: string, task: () => Promise<void>): void {
  const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(task)
    .catch((e) => console.error(`[${label}] ${e instanceof Error ? (e.stack ?? e.message) : e}`))
    .finally(() => pending.delete(run));
  pending.add(run);
}

/** Resolves once every task queued by afterResponse has finished (tests; shutdown). */
export async function settleAfterResponse(): Promise<void> {
  while (pending.size) await Promise.all([...pending]);
}
