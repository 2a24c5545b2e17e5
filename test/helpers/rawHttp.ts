import { request } from 'node:http';

/** A GET with a Host header of our choosing, which fetch does not allow. */
export function getWithHost(url: string, host: string, token?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: host };
    if (token) headers.Authorization = `Bearer ${token}`;
    request(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}
