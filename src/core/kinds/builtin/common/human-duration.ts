// The ages kubectl shows: k8s.io/apimachinery's duration.HumanDuration (about
// two significant figures) and ShortHumanDuration, computed by the server
// when it builds a Table (translateTimestampSince).

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's int(d.Seconds()) etc. truncate toward zero. */
const trunc = (n: number) => Math.trunc(n);

export function humanDuration(ms: number): string {
  const seconds = trunc(ms / SECOND);
  // Up to a second in the future still reads as "now" (clock skew).
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = trunc(ms / SECOND) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = trunc(ms / HOUR);
  if (hours < 8) {
    const m = trunc(ms / MINUTE) % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${trunc(hours / 24)}d` : `${trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = trunc(hours / 24) % 365;
    return dy === 0 ? `${trunc(hours / 24 / 365)}y` : `${trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${trunc(hours / 24 / 365)}y`;
}

export function shortHumanDuration(ms: number): string {
  const seconds = trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = trunc(ms / MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = trunc(ms / HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${trunc(hours / 24)}d`;
  return `${trunc(hours / 24 / 365)}y`;
}

/** translateTimestampSince: `<unknown>` for a missing timestamp, else the human age. */
export function ageSince(timestamp: string | null | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t) || t <= ZERO_TIME) return '<unknown>';
  return humanDuration(now - t);
}

/** translateTimestampUntil: the time left until a timestamp. */
export function ageUntil(timestamp: string | null | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t) || t <= ZERO_TIME) return '<unknown>';
  return humanDuration(t - now);
}

/** Go's zero time.Time (0001-01-01T00:00:00Z) serialises; treat it as unset. */
const ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');
