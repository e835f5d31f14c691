// decodeApplyBody's JSON fast path: a JSON object body decodes to the same map
// as through the YAML 1.1 parser (sigs.k8s.io/yaml reads JSON as YAML); a body
// that is not a JSON object still goes through the YAML path and its errors.

import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { decodeApplyBody } from './apply-body';

const viaYaml = (body: string): unknown => (parseAllDocuments(body, { version: '1.1', uniqueKeys: false, merge: true, intAsBigInt: false }) as { toJS(): unknown }[])[0]!.toJS();

describe('decodeApplyBody', () => {
  it('reads a JSON object as the YAML parser does (strings stay strings, the last duplicate key wins)', () => {
    const bodies = [
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"x":"1"}},"data":{"k":"yes","n":"007","d":"2024-01-01","s":"\\u00e9\\/"},"spec":{"replicas":2,"f":1.5,"e":1e3,"b":true,"z":null,"l":[1,"on",{}]},"metadata":{"name":"b"}}',
      '  {"metadata": {"<<": {"name": "quoted, so no merge key"}}}',
    ];
    for (const body of bodies) expect(decodeApplyBody(body)).toStrictEqual(viaYaml(body));
    expect(decodeApplyBody(bodies[0]!).metadata).toStrictEqual({ name: 'b' });
    expect(decodeApplyBody(bodies[0]!).data).toStrictEqual({ k: 'yes', n: '007', d: '2024-01-01', s: 'é/' });
  });

  it('answers a broken JSON body with the YAML error, and an array with the map error', () => {
    expect(() => decodeApplyBody('{"a": [1, }')).toThrow(/^error decoding YAML: error converting YAML to JSON: yaml: /);
    expect(() => decodeApplyBody('[1, 2]')).toThrow('error decoding YAML: json: cannot unmarshal array into Go value of type map[string]interface {}');
  });
});
