import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args';

// Rule: `npm run serve` takes the host's options and passes every other flag to the core as kube-apiserver's flag of that name.
describe('parseCliArgs', () => {
  it('reads the host options in both pflag spellings', () => {
    const options = parseCliArgs(['--port', '9090', '--kubeconfig=./kc', '--data-dir', '/tmp/d']);
    expect(options).toMatchObject({ port: 9090, kubeconfig: './kc', dataDir: '/tmp/d', bindAddress: '127.0.0.1', flags: {} });
  });

  it('defaults to port 8080 on 127.0.0.1, in memory', () => {
    expect(parseCliArgs([])).toMatchObject({ port: 8080, bindAddress: '127.0.0.1', dataDir: undefined, kubeconfig: undefined });
  });

  it('passes kube-apiserver flags through by name', () => {
    const options = parseCliArgs([
      '--runtime-config=batch/v1=false,api/all=true',
      '--feature-gates',
      'AllowUnsafeMalformedObjectDeletion=true',
      '--etcd-compaction-interval=1m',
    ]);
    expect(options.flags).toEqual({
      'runtime-config': 'batch/v1=false,api/all=true',
      'feature-gates': 'AllowUnsafeMalformedObjectDeletion=true',
      'etcd-compaction-interval': '1m',
    });
  });

  it('treats a flag followed by another flag as a boolean', () => {
    expect(parseCliArgs(['--enable-priority-and-fairness', '--port=1']).flags).toEqual({ 'enable-priority-and-fairness': 'true' });
  });

  it('refuses a bad port and a stray word', () => {
    expect(() => parseCliArgs(['--port=http'])).toThrow('invalid argument "http" for "--port" flag');
    expect(() => parseCliArgs(['serve'])).toThrow('unexpected argument "serve"');
  });
});
