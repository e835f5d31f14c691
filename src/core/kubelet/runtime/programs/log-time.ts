// Timestamps as the image servers print them in their start-up lines (each
// server has its own format), from the process's own time.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const p2 = (n: number) => String(n).padStart(2, '0');
const p3 = (n: number) => String(n).padStart(3, '0');

/** nginx's error log: 2024/12/11 12:00:01 */
export function nginxTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}/${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
}

/** Common log format: 11/Dec/2024:12:00:05 +0000 */
export function clfTime(ms: number): string {
  const d = new Date(ms);
  return `${p2(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0000`;
}

/** redis: 11 Dec 2024 12:00:01.234 */
export function redisTime(ms: number): string {
  const d = new Date(ms);
  return `${p2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${p3(d.getUTCMilliseconds())}`;
}

/** Apache httpd: Wed Dec 11 12:00:01.234567 2024 */
export function httpdTime(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${p3(d.getUTCMilliseconds())}${p3(Math.floor(ms * 1000) % 1000)} ${d.getUTCFullYear()}`;
}

/** postgres / mysql: 2024-12-11 12:00:01.234 UTC */
export function isoSpaceTime(ms: number, withMs = true): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, withMs ? 23 : 19)}`;
}

/** klog's header: I1211 12:00:01.234567       1 */
export function klogHeader(ms: number, severity: 'I' | 'W' | 'E' = 'I', file = 'server.go:123'): string {
  const d = new Date(ms);
  return `${severity}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${p3(d.getUTCMilliseconds())}${p3(Math.floor(ms * 1000) % 1000)}       1 ${file}]`;
}
