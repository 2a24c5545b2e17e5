import { describe, expect, it } from 'vitest';
import { proxyFor } from '../../../agent/domain/net/proxyEnv';

const via = (url: string, env: Record<string, string>) => proxyFor(new URL(url), env)?.href ?? null;

describe('the proxy from the environment', () => {
  it('takes https_proxy (or HTTPS_PROXY) for https:// and http_proxy alone for http://, as curl does', () => {
    const env = { https_proxy: 'http://tls-proxy:3128', HTTPS_PROXY: 'http://upper:1', http_proxy: 'http://plain-proxy:8080' };
    expect(via('https://backup-box.example', env)).toBe('http://tls-proxy:3128/');
    expect(via('http://backup-box.example:8787', env)).toBe('http://plain-proxy:8080/');
    // A CGI program gets a request's `Proxy:` header as HTTP_PROXY: curl ignores that name.
    expect(via('http://backup-box.example:8787', { HTTP_PROXY: 'http://attacker:8080' })).toBeNull();
    expect(via('http://backup-box.example', {})).toBeNull();
    expect(via('https://backup-box.example', { HTTPS_PROXY: ' ' })).toBeNull();
  });

  it('reads a proxy written without a scheme as http://, with its credentials', () => {
    expect(via('https://backup-box.example', { HTTPS_PROXY: 'proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
    expect(via('https://backup-box.example', { HTTPS_PROXY: 'http://me:s%40cret@proxy.corp:3128' })).toBe('http://me:s%40cret@proxy.corp:3128/');
  });

  it('goes straight where the proxy is of a kind it does not speak (socks5://), as before proxies were read', () => {
    expect(via('https://backup-box.example', { https_proxy: 'socks5h://127.0.0.1:1080' })).toBeNull();
    expect(via('http://backup-box.example', { http_proxy: 'https://proxy.corp:3129' })).toBeNull();
  });

  it('never sends this machine through a proxy', () => {
    const env = { http_proxy: 'http://proxy:3128', https_proxy: 'http://proxy:3128' };
    for (const url of ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787', 'https://127.1.2.3', 'http://app.localhost']) expect(via(url, env)).toBeNull();
  });

  it('skips the hosts no_proxy names: names and their subdomains, ports, IPv4 ranges, or everything', () => {
    const env = { https_proxy: 'http://proxy:3128', no_proxy: 'internal.example, .corp.example,*.lan, 10.0.0.0/8, 192.168.1.5:8787 ,[fd00::1]' };
    expect(via('https://internal.example', env)).toBeNull();
    expect(via('https://box.internal.example', env)).toBeNull();
    expect(via('https://corp.example', env)).toBeNull();
    expect(via('https://a.corp.example', env)).toBeNull();
    expect(via('https://nas.lan', env)).toBeNull();
    expect(via('https://10.20.30.40', env)).toBeNull();
    expect(via('https://192.168.1.5:8787', env)).toBeNull();
    expect(via('https://[fd00::1]:8787', env)).toBeNull();
    expect(via('https://192.168.1.5:8788', env)).toBe('http://proxy:3128/');
    expect(via('https://notinternal.example', env)).toBe('http://proxy:3128/');
    expect(via('https://11.0.0.1', env)).toBe('http://proxy:3128/');
    expect(via('https://backup-box.example', { ...env, NO_PROXY: 'x', no_proxy: '*' })).toBeNull();
  });
});
