// The canonical text of the resource.Quantity values metrics-server reports:
// cpu as a DecimalSI quantity of nanocores (scale -9) and memory as a
// BinarySI quantity of bytes, written as Quantity.String() writes them —
// "183369935n", "5m", "1500m", "2" for cpu; "12345Ki", "120Mi", "1000" for
// memory — so clients that parse or print them see what metrics-server sends.

const DECIMAL_SUFFIXES: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * An integer mantissa times 10^exponent in canonical DecimalSI form: factors of
 * ten are taken out of the mantissa, then the exponent is brought down to a
 * multiple of three (the SI suffixes), as the Quantity's canonical bytes are.
 */
function decimalCanonical(mantissa: bigint, exponent: number): string {
  if (mantissa === 0n) return '0';
  let value = mantissa;
  let exp = exponent;
  while (value % 10n === 0n) {
    value /= 10n;
    exp++;
  }
  const over = ((exp % 3) + 3) % 3;
  value *= 10n ** BigInt(over);
  exp -= over;
  const suffix = DECIMAL_SUFFIXES[exp];
  return suffix === undefined ? `${value}e${exp}` : `${value}${suffix}`;
}

/** CPU usage in nanocores as metrics-server writes it (resource.NewScaledQuantity(n, -9)). */
export function formatNanoCores(nanoCores: number): string {
  return decimalCanonical(BigInt(Math.max(0, Math.floor(nanoCores))), -9);
}

/** A DecimalSI quantity of thousandths (resource.NewMilliQuantity), as the HPA controller reports averages. */
export function formatMilliQuantity(milli: number): string {
  const value = Math.trunc(milli);
  return value < 0 ? `-${decimalCanonical(BigInt(-value), -3)}` : decimalCanonical(BigInt(value), -3);
}

/** Memory in bytes as a BinarySI quantity: a power-of-1024 suffix when it divides evenly, else plain bytes. */
export function formatBytes(bytes: number): string {
  let value = BigInt(Math.max(0, Math.floor(bytes)));
  // Quantity.String prints values under 1024 in decimal form ("512", "0").
  if (value < 1024n) return decimalCanonical(value, 0);
  let step = 0;
  while (step < BINARY_SUFFIXES.length - 1 && value % 1024n === 0n) {
    value /= 1024n;
    step++;
  }
  return `${value}${BINARY_SUFFIXES[step]}`;
}
