// The processes of the images KubeTab knows, as the runtime's programs: the
// shell finds them by name (`nginx`, `/usr/sbin/nginx`), and a container
// without a command runs its image's ENTRYPOINT/CMD into them. Each prints
// the start-up lines its real image prints (to the stream it uses), listens
// on its port and runs until signalled; the databases refuse to start
// without their password variables, as their entrypoints do.

import type { ShellIO } from '../../shell/types';
import type { Program } from '../process';
import { httpdTime, isoSpaceTime, klogHeader, nginxTime, redisTime } from './log-time';
import { runServer } from './server';

/** Runs another command line (a program or the shell): what an entrypoint's `exec "$@"` does. */
export type Exec = (argv: readonly string[], io: ShellIO) => Promise<number>;

const NGINX_VERSION = '1.27.3';

function nginx(): Program {
  return {
    handlesSigterm: true,
    run: (_args, io) =>
      runServer(io, {
        port: 80,
        startup: (t) => {
          const s = nginxTime(t);
          return [
            ['stderr', `${s} [notice] 1#1: using the "epoll" event method`],
            ['stderr', `${s} [notice] 1#1: nginx/${NGINX_VERSION}`],
            ['stderr', `${s} [notice] 1#1: built by gcc 12.2.0 (Debian 12.2.0-14) `],
            ['stderr', `${s} [notice] 1#1: OS: Linux 6.8.0-50-generic`],
            ['stderr', `${s} [notice] 1#1: getrlimit(RLIMIT_NOFILE): 1048576:1048576`],
            ['stderr', `${s} [notice] 1#1: start worker processes`],
            ['stderr', `${s} [notice] 1#1: start worker process 29`],
            ['stderr', `${s} [notice] 1#1: start worker process 30`],
          ];
        },
        shutdown: (t) => {
          const s = nginxTime(t);
          return [
            ['stderr', `${s} [notice] 1#1: signal 15 (SIGTERM) received, exiting`],
            ['stderr', `${s} [notice] 29#29: exiting`],
            ['stderr', `${s} [notice] 29#29: exit`],
            ['stderr', `${s} [notice] 30#30: exiting`],
            ['stderr', `${s} [notice] 30#30: exit`],
            ['stderr', `${s} [notice] 1#1: signal 17 (SIGCHLD) received from 29`],
            ['stderr', `${s} [notice] 1#1: worker process 29 exited with code 0`],
            ['stderr', `${s} [notice] 1#1: worker process 30 exited with code 0`],
            ['stderr', `${s} [notice] 1#1: exit`],
          ];
        },
      }),
  };
}

/** nginx's /docker-entrypoint.sh: configuration messages, then exec of its arguments. */
function nginxEntrypoint(exec: Exec): Program {
  return {
    handlesSigterm: true,
    run: async (args, io) => {
      if (args[0] === 'nginx' || args[0] === 'nginx-debug') {
        for (const line of [
          '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
          '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
          '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
          '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
          '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
          '/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh',
          '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
          '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
          '/docker-entrypoint.sh: Configuration complete; ready for start up',
        ]) io.stdout(`${line}\n`);
      }
      return args.length > 0 ? exec(args, io) : 0;
    },
  };
}

function httpd(): Program {
  return {
    handlesSigterm: true,
    run: (_args, io) =>
      runServer(io, {
        port: 80,
        startup: (t) => {
          const ip = (io.fs.read('/etc/hosts') ?? '').trim().split('\n').pop()?.split('\t')[0] ?? '127.0.0.1';
          const warn = `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${ip}. Set the 'ServerName' directive globally to suppress this message`;
          return [
            ['stderr', warn],
            ['stderr', warn],
            ['stderr', `[${httpdTime(t)}] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/2.4.62 (Unix) configured -- resuming normal operations`],
            ['stderr', `[${httpdTime(t)}] [core:notice] [pid 1:tid 1] AH00094: Command line: 'httpd -D FOREGROUND'`],
          ];
        },
        shutdown: (t) => [['stderr', `[${httpdTime(t)}] [mpm_event:notice] [pid 1:tid 1] AH00491: caught SIGTERM, shutting down`]],
      }),
  };
}

