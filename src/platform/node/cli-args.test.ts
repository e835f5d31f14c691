import { describe, expect, it } from 'vitest';
import { parseCliArgs, UnsupportedFlagError } from './cli-args';
import { FLAGS } from './cli-flags';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The names read as flags['name'] anywhere in src (tests and the UI aside). */
const FLAGS_READ_BY_THE_CODE = (() => {
  const names = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (entry !== 'ui' && entry !== 'node_modules') visit(path);
      } else if (entry.endsWith('.ts') && !entry.endsWith('.test.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/flags\??(?:\.[a-zA-Z]+)?\[['"]([a-z0-9-]+)['"]\]/g)) names.add(m[1]!);
      }
    }
  };
  visit(join(__dirname, '../..'));
  return [...names].sort();
})();

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

  it('treats a bool flag without "=" as true and leaves the next word alone, as pflag does', () => {
    expect(parseCliArgs(['--anonymous-auth', '--port=1']).flags).toEqual({ 'anonymous-auth': 'true' });
    expect(() => parseCliArgs(['--open', 'false'])).toThrow('unexpected argument "false"');
    expect(parseCliArgs(['--anonymous-auth=False']).flags).toEqual({ 'anonymous-auth': 'false' });
    expect(() => parseCliArgs(['--open=yes'])).toThrow('invalid argument "yes" for "--open" flag: strconv.ParseBool: parsing "yes": invalid syntax');
  });

  it('gives a flag that takes a value the next word, and refuses it at the end', () => {
    expect(parseCliArgs(['--etcd-prefix', '--odd']).flags).toEqual({ 'etcd-prefix': '--odd' });
    expect(() => parseCliArgs(['--data-dir'])).toThrow('flag needs an argument: --data-dir');
  });

  // Issue 16 item 23: a typo such as --datadir ran in memory and lost everything at exit.
  it('refuses an unknown flag as kube-apiserver does', () => {
    expect(() => parseCliArgs(['--bogus-flag'])).toThrow(/^unknown flag: --bogus-flag$/);
    expect(() => parseCliArgs(['--datadir', '/tmp/d'])).toThrow(/^unknown flag: --datadir$/);
    expect(() => parseCliArgs(['-x'])).toThrow("unknown shorthand flag: 'x' in -x");
  });

  it('refuses a kube-apiserver flag KubeTab does not implement, saying so', () => {
    const attempt = () => parseCliArgs(['--encryption-provider-config=/etc/enc.yaml']);
    expect(attempt).toThrow(UnsupportedFlagError);
    expect(attempt).toThrow('flag --encryption-provider-config is a kube-apiserver flag that KubeTab does not implement');
    expect(() => parseCliArgs(['--allow-privileged=false'])).toThrow(UnsupportedFlagError);
    // At the value KubeTab behaves as (kubeadm's), it is accepted.
    expect(parseCliArgs(['--allow-privileged']).warnings).toEqual([]);
  });

  it('warns of a kube-apiserver flag whose absence changes nothing here, and does not pass it on', () => {
    const options = parseCliArgs(['--profiling=false', '-v', '2', '--max-requests-inflight=800', '--etcd-servers=http://127.0.0.1:2379', '--cors-allowed-origins=^x$']);
    expect(options.warnings).toEqual([
      'Flag --profiling is not implemented by KubeTab and is ignored',
      'Flag --v is not implemented by KubeTab and is ignored',
      'Flag --max-requests-inflight is not implemented by KubeTab and is ignored',
    ]);
    expect(options.flags).toEqual({ 'etcd-servers': 'http://127.0.0.1:2379', 'cors-allowed-origins': '^x$' });
  });

  // Every flag the code reads by name must be in the table as implemented (or the host's).
  it('knows every flag the code reads', () => {
    expect(FLAGS_READ_BY_THE_CODE.length).toBeGreaterThan(40);
    for (const name of FLAGS_READ_BY_THE_CODE) expect([name, FLAGS.get(name)?.role]).toEqual([name, expect.stringMatching(/^(implemented|host)$/)]);
  });

  it('refuses a bad port and a stray word', () => {
    expect(() => parseCliArgs(['--port=http'])).toThrow('invalid argument "http" for "--port" flag');
    expect(() => parseCliArgs(['serve'])).toThrow('unexpected argument "serve"');
  });
});
