// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import arQa from '../../fixtures/content/ar_qa.json';
import { textLookup, formTextsFromContent } from '../../widgets/form-engine/form-texts';
import { isolatedText } from '../../widgets/text/isolated-text';
import { Ltr } from '../../widgets/text/Ltr';

afterEach(cleanup);

const arabic = textLookup(formTextsFromContent({ signIn: arQa.signIn }), 'ar-QA');

describe('values inside right-to-left text are isolated where they stand', () => {
  it('the masked phone of "…إلى *** *** 3456" is a left-to-right, unbreakable isolate; the text reads as before', () => {
    const { container } = render(<p dir="rtl">{isolatedText(arabic, 'signIn.otp.sentToPhone', { destination: '*** *** 3456' })}</p>);
    const isolate = container.querySelector('bdi');
    expect(isolate?.getAttribute('dir')).toBe('ltr');
    expect(isolate?.className).toBe('ltr-value');
    expect(isolate?.textContent).toBe('*** *** 3456');
    expect(container.textContent).toBe(arabic('signIn.otp.sentToPhone', { destination: '*** *** 3456' }));
  });

  it('an e-mail is isolated with its own direction; a count stays with the text in the page’s digits', () => {
    const email = render(<p>{isolatedText(arabic, 'signIn.otp.sentToEmail', { destination: 'm***@example.com' })}</p>).container.querySelector('bdi');
    expect(email?.hasAttribute('dir')).toBe(false);
    expect(email?.textContent).toBe('m***@example.com');
    const counted = render(<p>{isolatedText(arabic, 'signIn.error.otpInvalid', { count: 4 })}</p>).container;
    expect(counted.querySelector('bdi')).toBeNull();
    expect(counted.textContent).toBe(arabic('signIn.error.otpInvalid', { count: 4 }));
  });

  it('<Ltr> shows a masked card left to right on one line', () => {
    const { container } = render(<Ltr>•••• 3707</Ltr>);
    expect(container.innerHTML).toBe('<bdi dir="ltr" class="ltr-value">•••• 3707</bdi>');
  });
});
