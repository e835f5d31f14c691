// metav1.Time and MicroTime: {seconds, nanos} on the wire, RFC 3339 text in
// JSON (UTC; seconds for Time, six fraction digits for MicroTime).

/** Unix seconds of Go's zero time.Time (0001-01-01T00:00:00Z), which marshals as JSON null. */
export const GO_ZERO_TIME_SECONDS = -62135596800;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function utcParts(seconds: number): string {
  const d = new Date(seconds * 1000);
  const year = d.getUTCFullYear();
  return `${pad(year, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
}

/** time.Unix(seconds, nanos) normalised so that 0 <= nanos < 1e9. */
function normalise(seconds: number, nanos: number): [number, number] {
  if (nanos < 0 || nanos >= 1e9) {
    const carry = Math.floor(nanos / 1e9);
    return [seconds + carry, nanos - carry * 1e9];
  }
  return [seconds, nanos];
}

/** JSON of metav1.Time; undefined for the zero time (Go writes null). Time drops nanos when decoding protobuf. */
export function formatTime(seconds: number): string | undefined {
  if (seconds === GO_ZERO_TIME_SECONDS) return undefined;
  return `${utcParts(seconds)}Z`;
}

/** JSON of metav1.MicroTime (RFC3339Micro in UTC); undefined for the zero time. */
export function formatMicroTime(seconds: number, nanos: number): string | undefined {
  const [s, n] = normalise(seconds, nanos);
  if (s === GO_ZERO_TIME_SECONDS && n === 0) return undefined;
  return `${utcParts(s)}.${pad(Math.floor(n / 1000), 6)}Z`;
}

/** Seconds and nanoseconds of an RFC 3339 text (any offset, any fraction); undefined if it does not parse. */
export function parseRfc3339(text: string): { seconds: number; nanos: number } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (Number.isNaN(ms)) return undefined;
  // Date.UTC maps years 0–99 to 1900–1999; set the year explicitly.
  const date = new Date(ms);
  date.setUTCFullYear(Number(m[1]));
  let seconds = Math.floor(date.getTime() / 1000);
  if (m[9]) seconds -= (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 3600 + Number(m[11]) * 60);
  const nanos = m[7] ? Number(m[7].slice(0, 9).padEnd(9, '0')) : 0;
  return { seconds, nanos };
}
