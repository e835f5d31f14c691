// Server-side apply (PATCH with application/apply-patch+yaml).

import { errors } from '../errors/status';
import type { RequestScope, ServerContext } from './context';
import type { WriteQueryOptions } from './write-options';

export async function serverSideApply(ctx: ServerContext, scope: RequestScope, body: string, options: WriteQueryOptions): Promise<Response> {
  void ctx;
  void body;
  void options;
  void scope;
  throw errors.unsupportedMediaType('application/apply-patch+yaml', []);
}
