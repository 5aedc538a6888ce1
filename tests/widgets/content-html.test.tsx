// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContentHtml, sanitiseContentHtml } from '../../widgets/form-engine/content-html';

afterEach(cleanup);

declare global {
  interface Window {
    contentScriptRan?: () => void;
  }
}

// Content HTML is sanitised before rendering and never executes script (ADR 0013).
describe('sanitiseContentHtml', () => {
  it('keeps the markup content uses: links, emphasis, line breaks, lists', () => {
    expect(sanitiseContentHtml('Read our <a href="https://bank.example/privacy" target="_blank">privacy policy</a>, <strong>now</strong>.<br>')).toBe(
      'Read our <a href="https://bank.example/privacy" target="_blank" rel="noopener noreferrer">privacy policy</a>, <strong>now</strong>.<br>',
    );
    expect(sanitiseContentHtml('<ul><li>one</li></ul> <a href="/firstbank/en_us/account/login">sign in</a>')).toBe(
      '<ul><li>one</li></ul> <a href="/firstbank/en_us/account/login">sign in</a>',
    );
  });

  it.each([
    ['<img src=x onerror="window.contentScriptRan()">', ''],
    ['before<script>window.contentScriptRan()</script>after', 'beforeafter'],
    ['<a href="javascript:window.contentScriptRan()">click</a>', '<a>click</a>'],
    ['<a href=" JaVaScRiPt:window.contentScriptRan()">click</a>', '<a>click</a>'],
    ['<a href="data:text/html,<script>1</script>">x</a>', '<a>x</a>'],
    ['<a href="//evil.example">x</a>', '<a>x</a>'],
    ['<b onclick="window.contentScriptRan()">bold</b>', '<b>bold</b>'],
    ['<svg><script>window.contentScriptRan()</script></svg>', ''],
    ['<iframe src="https://evil.example"></iframe>text', 'text'],
    ['<span style="position:fixed">x</span>', '<span>x</span>'],
  ])('drops what could run or mislead: %s', (html, safe) => {
    expect(sanitiseContentHtml(html)).toBe(safe);
  });
});

describe('ContentHtml', () => {
  it('renders the sanitised markup and never runs a script the content carries', async () => {
    const ran = vi.fn();
    window.contentScriptRan = ran;
    const { container } = render(
      <ContentHtml
        className="privacy-notice"
        html={
          'Accept our <a href="https://bank.example/privacy">policy</a><img src=x onerror="window.contentScriptRan()"><script>window.contentScriptRan()</script><a href="javascript:window.contentScriptRan()">x</a>'
        }
      />,
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(container.querySelector('p.privacy-notice')?.innerHTML).toBe('Accept our <a href="https://bank.example/privacy">policy</a><a>x</a>');
    expect(container.querySelector('img, script')).toBeNull();
    container.querySelectorAll('a')[1]?.click();
    expect(ran).not.toHaveBeenCalled();
    delete window.contentScriptRan;
  });
});

describe('ContentHtml on the server (ADR 0024)', () => {
  it('shows the words without the markup, decoded, and never the markup as text or as HTML', () => {
    const html = renderToString(<ContentHtml html={'I agree to the <a href="/privacy">privacy&nbsp;policy</a> &amp; <script>alert(1)</script>terms &#169;'} />);
    expect(html).toBe('<p>I agree to the privacy\u00a0policy &amp; terms ©</p>');
    expect(html).not.toContain('<a');
    expect(html).not.toContain('<script');
  });
});
