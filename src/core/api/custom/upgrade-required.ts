// exec, attach and portforward need a streaming connection upgrade to a
// kubelet. KubeTab has no kubelet; a plain request gets the answer a real
// server gives a request without the upgrade — after admission, which kube's
// connect handler runs first (CONNECT with the PodExecOptions etc.).

import { errors } from '../../errors/status';
import type { SubresourceDefinition } from '../../kinds/types';
import type { RequestScope, ServerContext } from '../context';
import { admitConnect } from './connect-admission';

export async function handleUpgradeRequired(ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition): Promise<Response> {
  await admitConnect(ctx, scope, sub);
  throw errors.badRequest('Upgrade request required');
}
