// What KubeTab knows of the images learners and tutorials use: each one's
// size (what `Successfully pulled image … Image size: N bytes.` and
// node.status.images say), its ENTRYPOINT and CMD (so a container without a
// command runs the image's usual process, and `args` replace CMD as in
// Docker), the port its server listens on, and its idle footprint for
// metrics. An image not listed here pulls too: it gets a size derived from
// its name and runs a quiet process of that name that never exits.

import type { ImageReference } from './image-reference';
import { unitFraction } from '../runtime/hash';

export interface ImageInfo {
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
  readonly sizeBytes: number;
  /** Memory an idle instance holds (bytes) and the CPU it burns (nanocores), for metrics. */
  readonly idleMemoryBytes: number;
  readonly idleCpuNanoCores: number;
  /** The image has a shell (`sh`) and the usual utilities; distroless-like component images do not. */
  readonly hasShell: boolean;
  /** /etc/os-release content. */
  readonly osRelease: string;
}

const MiB = 1024 * 1024;

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\nHOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\nBUG_REPORT_URL="https://bugs.debian.org/"\n';
const ALPINE = 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.21.0\nPRETTY_NAME="Alpine Linux v3.21"\nHOME_URL="https://alpinelinux.org/"\nBUG_REPORT_URL="https://gitlab.alpinelinux.org/alpine/aports/-/issues"\n';
const UBUNTU = 'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nVERSION="24.04.1 LTS (Noble Numbat)"\nVERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\nHOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\nBUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\nUBUNTU_CODENAME=noble\n';
const BUSYBOX = 'NAME="BusyBox"\nVERSION_ID=1.37.0\n';
const DISTROLESS = 'PRETTY_NAME="Distroless"\nNAME="Debian GNU/Linux"\nID="debian"\nVERSION_ID="12"\nVERSION="Debian GNU/Linux 12 (bookworm)"\nHOME_URL="https://github.com/GoogleContainerTools/distroless"\n';

function image(entrypoint: string[], cmd: string[], sizeMiB: number, idleMiB: number, idleMilli: number, osRelease: string, hasShell = true): ImageInfo {
  return {
    entrypoint,
    cmd,
    sizeBytes: Math.round(sizeMiB * MiB),
    idleMemoryBytes: Math.round(idleMiB * MiB),
    idleCpuNanoCores: idleMilli * 1_000_000,
    hasShell,
    osRelease,
  };
}