function redis(): Program {
  return {
    handlesSigterm: true,
    run: (args, io) => {
      const portArg = args.indexOf('--port');
      const port = portArg >= 0 ? Number(args[portArg + 1]) || 6379 : 6379;
      return runServer(io, {
        port,
        startup: (t) => {
          const s = redisTime(t);
          return [
            ['stdout', `1:C ${s} # WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition. Being disabled, it can also cause failures without low memory condition, see https://github.com/jemalloc/jemalloc/issues/1328. To fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or run the command 'sysctl vm.overcommit_memory=1' for this to take effect.`],
            ['stdout', `1:C ${s} * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo`],
            ['stdout', `1:C ${s} * Redis version=7.4.1, bits=64, commit=00000000, modified=0, pid=1, just started`],
            ['stdout', `1:C ${s} # Warning: no config file specified, using the default config. In order to specify a config file use redis-server /path/to/redis.conf`],
            ['stdout', `1:M ${s} * monotonic clock: POSIX clock_gettime`],
            ['stdout', `1:M ${s} * Running mode=standalone, port=${port}.`],
            ['stdout', `1:M ${s} * Server initialized`],
            ['stdout', `1:M ${s} * Ready to accept connections tcp`],
          ];
        },
        shutdown: (t) => {
          const s = redisTime(t);
          return [
            ['stdout', `1:signal-handler (${Math.floor(t / 1000)}) Received SIGTERM scheduling shutdown...`],
            ['stdout', `1:M ${s} * User requested shutdown...`],
            ['stdout', `1:M ${s} * Saving the final RDB snapshot before exiting.`],
            ['stdout', `1:M ${s} * DB saved on disk`],
            ['stdout', `1:M ${s} # Redis is now ready to exit, bye bye...`],
          ];
        },
      });
    },
  };
}

function postgres(): Program {
  return {
    handlesSigterm: true,
    run: async (_args, io) => {
      if (!io.env.POSTGRES_PASSWORD && io.env.POSTGRES_HOST_AUTH_METHOD !== 'trust') {
        io.stderr(
          [
            'Error: Database is uninitialized and superuser password is not specified.',
            '       You must specify POSTGRES_PASSWORD to a non-empty value for the',
            '       superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".',
            '',
            '       You may also use "POSTGRES_HOST_AUTH_METHOD=trust" to allow all',
            '       connections without a password. This is *not* recommended.',
            '',
            '       See PostgreSQL documentation about "trust":',
            '       https://www.postgresql.org/docs/current/auth-trust.html',
            '',
          ].join('\n'),
        );
        return 1;
      }
      await io.sleep(1800);
      return runServer(io, {
        port: 5432,
        startup: (t) => {
          const s = `${isoSpaceTime(t)} UTC`;
          return [
            ['stdout', 'The files belonging to this database system will be owned by user "postgres".'],
            ['stdout', 'This user must also own the server process.'],
            ['stdout', ''],
            ['stdout', 'The database cluster will be initialized with locale "en_US.utf8".'],
            ['stdout', 'The default database encoding has accordingly been set to "UTF8".'],
            ['stdout', 'The default text search configuration will be set to "english".'],
            ['stdout', ''],
            ['stdout', 'Data page checksums are disabled.'],
            ['stdout', ''],
            ['stdout', 'Success. You can now start the database server using:'],
            ['stdout', ''],
            ['stdout', "    pg_ctl -D /var/lib/postgresql/data -l logfile start"],
            ['stdout', ''],
            ['stdout', 'PostgreSQL init process complete; ready for start up.'],
            ['stdout', ''],
            ['stderr', `${s} [1] LOG:  starting PostgreSQL 17.2 (Debian 17.2-1.pgdg120+1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit`],
            ['stderr', `${s} [1] LOG:  listening on IPv4 address "0.0.0.0", port 5432`],
            ['stderr', `${s} [1] LOG:  listening on IPv6 address "::", port 5432`],
            ['stderr', `${s} [1] LOG:  listening on Unix socket "/var/run/postgresql/.s.PGSQL.5432"`],
            ['stderr', `${s} [62] LOG:  database system was shut down at ${isoSpaceTime(t - 400, false)} UTC`],
            ['stderr', `${s} [1] LOG:  database system is ready to accept connections`],
          ];
        },
        shutdown: (t) => {
          const s = `${isoSpaceTime(t)} UTC`;
          return [
            ['stderr', `${s} [1] LOG:  received smart shutdown request`],
            ['stderr', `${s} [1] LOG:  background worker "logical replication launcher" (PID 65) exited with exit code 1`],
            ['stderr', `${s} [60] LOG:  shutting down`],
            ['stderr', `${s} [1] LOG:  database system is shut down`],
          ];
        },
      });
    },
  };
}

