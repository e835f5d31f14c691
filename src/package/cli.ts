#!/usr/bin/env node
// The package's command: `npx kubetab serve [flags]` runs the Node server as
// `npm run serve` does in the repository (src/platform/node/cli.ts), for test
// runners that start a server beside them:
//   npx kubetab serve --open --cors-allowed-origins '^http://localhost(:|$)' --print-env
// prints KUBECONFIG=… and KUBETAB_URL=… and serves until interrupted.

const COMMANDS = `Usage: kubetab <command> [flags]

Commands:
  serve     run a KubeTab API server (kubetab serve --help for its flags)
  init      copy the service worker for an app's page into its public folder (kubetab init public)
  version   print KubeTab's version
`;

async function run(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'serve') {
    // The server's CLI reads process.argv: it sees the flags after "serve".
    process.argv = [process.argv[0]!, process.argv[1]!, ...rest];
    await import('../platform/node/cli');
    return;
  }
  if (command === 'init') {
    const { initWorker } = await import('./init-worker');
    initWorker(rest, (line) => process.stdout.write(line));
    return;
  }
  if (command === 'version' || command === '--version') {
    const { KUBETAB_VERSION } = await import('./version');
    process.stdout.write(`${KUBETAB_VERSION}\n`);
    return;
  }
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(COMMANDS);
    return;
  }
  process.stderr.write(`Error: unknown command ${JSON.stringify(command)}\n\n${COMMANDS}`);
  process.exit(2);
}

run(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
