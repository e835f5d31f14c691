/** Manager i gets colour i (mod the palette); CSS defines --owner-N for both themes. */
export const OWNER_COLORS = 8;

export function ownerColor(index: number): string {
  return `var(--owner-${index % OWNER_COLORS})`;
}
