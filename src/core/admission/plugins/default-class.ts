// The default class among StorageClasses or IngressClasses: the ones
// annotated as default, the newest winning (then the name), as kube's
// GetDefaultClass since 1.26.

import type { KubeObject } from '../../kinds/types';

export function newestDefault(classes: readonly KubeObject[], isDefault: (c: KubeObject) => boolean): KubeObject | undefined {
  const defaults = classes.filter(isDefault);
  defaults.sort((a, b) => {
    const ta = a.metadata?.creationTimestamp ?? '';
    const tb = b.metadata?.creationTimestamp ?? '';
    if (ta !== tb) return ta > tb ? -1 : 1;
    return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
  });
  return defaults[0];
}
