// The CustomResourceDefinition (apiextensions.k8s.io/v1) as JSON, with the
// names kube-apiserver uses. Only what this module reads is typed; every
// object keeps the fields it was given.

export const APIEXTENSIONS_GROUP = 'apiextensions.k8s.io';
export const CRD_RESOURCE = 'customresourcedefinitions';
export const CRD_KIND = 'CustomResourceDefinition';
/** The finalizer that keeps a deleted CRD until its custom resources are gone. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export type JSONSchemaProps = Record<string, unknown>;

export interface CustomResourceDefinitionNames {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceColumnDefinition {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface CustomResourceSubresourceScale {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface CustomResourceSubresources {
  status?: Record<string, unknown>;
  scale?: CustomResourceSubresourceScale;
}

export interface SelectableField {
  jsonPath?: string;
}

export interface CustomResourceDefinitionVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface CustomResourceConversion {
  strategy?: string;
  webhook?: { clientConfig?: Record<string, unknown>; conversionReviewVersions?: string[] };
}

export interface CustomResourceDefinitionSpec {
  group?: string;
  names?: CustomResourceDefinitionNames;
  scope?: string;
  versions?: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition {
  apiVersion?: string;
  kind?: string;
  metadata?: import('../kinds/types').ObjectMeta;
  spec?: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
  [field: string]: unknown;
}
