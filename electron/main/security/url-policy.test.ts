import { describe, expect, it } from 'vitest';
import { isAppUrl, isSafeExternalUrl } from './url-policy';

describe('isAppUrl: navigation stays inside the app', () => {
  it.each([
    ['app://takedesk/index.html', true],
    ['app://takedesk/#/projects', true],
    ['app://evil/index.html', false],
    ['https://takedesk/index.html', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s -> %s', (url, expected) => {
    expect(isAppUrl(url, 'app://takedesk')).toBe(expected);
  });

  it('compares ports for the browser-mode origin', () => {
    expect(isAppUrl('http://127.0.0.1:4000/#/x', 'http://127.0.0.1:4000')).toBe(true);
    expect(isAppUrl('http://127.0.0.1:4001/', 'http://127.0.0.1:4000')).toBe(false);
  });
});

describe('isSafeExternalUrl: what may open in the OS browser', () => {
  it.each([
    ['https://help.example.com/article', true],
    ['http://example.org/', true],
    ['https://user:pw@example.com/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['smb://server/share', false],
    ['takedesk://project/1', false],
    ['http://localhost:3000/', false],
    ['http://127.0.0.1:9999/ipc/profiles.list', false],
    ['http://[::1]:80/', false],
    ['http://192.168.1.10/', false],
    ['http://10.0.0.1/', false],
    ['http://172.20.0.1/', false],
    ['http://169.254.169.254/latest/meta-data', false],
    ['http://intranet/', false],
    ['https://printer.local/', false],
    ['', false],
  ])('%s -> %s', (url, expected) => {
    expect(isSafeExternalUrl(url)).toBe(expected);
  });
});