/** By repository (domain/path), without the tag. */
const CATALOG: Readonly<Record<string, ImageInfo>> = {
  'docker.io/library/nginx': image(['/docker-entrypoint.sh'], ['nginx', '-g', 'daemon off;'], 68.8, 3.2, 1, DEBIAN),
  'docker.io/library/httpd': image([], ['httpd-foreground'], 55.6, 6.5, 1, DEBIAN),
  'docker.io/library/redis': image(['docker-entrypoint.sh'], ['redis-server'], 44.1, 3.6, 2, DEBIAN),
  'docker.io/library/postgres': image(['docker-entrypoint.sh'], ['postgres'], 150.3, 22.4, 2, DEBIAN),
  'docker.io/library/mysql': image(['docker-entrypoint.sh'], ['mysqld'], 163.2, 380, 4, 'NAME="Oracle Linux Server"\nVERSION="9.5"\nID="ol"\nPRETTY_NAME="Oracle Linux Server 9.5"\n'),
  'docker.io/library/busybox': image([], ['sh'], 2.1, 0.3, 0, BUSYBOX),
  'docker.io/library/alpine': image([], ['/bin/sh'], 3.5, 0.4, 0, ALPINE),
  'docker.io/library/ubuntu': image([], ['/bin/bash'], 28.4, 0.6, 0, UBUNTU),
  'docker.io/library/debian': image([], ['bash'], 46.7, 0.6, 0, DEBIAN),
  'docker.io/library/python': image([], ['python3'], 385.3, 9, 0, DEBIAN),
  'docker.io/library/node': image(['docker-entrypoint.sh'], ['node'], 380.1, 8, 0, DEBIAN),
  'docker.io/library/golang': image([], ['bash'], 283.6, 0.6, 0, DEBIAN),
  'registry.k8s.io/pause': image(['/pause'], [], 0.3, 0.2, 0, DISTROLESS, false),
  'registry.k8s.io/busybox': image([], ['sh'], 0.7, 0.3, 0, BUSYBOX),
  'registry.k8s.io/e2e-test-images/agnhost': image(['/agnhost'], ['pause'], 53.2, 4, 1, ALPINE),
  'registry.k8s.io/kube-apiserver': image(['kube-apiserver'], [], 27.1, 250, 40, DISTROLESS, false),
  'registry.k8s.io/kube-controller-manager': image(['kube-controller-manager'], [], 25.7, 60, 15, DISTROLESS, false),
  'registry.k8s.io/kube-scheduler': image(['kube-scheduler'], [], 19.8, 25, 4, DISTROLESS, false),
  'registry.k8s.io/kube-proxy': image(['/usr/local/bin/kube-proxy'], [], 30.2, 20, 1, DISTROLESS),
  'registry.k8s.io/etcd': image(['etcd'], [], 56.9, 45, 25, DISTROLESS, false),
  'registry.k8s.io/coredns/coredns': image(['/coredns'], [], 18.6, 14, 3, DISTROLESS, false),
  'docker.io/kindest/kindnetd': image(['/bin/kindnetd'], [], 39.0, 12, 1, DISTROLESS, false),
  'docker.io/kindest/local-path-provisioner': image(['local-path-provisioner'], ['--debug', 'start', '--helper-image', 'docker.io/kindest/local-path-helper:v20241212-8ac705d0', '--config', '/etc/config/config.json'], 22.5, 9, 1, ALPINE),
  'registry.k8s.io/metrics-server/metrics-server': image(['/metrics-server'], [], 19.2, 18, 4, DISTROLESS, false),
};

/** The images a kind node has before any pod asks (its preloaded archive), as name:tag. */
export const PRELOADED_IMAGES: readonly string[] = [
  'registry.k8s.io/pause:3.10',
  'registry.k8s.io/kube-apiserver:v1.32.0',
  'registry.k8s.io/kube-controller-manager:v1.32.0',
  'registry.k8s.io/kube-scheduler:v1.32.0',
  'registry.k8s.io/kube-proxy:v1.32.0',
  'registry.k8s.io/etcd:3.5.16-0',
  'registry.k8s.io/coredns/coredns:v1.11.3',
  'docker.io/kindest/kindnetd:v20241212-9f82dd49',
  'docker.io/kindest/local-path-provisioner:v20241212-8ac705d0',
  'docker.io/kindest/local-path-helper:v20241212-8ac705d0',
];

/** The last path component: what an unknown image's process is called. */
function baseName(ref: ImageReference): string {
  const parts = ref.path.split('/');
  return parts[parts.length - 1]!;
}

/** What KubeTab knows of an image (a made-up but stable description for one it does not know). */
export function imageInfo(ref: ImageReference): ImageInfo {
  const known = CATALOG[ref.repository];
  if (known) return known;
  // An unknown image: a server of its own that prints nothing and never exits.
  const size = 8 + Math.round(unitFraction(ref.repository) * 120);
  return image([`/usr/local/bin/${baseName(ref)}`], [], size + unitFraction(ref.normalized), 12, 1, DEBIAN);
}

/** Whether KubeTab has a description of this repository (else it runs the quiet default process). */
export function isKnownImage(ref: ImageReference): boolean {
  return ref.repository in CATALOG;
}

/** The process a container runs: Docker's rules for command/args over ENTRYPOINT/CMD. */
export function containerArgv(info: ImageInfo, command: readonly string[] | undefined, args: readonly string[] | undefined): string[] {
  if (command && command.length > 0) return [...command, ...(args ?? [])];
  if (args && args.length > 0) return [...info.entrypoint, ...args];
  return [...info.entrypoint, ...info.cmd];
}
