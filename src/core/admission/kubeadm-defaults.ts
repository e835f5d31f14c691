// kubeadm's kube-apiserver manifest passes --enable-admission-plugins=NodeRestriction.
// KubeTab's hosts stand for a kubeadm cluster, so a server given no
// --enable-admission-plugins runs NodeRestriction on top of kube's default
// set (docs/decisions/0191); a flag given, or NodeRestriction named in
// --disable-admission-plugins, is taken as it is (kubeadm's extraArgs replace
// the flag the same way).

import { NODE_RESTRICTION } from './plugins/node-restriction';

const ENABLE = 'enable-admission-plugins';
const DISABLE = 'disable-admission-plugins';

type Flags = Readonly<Record<string, string | undefined>>;

export function withKubeadmAdmissionDefaults(flags: Flags): Flags {
  if (flags[ENABLE] !== undefined) return flags;
  const disabled = (flags[DISABLE] ?? '').split(',').map((s) => s.trim());
  if (disabled.includes(NODE_RESTRICTION)) return flags;
  return { ...flags, [ENABLE]: NODE_RESTRICTION };
}
