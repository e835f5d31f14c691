// Numbers as Go prints them where kube's output differs from JavaScript's.

import { formatFloatG } from '../../util/go/format-float';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * How a JSON number comes out of sigs.k8s.io/yaml's JSON→YAML conversion:
 * go-yaml re-reads the JSON text, so an integer that fits int64 or uint64
 * stays an integer and anything else becomes a float64 printed with 'g'.
 */
export function yamlNumber(n: number): string {
  const json = JSON.stringify(n);
  if (json === undefined || json === 'null') return formatFloatG(n);
  if (/^-?\d+$/.test(json)) {
    const big = BigInt(json);
    if ((big >= INT64_MIN && big <= INT64_MAX) || (big >= 0n && big <= UINT64_MAX)) return json;
  }
  return formatFloatG(n);
}
