// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EmailAddress, emailAddressParts } from '../../widgets/text/EmailAddress';

afterEach(cleanup);

const LONG = 'valentina.gomez-hernandez.longname@subdomain.example-bank.com';

// A long address on a 390 px screen wraps only where it still reads as an address (tests/e2e/email-address.test.ts).
describe('an e-mail address breaks only after its "@" and before its dots', () => {
  it('is cut into the pieces between those places, never inside "gomez-hernandez"', () => {
    expect(emailAddressParts(LONG)).toEqual(['valentina', '.gomez-hernandez', '.longname@', 'subdomain', '.example-bank', '.com']);
    expect(emailAddressParts('m***@example.com')).toEqual(['m***@', 'example', '.com']);
  });

  it('shows the whole address as its text, with a break opportunity between the pieces only', () => {
    const { container } = render(<EmailAddress address={LONG} />);
    expect(container.textContent).toBe(LONG);
    expect(container.querySelectorAll('wbr')).toHaveLength(5);
    expect([...container.querySelectorAll('.email-address__part')].map((part) => part.textContent)).toEqual(emailAddressParts(LONG));
  });
});