function mysql(): Program {
  return {
    handlesSigterm: true,
    run: async (_args, io) => {
      const t = isoSpaceTime(io.now(), false);
      const note = (m: string) => io.stdout(`${t}+00:00 [Note] [Entrypoint]: ${m}\n`);
      note('Entrypoint script for MySQL Server 9.1.0-1.el9 started.');
      note("Switching to dedicated user 'mysql'");
      note('Entrypoint script for MySQL Server 9.1.0-1.el9 started.');
      if (!io.env.MYSQL_ROOT_PASSWORD && !io.env.MYSQL_ALLOW_EMPTY_PASSWORD && !io.env.MYSQL_RANDOM_ROOT_PASSWORD) {
        io.stderr(`${t}+00:00 [ERROR] [Entrypoint]: Database is uninitialized and password option is not specified\n    You need to specify one of the following as an environment variable:\n    - MYSQL_ROOT_PASSWORD\n    - MYSQL_ALLOW_EMPTY_PASSWORD\n    - MYSQL_RANDOM_ROOT_PASSWORD\n`);
        return 1;
      }
      await io.sleep(6000);
      return runServer(io, {
        port: 3306,
        startup: (now) => {
          const iso = new Date(now).toISOString().replace('Z', '000Z');
          return [
            ['stderr', `${iso} 0 [System] [MY-015015] [Server] MySQL Server - start.`],
            ['stderr', `${iso} 0 [System] [MY-010116] [Server] /usr/sbin/mysqld (mysqld 9.1.0) starting as process 1`],
            ['stderr', `${iso} 1 [System] [MY-013576] [InnoDB] InnoDB initialization has started.`],
            ['stderr', `${iso} 1 [System] [MY-013577] [InnoDB] InnoDB initialization has ended.`],
            ['stderr', `${iso} 0 [System] [MY-010931] [Server] /usr/sbin/mysqld: ready for connections. Version: '9.1.0'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306  MySQL Community Server - GPL.`],
          ];
        },
        shutdown: (now) => {
          const iso = new Date(now).toISOString().replace('Z', '000Z');
          return [
            ['stderr', `${iso} 0 [System] [MY-013172] [Server] Received SHUTDOWN from user <via user signal>. Shutting down mysqld (Version: 9.1.0).`],
            ['stderr', `${iso} 0 [System] [MY-010910] [Server] /usr/sbin/mysqld: Shutdown complete (mysqld 9.1.0)  MySQL Community Server - GPL.`],
          ];
        },
      });
    },
  };
}

/** The official images' docker-entrypoint.sh: options go to the image's server, anything else is exec'd. */
function dockerEntrypoint(exec: Exec): Program {
  return {
    handlesSigterm: true,
    run: (args, io) => exec(args.length === 0 ? ['sh'] : args, io),
  };
}

/** A Kubernetes component (static pods on the control plane, kube-proxy, CoreDNS): klog lines, then runs. */
function component(name: string, port: number | undefined, lines: readonly [string, string][], healthPorts: readonly number[] = []): Program {
  return {
    handlesSigterm: true,
    run: (_args, io) =>
      runServer(io, {
        ...(port !== undefined ? { port } : {}),
        healthPorts,
        startup: (t) => lines.map(([file, text]) => ['stderr', `${klogHeader(t, 'I', file)} ${text}`] as ['stderr', string]),
        shutdown: (t) => [['stderr', `${klogHeader(t, 'I', 'signal.go:46')} "Received signal to terminate, becoming unready, but keeping serving"`]],
      }),
  };
}

/** A process that prints nothing and never exits (an unknown image's server, pause). */
function quiet(): Program {
  return { handlesSigterm: true, run: (_args, io) => runServer(io, { startup: () => [] }) };
}

/** An unknown image's server: quiet, listening on the container's first declared port. */
export function quietServer(port: number | undefined): Program {
  return { handlesSigterm: true, run: (_args, io) => runServer(io, { ...(port !== undefined ? { port } : {}), startup: () => [] }) };
}

