import { describe, expect, it } from 'vitest';
import { nodeTooOld } from '../../agent/cli/oldNode';
import { engines } from '../../package.json';

// The boundary of agent/cli/oldNode.ts's check: package.json's engines, major and minor.
describe('a Node too old for Cronbeat', () => {
  it(`is one older than ${engines.node}, and no newer one`, () => {
    expect(engines.node).toBe('>=20.19');
    for (const old of ['8.17.0', '12.22.12', '18.20.4', '19.9.0', '20.0.0', '20.18.3']) expect(nodeTooOld(old), old).toBe(true);
    for (const fine of ['20.19.0', '20.20.2', '21.0.0', '22.12.0', '24.1.0', '100.0.0']) expect(nodeTooOld(fine), fine).toBe(false);
  });
});
