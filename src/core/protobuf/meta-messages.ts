// meta/v1 messages the generator does not emit (it emits only messages
// reachable from a served kind), read from kubectl 1.32's own meta/v1 and
// meta/v1beta1 descriptors:
// - PartialObjectMetadata(List), which a client may ask for in protobuf
//   (`application/vnd.kubernetes.protobuf;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1`,
//   as kube-controller-manager's metadata informers do);
// - the discovery documents APIVersions, APIGroupList and APIGroup (the
//   table has APIResourceList).
// Table has no protobuf message in 1.32 (`+protobuf=false`), and kube's
// endpoints refuse `as=Table` in protobuf.

import type { ProtoPackages } from './types';

const META_V1 = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const META_V1BETA1 = 'k8s.io.apimachinery.pkg.apis.meta.v1beta1';

export const metaPackages: ProtoPackages = {
  [META_V1]: {
    PartialObjectMetadata: { f: [[1, 'metadata', 'ObjectMeta', 0, 'ObjectMeta']] },
    PartialObjectMetadataList: {
      f: [
        [1, 'metadata', 'ListMeta', 0, 'ListMeta'],
        [2, 'items', 'PartialObjectMetadata', 1],
      ],
    },
    APIVersions: {
      f: [
        [1, 'versions', 'string', 1],
        [2, 'serverAddressByClientCIDRs', 'ServerAddressByClientCIDR', 1],
      ],
    },
    APIGroupList: { f: [[1, 'groups', 'APIGroup', 1]] },
    APIGroup: {
      f: [
        [1, 'name', 'string', 8],
        [2, 'versions', 'GroupVersionForDiscovery', 1],
        [3, 'preferredVersion', 'GroupVersionForDiscovery', 0],
        [4, 'serverAddressByClientCIDRs', 'ServerAddressByClientCIDR', 1],
      ],
    },
    GroupVersionForDiscovery: {
      f: [
        [1, 'groupVersion', 'string', 8],
        [2, 'version', 'string', 8],
      ],
    },
    ServerAddressByClientCIDR: {
      f: [
        [1, 'clientCIDR', 'string', 8, 'ClientCIDR'],
        [2, 'serverAddress', 'string', 8],
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

export const metaKinds: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  v1: {
    APIVersions: `${META_V1}.APIVersions`,
    APIGroupList: `${META_V1}.APIGroupList`,
    APIGroup: `${META_V1}.APIGroup`,
  },
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
