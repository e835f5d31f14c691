// Go's time.Duration String() for the kubelet's messages ("1.234s",
// "512ms", "1m5.5s", "10s"), as `Successfully pulled image … in 1.234s`
// and `back-off 10s restarting failed container` print them.

export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const negative = ms < 0;
  let rest = Math.abs(ms);
  let text: string;
  if (rest < 1000) {
    text = `${trimZeros(rest.toFixed(6))}ms`;
  } else {
    const hours = Math.floor(rest / 3_600_000);
    rest -= hours * 3_600_000;
    const minutes = Math.floor(rest / 60_000);
    rest -= minutes * 60_000;
    const seconds = trimZeros((rest / 1000).toFixed(9));
    text = `${hours ? `${hours}h` : ''}${hours || minutes ? `${minutes}m` : ''}${seconds}s`;
  }
  return negative ? `-${text}` : text;
}

function trimZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
