import { describe, expect, it } from 'vitest';
import { buildCsp, createNonce, injectNonce } from './csp';

describe('CSP', () => {
  it('starts from default-src none and never lets the renderer connect elsewhere', () => {
    const csp = buildCsp({ nonce: 'abc', mediaSources: ['takedesk-media:'] });
    expect(csp.startsWith("default-src 'none'")).toBe(true);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("style-src 'self' 'nonce-abc'");
    expect(csp).toContain("media-src 'self' takedesk-media:");
    expect(csp).toMatch(/connect-src 'self'( takedesk-media:)?;/);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('makes a different nonce each time', () => {
    expect(createNonce()).not.toBe(createNonce());
    expect(createNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it('injects the nonce meta tag and nonces style tags', () => {
    const html = '<html><head><title>x</title><style>a{}</style></head></html>';
    const out = injectNonce(html, 'n1');
    expect(out).toContain('<meta name="csp-nonce" content="n1">');
    expect(out).toContain('<style nonce="n1">');
    expect(injectNonce(out, 'n2')).toContain('<meta name="csp-nonce" content="n2">');
  });
});
