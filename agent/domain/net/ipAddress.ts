/*
 * IP addresses as text, by the same rule as Node's net.isIP (dotted-quad IPv4 without leading
 * zeros; IPv6 in every compressed form, with an IPv4 tail and a %zone), written here because
 * node:net does not load in the dashboard, which checks its forms by the API's own schemas.
 */

const V4_PART = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const V4 = `(?:${V4_PART}\\.){3}${V4_PART}`;
const G = '(?:[0-9a-fA-F]{1,4})';

const IPV4 = new RegExp(`^${V4}$`);
const IPV6 = new RegExp(
  '^(?:' +
    `(?:${G}:){7}(?:${G}|:)|` +
    `(?:${G}:){6}(?:${V4}|:${G}|:)|` +
    `(?:${G}:){5}(?::${V4}|(?::${G}){1,2}|:)|` +
    `(?:${G}:){4}(?:(?::${G}){0,1}:${V4}|(?::${G}){1,3}|:)|` +
    `(?:${G}:){3}(?:(?::${G}){0,2}:${V4}|(?::${G}){1,4}|:)|` +
    `(?:${G}:){2}(?:(?::${G}){0,3}:${V4}|(?::${G}){1,5}|:)|` +
    `(?:${G}:){1}(?:(?::${G}){0,4}:${V4}|(?::${G}){1,6}|:)|` +
    `(?::(?:(?::${G}){0,5}:${V4}|(?::${G}){1,7}|:))` +
    ')(?:%[0-9a-zA-Z-.:]{1,})?$',
);

/** 4 or 6 for an IPv4 or IPv6 address; 0 (never an exception) for anything else. */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (IPV4.test(text)) return 4;
  if (IPV6.test(text)) return 6;
  return 0;
}
