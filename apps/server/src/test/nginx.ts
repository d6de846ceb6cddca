import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * A real nginx (Debian's package) in front of BTalk instances, for tests. It runs the site
 * configuration shipped in deploy/nginx/ as it is: only the lines marked "# EDIT: instance" and
 * "# EDIT: listen" get the test's addresses. A generated top-level nginx.conf includes it, with the
 * pid, logs and temporary files in a folder of the test's own and `daemon off`, so nginx runs as a
 * child process of the test, without root and without touching /etc/nginx or /var.
 */

/** The site configuration operators install (deploy/nginx/btalk.conf). */
export const SITE_CONFIG = fileURLToPath(new URL('../../../../deploy/nginx/btalk.conf', import.meta.url));
/** The same site with TLS, for documentation (deploy/nginx/btalk-tls.conf). */
export const TLS_SITE_CONFIG = fileURLToPath(
  new URL('../../../../deploy/nginx/btalk-tls.conf', import.meta.url),
);

/** Where nginx is: NGINX_PATH, or Debian's /usr/sbin/nginx (scripts/ensure-nginx.sh installs it). */
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

function nginxMissing(): string | null {
  try {
    accessSync(NGINX, constants.X_OK);
    return null;
  } catch {
    return `nginx is not at ${NGINX}`;
  }
}

const missing = nginxMissing();
if (missing && process.env.CI === 'true') {
  throw new Error(
    `${missing}. Under CI=true the load-balancer tests are required: run scripts/ensure-nginx.sh ` +
      "(installs Debian's nginx-light as root) or set NGINX_PATH.",
  );
}

/** Whether nginx can run here; when not, says plainly that `what` is skipped (never under CI). */
export function nginxAvailable(what: string): boolean {
  if (missing) {
    console.warn(`SKIPPED ${what}: ${missing} (scripts/ensure-nginx.sh installs it; CI=true requires it).`);
  }
  return !missing;
}

const INSTANCE_MARK = '# EDIT: instance';
const LISTEN_MARK = '# EDIT: listen';

/**
 * The site configuration with the test's addresses: the first "# EDIT: instance" line becomes one
 * line per instance (only its address changes, its options stay), the other marked instance lines
 * go, and the "# EDIT: listen" line listens on `listen`. Throws, naming the mark, when the file no
 * longer has the marks the test relies on.
 */
export function siteConfigFor(text: string, instances: string[], listen: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let instanceLines = 0;
  let listenLines = 0;
  for (const line of lines) {
    // Marks count on directives only, not in the comments that talk about them.
    const directive = !line.trimStart().startsWith('#');
    if (directive && line.includes(INSTANCE_MARK)) {
      instanceLines += 1;
      const match = /^(\s*server\s+)\S+(\s.*)$/.exec(line);
      if (!match)
        throw new Error(`deploy/nginx: a "${INSTANCE_MARK}" line is not "server <address> ...": ${line}`);
      if (instanceLines === 1) {
        for (const address of instances) out.push(`${match[1]}${address}${match[2]}`);
      }
      continue;
    }
    if (directive && line.includes(LISTEN_MARK)) {
      listenLines += 1;
      const match = /^(\s*listen\s+)[^\s;]+(.*)$/.exec(line);
      if (!match)
        throw new Error(`deploy/nginx: the "${LISTEN_MARK}" line is not "listen <address> ...": ${line}`);
      out.push(`${match[1]}${listen}${match[2]}`);
      continue;
    }
    out.push(line);
  }
  if (instanceLines === 0) throw new Error(`deploy/nginx: no "${INSTANCE_MARK}" line in the upstream`);
  if (listenLines !== 1) {
    throw new Error(`deploy/nginx: expected one "${LISTEN_MARK}" line, found ${listenLines}`);
  }
  return out.join('\n');
}

/** One line of the test's access log: a request nginx answered, and which instances it tried. */
export interface AccessLogEntry {
  /** Seconds since the epoch, with milliseconds. */
  time: number;
  status: number;
  method: string;
  /** The path, without the query. */
  uri: string;
  /** Each instance nginx sent the request to, in order (`127.0.0.1:port`); empty when none. */
  upstreams: string[];
  /** The status each of them answered (`502` for a connection refused, `101` for a WebSocket). */
  upstreamStatuses: string[];
}

/** The running nginx. */
export interface Nginx {
  /** Its address, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** The folder of its configuration, logs and temporary files. */
  dir: string;
  /** Every request logged so far (a WebSocket is logged when it closes). */
  accessLog(): AccessLogEntry[];
  /** Its error log, for failure messages. */
  errorLog(): string;
  /** Stops it (SIGQUIT: graceful, then SIGKILL after 5 s) and removes its folder. */
  stop(): Promise<void>;
}

/** The top-level nginx.conf around the site: everything in `dir`, in the foreground. */
function mainConfig(dir: string): string {
  // As root, nginx's workers would switch to `nobody`, who cannot write the test's temporary folder.
  const user = process.getuid?.() === 0 ? 'user root root;\n' : '';
  return `${user}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    log_format btalk_test '$msec $status $request_method $uri up=$upstream_addr us=$upstream_status';
    access_log ${dir}/access.log btalk_test;
    include ${dir}/site.conf;
}
`;
}

function parseLine(line: string): AccessLogEntry | null {
  const match = /^(\S+) (\d+) (\S+) (\S+) up=(.*) us=(.*)$/.exec(line);
  if (!match) return null;
  // "127.0.0.1:1, 127.0.0.1:2" after a retry; "-" when no instance was tried. Within one instance
  // group nginx separates with commas; " : " would separate internal redirects.
  const list = (value: string) =>
    value === '-' ? [] : value.split(/\s*[,:]\s+/).filter((v) => v !== '' && v !== '-');
  return {
    time: Number(match[1]),
    status: Number(match[2]),
    method: match[3]!,
    uri: match[4]!,
    upstreams: list(match[5]!),
    upstreamStatuses: list(match[6]!),
  };
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Checks a site configuration with `nginx -t` (in a generated top-level configuration like the one
 * `startNginx` runs); answers nginx's complaint, or null when it accepts it.
 */
export function testSiteConfig(site: string): string | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'btalk-nginx-t-'));
  try {
    writeFileSync(path.join(dir, 'site.conf'), site);
    writeFileSync(path.join(dir, 'nginx.conf'), mainConfig(dir));
    const run = spawnSync(
      NGINX,
      ['-t', '-q', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', 'nginx.conf'],
      {
        encoding: 'utf8',
      },
    );
    if (run.status === 0) return null;
    let log = '';
    try {
      log = readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      // nginx may have said everything on stderr.
    }
    return `${run.stderr}${log}`.trim() || `nginx -t exited ${run.status}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs nginx with the shipped site configuration on `127.0.0.1:port`, balancing over `instances`
 * (`127.0.0.1:port` each), and waits until it accepts connections.
 */
export async function startNginx(options: { port: number; instances: string[] }): Promise<Nginx> {
  const dir = mkdtempSync(path.join(tmpdir(), 'btalk-nginx-'));
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, temp));
  const site = siteConfigFor(
    readFileSync(SITE_CONFIG, 'utf8'),
    options.instances,
    `127.0.0.1:${options.port}`,
  );
  writeFileSync(path.join(dir, 'site.conf'), site);
  writeFileSync(path.join(dir, 'nginx.conf'), mainConfig(dir));
  writeFileSync(path.join(dir, 'access.log'), '');
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', 'nginx.conf'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const errorLog = () => {
    try {
      return `${output}${readFileSync(path.join(dir, 'error.log'), 'utf8')}`.slice(-6000);
    } catch {
      return output;
    }
  };
  const nginx: Nginx = {
    url: `http://127.0.0.1:${options.port}`,
    dir,
    accessLog: () =>
      readFileSync(path.join(dir, 'access.log'), 'utf8')
        .split('\n')
        .map(parseLine)
        .filter((entry): entry is AccessLogEntry => entry !== null),
    errorLog,
    async stop() {
      if (!gone()) {
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 15_000;
  while (!(await portOpen(options.port))) {
    if (gone()) throw new Error(`nginx exited (${child.exitCode}) before it listened:\n${errorLog()}`);
    if (Date.now() > deadline) {
      await nginx.stop();
      throw new Error(`nginx did not listen on ${options.port} within 15 s:\n${errorLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return nginx;
}
