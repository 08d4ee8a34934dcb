import { describe, expect, it } from 'vitest';
import { findDeepLinkInArgv, parseDeepLink } from './deep-link';

const ID = '3f2a6c1e-9b7d-4e21-8a55-0c1d2e3f4a5b';

describe('parseDeepLink', () => {
  it.each([
    [`takedesk://project/${ID}`, ID],
    [`takedesk://project/${ID}/`, ID],
    [`TAKEDESK://PROJECT/${ID.toUpperCase()}`, ID],
  ])('accepts %s', (url, id) => {
    expect(parseDeepLink(url)).toEqual({ kind: 'project', projectId: id, route: `/projects/${id}` });
  });

  it.each([
    ['another scheme', `https://project/${ID}`],
    ['the app scheme', `app://project/${ID}`],
    ['another host', `takedesk://projects/${ID}`],
    ['no id', 'takedesk://project/'],
    ['a non-UUID id', 'takedesk://project/12345'],
    ['a UUID with a suffix', `takedesk://project/${ID}x`],
    ['an extra segment', `takedesk://project/${ID}/delete`],
    ['a traversal', `takedesk://project/../settings`],
    ['an encoded traversal', `takedesk://project/%2e%2e%2f${ID}`],
    ['an encoded slash', `takedesk://project/${ID}%2Fx`],
    ['a query', `takedesk://project/${ID}?token=abc`],
    ['a fragment', `takedesk://project/${ID}#/settings`],
    ['credentials', `takedesk://user:pw@project/${ID}`],
    ['a port', `takedesk://project:8080/${ID}`],
    ['a script', `takedesk://project/<script>`],
    ['an over-long string', `takedesk://project/${ID}/${'a'.repeat(300)}`],
    ['not a URL', 'takedesk:project'],
    ['empty', ''],
    ['not a string', 42],
  ])('ignores %s', (_name, url) => {
    expect(parseDeepLink(url)).toBeNull();
  });
});

describe('findDeepLinkInArgv', () => {
  it('finds the link among Chromium switches on Windows and Linux', () => {
    const argv = ['C:\\Takedesk\\Takedesk.exe', '--allow-file-access-from-files', `takedesk://project/${ID}`];
    expect(findDeepLinkInArgv(argv)?.projectId).toBe(ID);
  });

  it('returns null for a plain second launch and for a malformed link', () => {
    expect(findDeepLinkInArgv(['/opt/Takedesk/takedesk'])).toBeNull();
    expect(findDeepLinkInArgv(['/opt/Takedesk/takedesk', 'takedesk://project/nope'])).toBeNull();
  });
});
