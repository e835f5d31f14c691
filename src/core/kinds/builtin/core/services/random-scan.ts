// How kube's bitmap allocator picks a free offset when a client asked for no
// particular value: start at a random offset above the static band and scan
// forward (wrapping inside the band) for a free one; only when everything
// above the band is taken, do the same inside the static band.

/** A source of random integers in [0, n). */
export type RandomInt = (n: number) => number;

export const mathRandomInt: RandomInt = (n) => Math.floor(Math.random() * n);

/** The first free offset found, or undefined when the whole range is taken. */
export function randomFreeOffset(size: number, staticBand: number, taken: (offset: number) => boolean, random: RandomInt): number | undefined {
  const band = Math.min(staticBand, size);
  const upper = size - band;
  if (upper > 0) {
    const start = random(upper);
    for (let i = 0; i < upper; i++) {
      const at = band + ((start + i) % upper);
      if (!taken(at)) return at;
    }
  }
  if (band > 0) {
    const start = random(band);
    for (let i = 0; i < band; i++) {
      const at = (start + i) % band;
      if (!taken(at)) return at;
    }
  }
  return undefined;
}
