// exec, attach and portforward need a streaming connection upgrade to a
// kubelet. KubeTab has no kubelet; a plain request gets the answer a real
// server gives a request without the upgrade.

import { errors } from '../../errors/status';

export async function handleUpgradeRequired(): Promise<Response> {
  throw errors.badRequest('Upgrade request required');
}
