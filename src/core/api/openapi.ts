// /openapi/v3 and /openapi/v3/<group-version path>, rendered from the served
// resources and their schemas by the schema module.

import { errors } from '../errors/status';
import type { ServerContext } from './context';

export async function handleOpenApi(ctx: ServerContext, request: Request, url: URL): Promise<Response> {
  void ctx;
  void request;
  void url;
  throw errors.pathNotFound();
}