/** The programs every container has, by command name (the shell consults them for names it does not know). */
export function imagePrograms(exec: Exec): Record<string, Program> {
  return {
    '/docker-entrypoint.sh': nginxEntrypoint(exec),
    'docker-entrypoint.sh': dockerEntrypoint(exec),
    nginx: nginx(),
    'nginx-debug': nginx(),
    'httpd-foreground': httpd(),
    httpd: httpd(),
    'redis-server': redis(),
    postgres: postgres(),
    mysqld: mysql(),
    pause: quiet(),
    'kube-apiserver': component('kube-apiserver', 6443, [
      ['options.go:228', 'external host was not specified, using 172.18.0.2'],
      ['server.go:142', 'Version: v1.32.0'],
      ['server.go:144', '"Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""'],
      ['secure_serving.go:213', 'Serving securely on [::]:6443'],
      ['controller.go:615', 'quota admission added evaluator for: leases.coordination.k8s.io'],
    ]),
    'kube-controller-manager': component('kube-controller-manager', 10257, [
      ['serving.go:386', 'Generated self-signed cert in-memory'],
      ['controllermanager.go:185', '"Starting" version="v1.32.0"'],
      ['secure_serving.go:213', 'Serving securely on 127.0.0.1:10257'],
      ['leaderelection.go:257', 'attempting to acquire leader lease kube-system/kube-controller-manager...'],
      ['leaderelection.go:271', 'successfully acquired lease kube-system/kube-controller-manager'],
    ]),
    'kube-scheduler': component('kube-scheduler', 10259, [
      ['serving.go:386', 'Generated self-signed cert in-memory'],
      ['server.go:167', '"Starting Kubernetes Scheduler" version="v1.32.0"'],
      ['secure_serving.go:213', 'Serving securely on 127.0.0.1:10259'],
      ['leaderelection.go:257', 'attempting to acquire leader lease kube-system/kube-scheduler...'],
      ['leaderelection.go:271', 'successfully acquired lease kube-system/kube-scheduler'],
    ]),
    etcd: component('etcd', 2379, [
      ['etcd.go:73', '"Running: " args=["etcd","--advertise-client-urls=https://172.18.0.2:2379"]'],
      ['etcd.go:311', '"starting an etcd server" etcd-version="3.5.16"'],
      ['raft.go:1043', '"became leader at term 2"'],
      ['server.go:2118', '"published local member to cluster through raft"'],
      ['serve.go:250', '"serving client traffic securely" traffic="grpc+http" address="172.18.0.2:2379"'],
    ], [2380, 2381]),
    'kube-proxy': component('kube-proxy', 10256, [
      ['server_linux.go:66', '"Using iptables proxy"'],
      ['server.go:698', '"Successfully retrieved node IP(s)"'],
      ['server_linux.go:170', '"Using iptables Proxier"'],
      ['config.go:199', '"Starting service config controller"'],
      ['shared_informer.go:320', 'Caches are synced for service config'],
    ], [10249]),
    coredns: {
      handlesSigterm: true,
      run: (_a, io) =>
        runServer(io, {
          port: 53,
          // /health on 8080, /ready on 8181, metrics on 9153.
          healthPorts: [8080, 8181, 9153],
          startup: () => [
            ['stdout', '.:53'],
            ['stdout', '[INFO] plugin/reload: Running configuration SHA512 = 591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5f046dd37f1cf888b953814040d180f52594972691cd6ff41be96639138a43908'],
            ['stdout', 'CoreDNS-1.11.3'],
            ['stdout', 'linux/amd64, go1.21.11, a6338e9'],
          ],
          shutdown: () => [['stdout', '[INFO] SIGTERM: Shutting down servers then terminating']],
        }),
    },
    kindnetd: component('kindnetd', undefined, [
      ['main.go:109', 'connected to apiserver: https://kubetab-control-plane:6443'],
      ['main.go:139', 'hostIP = 172.18.0.2'],
      ['main.go:148', 'setting mtu 1500 for CNI'],
    ]),
    'local-path-provisioner': quiet(),
    'metrics-server': component('metrics-server', 10250, [
      ['serving.go:374', 'Generated self-signed cert (/tmp/apiserver.crt, /tmp/apiserver.key)'],
      ['secure_serving.go:213', 'Serving securely on [::]:10250'],
    ]),
  };
}
