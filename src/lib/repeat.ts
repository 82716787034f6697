/**
 * Runs `task` at once and then every `everyMs`, never two at a time: a tick that finds the last
 * run still going (a locked database, say) is skipped, not queued. The timers never keep Node
 * running by themselves. Returns `stop`. The task handles its own failures (it logs them; the
 * next tick tries again).
 */
export function repeatWithoutOverlap(task: () => Promise<void>, everyMs: number): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await task();
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void run(), 0);
  const timer = setInterval(() => void run(), everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
