// The meta.k8s.io representations a client may ask for in protobuf
// (`application/vnd.kubernetes.protobuf;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1`,
// as the metadata informers of kube-controller-manager do). The generator
// emits only messages reachable from a served kind, so these few facts are
// written here, read from kubectl 1.32's own meta/v1 and meta/v1beta1
// descriptors. Table has no protobuf message in 1.32 (`+protobuf=false`),
// and kube's endpoints refuse `as=Table` in protobuf.

import type { ProtoPackages } from './types';

const META_V1 = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const META_V1BETA1 = 'k8s.io.apimachinery.pkg.apis.meta.v1beta1';

export const metaTransformPackages: ProtoPackages = {
  [META_V1]: {
    PartialObjectMetadata: { f: [[1, 'metadata', 'ObjectMeta', 0, 'ObjectMeta']] },
    PartialObjectMetadataList: {
      f: [
        [1, 'metadata', 'ListMeta', 0, 'ListMeta'],
        [2, 'items', 'PartialObjectMetadata', 1],
      ],
    },
  },
  // v1beta1 numbers its list's fields the other way round (items=1, metadata=2).
  [META_V1BETA1]: {
    PartialObjectMetadataList: {
      f: [
        [1, 'items', `${META_V1}.PartialObjectMetadata`, 1],
        [2, 'metadata', `${META_V1}.ListMeta`, 0, 'ListMeta'],
      ],
    },
  },
};

export const metaTransformKinds: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'meta.k8s.io/v1': {
    PartialObjectMetadata: `${META_V1}.PartialObjectMetadata`,
    PartialObjectMetadataList: `${META_V1}.PartialObjectMetadataList`,
  },
  // v1beta1.PartialObjectMetadata is an alias of the v1 type.
  'meta.k8s.io/v1beta1': {
    PartialObjectMetadata: `${META_V1}.PartialObjectMetadata`,
    PartialObjectMetadataList: `${META_V1BETA1}.PartialObjectMetadataList`,
  },
};
