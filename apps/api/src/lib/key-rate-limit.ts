/**
 * Calls per API key in fixed one-minute windows, in this process's memory like the app's other rate limits.
 * Answers the seconds until the key may call again, or 0 when this call is allowed.
 */
export function keyRateLimiter(perMinute: number, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  let swept = now();
  return (keyId: string): number => {
    const t = now();
    // Forget keys whose window ended, so a process that saw many keys does not keep them all.
    if (t - swept > 60_000) {
      for (const [k, w] of windows) if (t - w.start >= 60_000) windows.delete(k);
      swept = t;
    }
    let w = windows.get(keyId);
    if (!w || t - w.start >= 60_000) windows.set(keyId, (w = { start: t, count: 0 }));
    if (w.count >= perMinute) return Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000));
    w.count += 1;
    return 0;
  };
}
