// The part of etcd's v3 gRPC API the store uses (etcdserverpb.KV and
// etcdserverpb.Watch), described as protobuf.js JSON rather than shipped as
// .proto files, so that nothing has to be copied next to the compiled code.
// Field numbers are those of etcd's published api/etcdserverpb/rpc.proto and
// api/mvccpb/kv.proto (unchanged since 3.4); only the messages and fields
// KubeTab sends or reads are listed (protobuf skips the others on decode).
// See docs/decisions/0354-etcd-store.md for why this and not the `etcd3` package.

const bytes = (id: number) => ({ type: 'bytes', id });
const int64 = (id: number) => ({ type: 'int64', id });
const bool = (id: number) => ({ type: 'bool', id });

export const ETCD_RPC_SCHEMA = {
  nested: {
    mvccpb: {
      nested: {
        KeyValue: {
          fields: { key: bytes(1), createRevision: int64(2), modRevision: int64(3), version: int64(4), value: bytes(5), lease: int64(6) },
        },
        Event: {
          fields: { type: { type: 'EventType', id: 1 }, kv: { type: 'KeyValue', id: 2 }, prevKv: { type: 'KeyValue', id: 3 } },
          nested: { EventType: { values: { PUT: 0, DELETE: 1 } } },
        },
      },
    },
    etcdserverpb: {
      nested: {
        ResponseHeader: { fields: { clusterId: { type: 'uint64', id: 1 }, memberId: { type: 'uint64', id: 2 }, revision: int64(3), raftTerm: { type: 'uint64', id: 4 } } },
        RangeRequest: {
          fields: {
            key: bytes(1),
            rangeEnd: bytes(2),
            limit: int64(3),
            revision: int64(4),
            serializable: bool(7),
            keysOnly: bool(8),
            countOnly: bool(9),
            minModRevision: int64(10),
          },
        },
        RangeResponse: {
          fields: { header: { type: 'ResponseHeader', id: 1 }, kvs: { rule: 'repeated', type: 'mvccpb.KeyValue', id: 2 }, more: bool(3), count: int64(4) },
        },
        PutRequest: { fields: { key: bytes(1), value: bytes(2), lease: int64(3), prevKv: bool(4) } },
        PutResponse: { fields: { header: { type: 'ResponseHeader', id: 1 }, prevKv: { type: 'mvccpb.KeyValue', id: 2 } } },
        DeleteRangeRequest: { fields: { key: bytes(1), rangeEnd: bytes(2), prevKv: bool(3) } },
        DeleteRangeResponse: {
          fields: { header: { type: 'ResponseHeader', id: 1 }, deleted: int64(2), prevKvs: { rule: 'repeated', type: 'mvccpb.KeyValue', id: 3 } },
        },
        RequestOp: {
          oneofs: { request: { oneof: ['requestRange', 'requestPut', 'requestDeleteRange'] } },
          fields: {
            requestRange: { type: 'RangeRequest', id: 1 },
            requestPut: { type: 'PutRequest', id: 2 },
            requestDeleteRange: { type: 'DeleteRangeRequest', id: 3 },
          },
        },
        ResponseOp: {
          oneofs: { response: { oneof: ['responseRange', 'responsePut', 'responseDeleteRange'] } },
          fields: {
            responseRange: { type: 'RangeResponse', id: 1 },
            responsePut: { type: 'PutResponse', id: 2 },
            responseDeleteRange: { type: 'DeleteRangeResponse', id: 3 },
          },
        },
        Compare: {
          oneofs: { targetUnion: { oneof: ['version', 'createRevision', 'modRevision', 'value'] } },
          fields: {
            result: { type: 'CompareResult', id: 1 },
            target: { type: 'CompareTarget', id: 2 },
            key: bytes(3),
            version: int64(4),
            createRevision: int64(5),
            modRevision: int64(6),
            value: bytes(7),
          },
          nested: {
            CompareResult: { values: { EQUAL: 0, GREATER: 1, LESS: 2, NOT_EQUAL: 3 } },
            CompareTarget: { values: { VERSION: 0, CREATE: 1, MOD: 2, VALUE: 3, LEASE: 4 } },
          },
        },
        TxnRequest: {
          fields: {
            compare: { rule: 'repeated', type: 'Compare', id: 1 },
            success: { rule: 'repeated', type: 'RequestOp', id: 2 },
            failure: { rule: 'repeated', type: 'RequestOp', id: 3 },
          },
        },
        TxnResponse: {
          fields: { header: { type: 'ResponseHeader', id: 1 }, succeeded: bool(2), responses: { rule: 'repeated', type: 'ResponseOp', id: 3 } },
        },
        CompactionRequest: { fields: { revision: int64(1), physical: bool(2) } },
        CompactionResponse: { fields: { header: { type: 'ResponseHeader', id: 1 } } },
        KV: {
          methods: {
            Range: { requestType: 'RangeRequest', responseType: 'RangeResponse' },
            Txn: { requestType: 'TxnRequest', responseType: 'TxnResponse' },
            Compact: { requestType: 'CompactionRequest', responseType: 'CompactionResponse' },
          },
        },
        LeaseGrantRequest: { fields: { TTL: int64(1), ID: int64(2) } },
        LeaseGrantResponse: { fields: { header: { type: 'ResponseHeader', id: 1 }, ID: int64(2), TTL: int64(3), error: { type: 'string', id: 4 } } },
        Lease: {
          methods: { LeaseGrant: { requestType: 'LeaseGrantRequest', responseType: 'LeaseGrantResponse' } },
        },
        WatchRequest: {
          oneofs: { requestUnion: { oneof: ['createRequest', 'cancelRequest', 'progressRequest'] } },
          fields: {
            createRequest: { type: 'WatchCreateRequest', id: 1 },
            cancelRequest: { type: 'WatchCancelRequest', id: 2 },
            progressRequest: { type: 'WatchProgressRequest', id: 3 },
          },
        },
        WatchCreateRequest: {
          fields: { key: bytes(1), rangeEnd: bytes(2), startRevision: int64(3), progressNotify: bool(4), prevKv: bool(6), watchId: int64(7), fragment: bool(8) },
        },
        WatchCancelRequest: { fields: { watchId: int64(1) } },
        WatchProgressRequest: { fields: {} },
        WatchResponse: {
          fields: {
            header: { type: 'ResponseHeader', id: 1 },
            watchId: int64(2),
            created: bool(3),
            canceled: bool(4),
            compactRevision: int64(5),
            cancelReason: { type: 'string', id: 6 },
            fragment: bool(7),
            events: { rule: 'repeated', type: 'mvccpb.Event', id: 11 },
          },
        },
        Watch: {
          methods: { Watch: { requestType: 'WatchRequest', responseType: 'WatchResponse', requestStream: true, responseStream: true } },
        },
      },
    },
  },
};

