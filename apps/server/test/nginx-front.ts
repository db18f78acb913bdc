import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './local';

/** Debian's nginx, where this machine has it. */
export const NGINX_BINARY = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find(
  existsSync,
);

export interface NginxFront {
  url: string;
  /** Points the upstream at other instances (a reload: running requests finish). */
  upstreams(ports: number[]): Promise<void>;
  /** Stops nginx; with `keepLogs`, its access and error logs are copied there first. */
  stop(keepLogs?: string): Promise<void>;
}

/**
 * nginx as the README shows it (websocket upgrade for socket.io, the next instance tried when one
 * refuses or is draining), on 127.0.0.1 only, in front of instances on `ports`. The access log
 * names the upstream each request reached and what it answered.
 */
export async function startNginx(ports: number[]): Promise<NginxFront> {
  if (!NGINX_BINARY) throw new Error('nginx is not installed');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'atendi-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const confFile = join(dir, 'nginx.conf');
  const write = (upstreams: number[]) => {
    writeFileSync(confFile, configuration(dir, port, upstreams));
    const test = spawnSync(NGINX_BINARY, ['-t', '-p', dir, '-c', confFile], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx refused its configuration: ${test.stderr}`);
  };
  write(ports);
  const child: ChildProcess = spawn(NGINX_BINARY, ['-p', dir, '-c', confFile], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(`${url}/health`);
      break;
    } catch {}
    if (attempt > 100) throw new Error('nginx did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async upstreams(next) {
      write(next);
      child.kill('SIGHUP');
      // The new workers take over within moments; the old ones finish what they hold.
      await new Promise((resolve) => setTimeout(resolve, 500));
    },
    async stop(keepLogs) {
      child.kill('SIGQUIT');
      await exited;
      if (keepLogs) cpSync(join(dir, 'logs'), keepLogs, { recursive: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function configuration(dir: string, port: number, upstreams: number[]) {
  return `
worker_processes 1;
error_log ${dir}/logs/error.log warn;
pid ${dir}/nginx.pid;
daemon off;
events { worker_connections 1024; }
http {
  log_format upstreams '$status $request_method $request_uri upstream=$upstream_addr upstream_status=$upstream_status';
  access_log ${dir}/logs/access.log upstreams;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream atendi_api {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
  }
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 20m;
    location / {
      proxy_pass http://atendi_api;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 120s;
      proxy_next_upstream error timeout http_502 http_503 non_idempotent;
    }
  }
}
`;
}
