// The few files of an image's root file system that learners look at, and
// the ones the kubelet and containerd put into every container: /etc/hosts
// (kubelet-managed, with the pod's IP and host aliases), /etc/hostname,
// /etc/resolv.conf (ClusterFirst DNS), and the image's /etc/os-release,
// /etc/passwd and the content its server serves (nginx's welcome page).

import type { KubeObject } from '../../kinds/types';
import { arr, rec, str } from '../../kinds/builtin/common/table';
import type { ImageInfo } from '../images/image-catalog';
import type { ImageReference } from '../images/image-reference';
import { VolumeFiles } from '../volumes/volume-files';

export const NGINX_WELCOME = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

export const HTTPD_INDEX = '<html><body><h1>It works!</h1></body></html>\n';

const PASSWD = 'root:x:0:0:root:/root:/bin/sh\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nbin:x:2:2:bin:/bin:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n';
const GROUP = 'root:x:0:\ndaemon:x:1:\nbin:x:2:\nnogroup:x:65534:\n';

export interface PodNetworkFacts {
  readonly podIP: string;
  readonly hostname: string;
  readonly hostNetwork: boolean;
  readonly nodeName: string;
  readonly clusterDomain: string;
  readonly clusterDNS: string;
}

/** The pod's hostname: spec.hostname, else its name (cut to 63 characters, as the kubelet does). */
export function podHostname(pod: KubeObject, nodeName: string): string {
  const spec = rec(pod.spec);
  if (spec.hostNetwork === true) return nodeName;
  const name = str(spec.hostname) || (pod.metadata?.name ?? '');
  return name.length > 63 ? name.slice(0, 63).replace(/[-.]+$/, '') : name;
}

/** /etc/hosts as the kubelet writes it for a pod not on the host network. */
export function hostsFile(pod: KubeObject, facts: PodNetworkFacts): string {
  const spec = rec(pod.spec);
  const lines = [
    '# Kubernetes-managed hosts file.',
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    'fe00::0\tip6-localnet',
    'fe00::0\tip6-mcastprefix',
    'fe00::1\tip6-allnodes',
    'fe00::2\tip6-allrouters',
  ];
  const subdomain = str(spec.subdomain);
  if (subdomain) {
    const ns = pod.metadata?.namespace ?? 'default';
    lines.push(`${facts.podIP}\t${facts.hostname}.${subdomain}.${ns}.svc.${facts.clusterDomain}\t${facts.hostname}`);
  } else lines.push(`${facts.podIP}\t${facts.hostname}`);
  const aliases = arr(spec.hostAliases).map(rec);
  if (aliases.length > 0) {
    lines.push('', '# Entries added by HostAliases.');
    for (const a of aliases) lines.push(`${str(a.ip)}\t${arr(a.hostnames).map(String).join('\t')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** /etc/resolv.conf for the pod's dnsPolicy. */
export function resolvConf(pod: KubeObject, facts: PodNetworkFacts): string {
  const spec = rec(pod.spec);
  const ns = pod.metadata?.namespace ?? 'default';
  const policy = str(spec.dnsPolicy) || 'ClusterFirst';
  const dnsConfig = rec(spec.dnsConfig);
  let nameservers: string[];
  let searches: string[];
  let options: string[];
  const hostResolv = { nameservers: ['172.18.0.1'], searches: [] as string[], options: [] as string[] };
  if (policy === 'Default' || (policy === 'ClusterFirst' && facts.hostNetwork)) {
    ({ nameservers, searches, options } = hostResolv);
  } else if (policy === 'None') {
    nameservers = [];
    searches = [];
    options = [];
  } else {
    nameservers = [facts.clusterDNS];
    searches = [`${ns}.svc.${facts.clusterDomain}`, `svc.${facts.clusterDomain}`, facts.clusterDomain];
    options = ['ndots:5'];
  }
  nameservers = [...nameservers, ...arr(dnsConfig.nameservers).map(String)];
  searches = [...searches, ...arr(dnsConfig.searches).map(String)];
  for (const o of arr(dnsConfig.options).map(rec)) options.push(o.value !== undefined ? `${str(o.name)}:${str(o.value)}` : str(o.name));
  const lines: string[] = [];
  if (searches.length) lines.push(`search ${searches.join(' ')}`);
  for (const n of nameservers) lines.push(`nameserver ${n}`);
  if (options.length) lines.push(`options ${options.join(' ')}`);
  return `${lines.join('\n')}\n`;
}

/** A container's root layer: the image's files and the ones the runtime adds. */
export function imageRootFiles(ref: ImageReference, info: ImageInfo, pod: KubeObject, facts: PodNetworkFacts): VolumeFiles {
  const root = new VolumeFiles(false, [
    ['etc/hostname', `${facts.hostname}\n`],
    ['etc/hosts', facts.hostNetwork ? `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n${facts.podIP}\t${facts.nodeName}\n` : hostsFile(pod, facts)],
    ['etc/resolv.conf', resolvConf(pod, facts)],
    ['etc/os-release', info.osRelease],
    ['etc/passwd', PASSWD],
    ['etc/group', GROUP],
  ]);
  for (const dir of ['bin', 'dev', 'home', 'proc', 'root', 'run', 'sys', 'tmp', 'usr/bin', 'usr/local/bin', 'var/log']) root.mkdir(dir);
  switch (ref.repository) {
    case 'docker.io/library/nginx':
      root.put('usr/share/nginx/html/index.html', NGINX_WELCOME);
      root.put('usr/share/nginx/html/50x.html', '<!DOCTYPE html>\n<html>\n<head>\n<title>Error</title>\n</head>\n<body>\n<h1>An error occurred.</h1>\n</body>\n</html>\n');
      root.put('etc/nginx/conf.d/default.conf', 'server {\n    listen       80;\n    listen  [::]:80;\n    server_name  localhost;\n\n    location / {\n        root   /usr/share/nginx/html;\n        index  index.html index.htm;\n    }\n\n    error_page   500 502 503 504  /50x.html;\n    location = /50x.html {\n        root   /usr/share/nginx/html;\n    }\n}\n');
      root.put('etc/nginx/nginx.conf', '\nuser  nginx;\nworker_processes  auto;\n\nerror_log  /var/log/nginx/error.log notice;\npid        /var/run/nginx.pid;\n\n\nevents {\n    worker_connections  1024;\n}\n\n\nhttp {\n    include       /etc/nginx/mime.types;\n    default_type  application/octet-stream;\n\n    sendfile        on;\n    keepalive_timeout  65;\n\n    include /etc/nginx/conf.d/*.conf;\n}\n');
      break;
    case 'docker.io/library/httpd':
      root.put('usr/local/apache2/htdocs/index.html', HTTPD_INDEX);
      break;
    case 'docker.io/library/redis':
      root.mkdir('data');
      break;
    case 'docker.io/library/postgres':
      root.mkdir('var/lib/postgresql/data');
      break;
    default:
      break;
  }
  return root;
}
