// /version: what kube-apiserver 1.32 reports, with KubeTab named where a
// client can see it without breaking version parsing (gitVersion stays a
// plain v1.32.x so kubectl's skew check is satisfied).

export function versionInfo(host: 'browser' | 'node'): Record<string, string> {
  return {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.0',
    gitCommit: 'kubetab',
    gitTreeState: 'clean',
    buildDate: '2024-12-11T00:00:00Z',
    goVersion: 'go1.23.4',
    compiler: 'kubetab',
    platform: host === 'browser' ? 'browser/serviceworker' : 'node/js',
  };
}