// ---- the decoded shapes (proto-loader with longs as Number, enums as String, defaults filled) ----

export interface RpcKeyValue {
  key: Buffer;
  createRevision: number;
  modRevision: number;
  version: number;
  value: Buffer;
  lease: number;
}

export interface RpcHeader {
  revision: number;
}

export interface RpcRangeResponse {
  header: RpcHeader;
  kvs: RpcKeyValue[];
  more: boolean;
  count: number;
}

export interface RpcResponseOp {
  response?: 'responseRange' | 'responsePut' | 'responseDeleteRange';
  responseRange?: RpcRangeResponse;
  responsePut?: { header: RpcHeader; prevKv?: RpcKeyValue };
  responseDeleteRange?: { header: RpcHeader; deleted: number; prevKvs: RpcKeyValue[] };
}

export interface RpcTxnResponse {
  header: RpcHeader;
  succeeded: boolean;
  responses: RpcResponseOp[];
}

export interface RpcEvent {
  type: 'PUT' | 'DELETE';
  kv: RpcKeyValue;
  prevKv?: RpcKeyValue | null;
}

export interface RpcWatchResponse {
  header: RpcHeader;
  watchId: number;
  created: boolean;
  canceled: boolean;
  compactRevision: number;
  cancelReason: string;
  fragment: boolean;
  events: RpcEvent[];
}

export interface RpcCompare {
  result: 'EQUAL' | 'GREATER' | 'LESS' | 'NOT_EQUAL';
  target: 'VERSION' | 'CREATE' | 'MOD' | 'VALUE';
  key: Buffer;
  version?: number;
  createRevision?: number;
  modRevision?: number;
  value?: Buffer;
}

export interface RpcRequestOp {
  requestRange?: { key: Buffer; rangeEnd?: Buffer; limit?: number; revision?: number; countOnly?: boolean; keysOnly?: boolean };
  requestPut?: { key: Buffer; value: Buffer; lease?: number; prevKv?: boolean };
  requestDeleteRange?: { key: Buffer; rangeEnd?: Buffer; prevKv?: boolean };
}
