// A ticking age cell ("5m10s"), the server's Age column kept current on the page.
import { useAge } from '../lib/time/use-age';

export function Age({ timestamp, fallback }: { readonly timestamp: string | undefined; readonly fallback: string }) {
  const text = useAge(timestamp, fallback);
  return (
    <time className="age" dateTime={timestamp} title={timestamp}>
      {text}
    </time>
  );
}
