// Custom resources: CustomResourceDefinitions (apiextensions.k8s.io/v1) and
// the resources they define, end to end. The API server calls
// `withCustomResourceDefinitions` when it builds its registry and
// `installCustomResources` once it has a context; its decode, field
// validation and patch steps branch on `isCustomResource` for the custom
// resources' codec rules.

import type { ServerContext } from '../api/context';
import { subresourceHandlers } from '../api/custom';
import type { ResourceDefinition } from '../kinds/types';
import type { FieldManagerSchema } from '../fieldmanager/manager/schema-input';
import { getBuiltinSchemaTable } from '../schema/builtin-table';
import { isCustomResource } from './decode';
import { startCustomResourceController, type CustomResourceController } from './controller';
import { CUSTOM_RESOURCE_SCALE_HANDLER, handleCustomResourceScale } from './scale';

export { customResourceDefinitionsResource, withCustomResourceDefinitions } from './crd-resource';
export { checkCustomResourceTypeMeta, decodeCustomResourceBody, decodePatchedCustomResource, isCustomResource } from './decode';
export { servedDefinitionsFor } from './served-resources';
export type { CustomResourceController } from './controller';

/**
 * Registers the custom-resource scale handler and starts the CRD controller
 * (naming, establishing, finalizer, serving). `builtins` are the built-in
 * definitions, whose names CRDs of the same group may not take.
 */
export function installCustomResources(ctx: ServerContext, builtins: readonly ResourceDefinition[]): CustomResourceController {
  subresourceHandlers[CUSTOM_RESOURCE_SCALE_HANDLER] = handleCustomResourceScale;
  return startCustomResourceController(ctx, builtins);
}

/**
 * The schema the field manager (server-side apply) should merge a custom
 * resource with: the version's structural schema, metadata typed as
 * ObjectMeta, lists atomic and maps granular unless the schema marks them.
 * Undefined for built-in resources. (v1 CRDs always have a structural schema,
 * so `unstructuredCustomResource` never applies.)
 */
export function customResourceFieldManagerSchema(served: { readonly version: { readonly schema: import('../schema/types').SchemaNode } }): FieldManagerSchema | undefined {
  if (!isCustomResource(served)) return undefined;
  return { root: served.version.schema, table: getBuiltinSchemaTable(), customResource: true };
}
