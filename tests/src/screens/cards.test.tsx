// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EnrolledAsset } from '../../../schemas/api/enrolled-asset';
import firstbank from '../../../fixtures/sites/firstbank.json';
import vppcards from '../../../fixtures/sites/vppcards.json';
import { answerWith, callsTo, renderPortal, resetFakePortal, signedInAnswers, signInTheBrowser, type Answer, type SentCall } from './support/fake-portal';

/**
 * SPEC §2 edit-pan against ADR 0011's asset calls over the fake gateway: the managed list and
 * capture block (firstbank), the edit/delete form (pan_update_allowed "false"), the standalone
 * form (vpp tenant), the §8 card errors with their X-CID, and the missing module options.
 */
const ASSETS = 'user-attribute/user/assets';
const VALIDATION = 'user-attribute/user/assets/validation';

function asset(assetId: string, lastFour: string, isDefaultAsset: boolean, vop = true): EnrolledAsset {
  return {
    assetId,
    id: assetId,
    siteId: 'firstbank',
    assetType: { name: 'PAN' },
    isDefaultAsset,
    defaultAsset: isDefaultAsset,
    cashbackStatus: vop ? 'ELIGIBLE' : 'NOT_ELIGIBLE',
    metadata: [
      { name: 'LAST_FOUR', value: lastFour },
      { name: 'PRODUCT_TYPE', value: 'C' },
      ...(vop ? [{ name: 'VOP_CARD_ID', value: `vop-${assetId}` } as const] : []),
    ],
  };
}

type Site = typeof firstbank;
function withPanCapture(site: Site, changes: Record<string, string | undefined>): Site {
  return {
    ...site,
    siteFeatureConfigurations: site.siteFeatureConfigurations.map((feature) =>
      feature.name === 'pan_capture'
        ? {
            ...feature,
            featureConfig: Object.fromEntries(Object.entries({ ...feature.featureConfig, ...changes }).filter(([, value]) => value !== undefined)) as Record<
              string,
              string
            >,
          }
        : feature,
    ),
  } as Site;
}

/** A small in-memory assets service (ADR 0011) with one-off failures. */
function fakeAssets(site: unknown, initial: EnrolledAsset[], failures: Record<string, Answer> = {}) {
  let cards = [...initial];
  const siteId = (site as { siteId: string }).siteId;
  answerWith((call: SentCall) => {
    if (call.url === `site-config-service/config/site/${siteId}`) return { status: 200, data: site };
    const failure = failures[`${call.method} ${call.url}`];
    if (failure !== undefined) return failure;
    if (call.url === VALIDATION) {
      const value = (call.body as { value: string }).value;
      return { status: 200, data: { eligible: value !== '4000056655665556', productType: 'C' } };
    }
    if (call.method === 'POST' && call.url === ASSETS) {
      const value = (call.body as { userAssetRequest: { value: string }[] }).userAssetRequest[0]?.value ?? '';
      const added = asset(`a${cards.length + 1}`, value.slice(-4), cards.length === 0);
      cards = [...cards, added];
      return { status: 201, data: [added] };
    }
    const removal = /^user-attribute\/user\/assets\/([^/]+)\/remove-asset$/.exec(call.url);
    if (removal) {
      cards = cards.filter((entry) => entry.assetId !== removal[1]);
      return { status: 200, data: { removed: true } };
    }
    const update = /^user-attribute\/user\/assets\/([^/]+)$/.exec(call.url);
    if (call.method === 'POST' && update && update[1] !== 'validation') {
      cards = cards.map((entry) => ({ ...entry, isDefaultAsset: entry.assetId === update[1] }));
      return { status: 200, data: cards.find((entry) => entry.isDefaultAsset) };
    }
    if (call.url === `${ASSETS}/${siteId}`) return { status: 200, data: cards };
    return signedInAnswers(call);
  });
}

beforeEach(() => {
  resetFakePortal();
  signInTheBrowser();
});
afterEach(cleanup);

async function addCard(number: string, button = 'Add card') {
  fireEvent.change(await screen.findByLabelText('Card number'), { target: { value: number } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: button })));
}

const failure = (status: number, code: string, correlationId: string): Answer => ({
  status,
  data: { error: code, message: 'x' },
  headers: { 'x-cid': correlationId },
});

describe('SPEC §2 managed list and capture block (firstbank, card updates allowed)', () => {
  it('adds a card: server check with digits only, enrolment, the card in the list, panAdded status', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    const list = await screen.findByRole('list', { name: 'Your cards' });
    await addCard('4012 8888 8888 1881');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(callsTo(VALIDATION)[0]?.body).toEqual({ assetType: 'PAN', value: '4012888888881881' });
    expect(callsTo(VALIDATION)[0]?.params).toEqual({ siteId: 'firstbank' });
    expect(callsTo(ASSETS)[0]?.body).toEqual({ siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: '4012888888881881' }] });
    // SPEC §4 status: the new card is pending, the enrolled eligible one (with VOP_CARD_ID) earns rewards.
    expect(within(list).getAllByRole('listitem')[1]?.textContent).toContain('1881');
    expect(within(list).getAllByRole('listitem')[1]?.textContent).toContain('FirstBank Signature · Being checked');
    expect(within(list).getAllByRole('listitem')[0]?.textContent).toContain('FirstBank Signature · Earning rewards');
    expect(await screen.findByText('Your card has been added.')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Card number').value).toBe('');
  });

  it('an ineligible number is not enrolled and shows the configured error', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    await addCard('4000 0566 5566 5556');
    expect((await screen.findByRole('alert')).textContent).toContain('A valid FirstBank card is required');
    expect(callsTo(ASSETS).filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('without a configured error the text is "A valid {product} card is required" (SPEC §8)', async () => {
    fakeAssets(withPanCapture(firstbank, { error: undefined }), [asset('a1', '1111', true)], {
      [`POST ${ASSETS}`]: failure(400, 'CARD_NOT_ELIGIBLE', 'cid-inel'),
    });
    renderPortal('/firstbank/en_us/account/edit-pan');
    await addCard('4111 1111 1111 1111');
    expect((await screen.findByRole('alert')).textContent).toContain('A valid FirstBank card is required');
  });

  it('a card already on the account (CARD_DUPLICATE) says so, not that the number is invalid, even where the site configures its error text', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true)], { [`POST ${ASSETS}`]: failure(409, 'CARD_DUPLICATE', 'cid-dup') });
    renderPortal('/firstbank/en_us/account/edit-pan');
    await addCard('4111 1111 1111 1111');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This card is already on your account.');
    expect(alert.textContent).not.toContain('A valid FirstBank card is required');
  });

  it('a number another account holds on the site (CARD_NOT_AVAILABLE): next to the field, where to get help with the X-CID, nothing about why', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true)], { [`POST ${ASSETS}`]: failure(409, 'CARD_NOT_AVAILABLE', 'cid-held') });
    renderPortal('/firstbank/en_us/account/edit-pan');
    await addCard('4012 8888 8888 1881');
    expect((await screen.findByRole('alert')).textContent).toContain(
      "This card can't be added to your account. If it's yours, contact us and quote X-CID: cid-held",
    );
    expect(screen.getByLabelText<HTMLInputElement>('Card number').value).toBe('4012 8888 8888 1881');
  });

  it('at the limit the add form is hidden (SPEC §4)', async () => {
    fakeAssets(withPanCapture(firstbank, { limit: '1' }), [asset('a1', '1111', true)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    await screen.findByRole('list', { name: 'Your cards' });
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.getByText("You've added the most cards this program allows (1).")).toBeTruthy();
  });

  it('enrolment failure: the card-added error banner with the X-CID; the number stays', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true)], { [`POST ${ASSETS}`]: failure(503, 'UNAVAILABLE', 'cid-add-1') });
    renderPortal('/firstbank/en_us/account/edit-pan');
    await addCard('4012 8888 8888 1881');
    expect(await screen.findByText("We couldn't add your card. X-CID: cid-add-1")).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Card number').value).toBe('4012 8888 8888 1881');
  });

  it('set as default: the modal, the update call with isDefaultAsset true, the Default label moves', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true), asset('a2', '1881', false)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for the card ending in 1881' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Set as default' }));
    const dialog = screen.getByRole('dialog', { name: 'Set as default card' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Set as default' })));
    expect(callsTo('user-attribute/user/assets/a2')[0]?.body).toEqual({ isDefaultAsset: true });
    await waitFor(() => {
      const rows = within(screen.getByRole('list', { name: 'Your cards' })).getAllByRole('listitem');
      expect(rows.find((row) => row.textContent?.includes('1881'))?.textContent).toContain('Default');
    });
  });

  it('set default failure: "Set default card failed. X-CID: {id}"', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true), asset('a2', '1881', false)], {
      'POST user-attribute/user/assets/a2': failure(409, 'CONFLICT', 'cid-def-1'),
    });
    renderPortal('/firstbank/en_us/account/edit-pan');
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for the card ending in 1881' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Set as default' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Set as default' })));
    expect(await screen.findByText('Set default card failed. X-CID: cid-def-1')).toBeTruthy();
  });

  it('SPEC §3 card status events: each add, removal and default change raises cardStatus with showAlert, alertType, alertMessage, bannerId, assets, magicFields', async () => {
    const events: unknown[] = [];
    const listen = (event: Event) => events.push((event as CustomEvent).detail);
    window.addEventListener('cardStatus', listen);
    try {
      fakeAssets(firstbank, [asset('a1', '1111', true)]);
      renderPortal('/firstbank/en_us/account/edit-pan');
      await screen.findByRole('list', { name: 'Your cards' });
      await addCard('4012 8888 8888 1881');
      await waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]).toEqual({
        showAlert: true,
        alertType: 'success',
        alertMessage: 'Your card has been added.',
        bannerId: 'card-added',
        assets: [expect.objectContaining({ assetId: 'a1' }), expect.objectContaining({ assetId: 'a2' })],
        magicFields: {},
      });
      fireEvent.click(await screen.findByRole('button', { name: 'More actions for the card ending in 1881' }));
      fireEvent.click(screen.getByRole('menuitem', { name: 'Set as default' }));
      await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Set as default' })));
      await waitFor(() => expect(events).toHaveLength(2));
      expect(events[1]).toMatchObject({ showAlert: false, alertType: 'success', alertMessage: '', bannerId: 'default-card', magicFields: {} });
      expect((events[1] as { assets: { assetId: string; isDefaultAsset: boolean }[] }).assets.find((entry) => entry.isDefaultAsset)?.assetId).toBe('a2');
    } finally {
      window.removeEventListener('cardStatus', listen);
    }
  });

  it('SPEC §8 managed-list delete failure: the status event has hasError true and no message; the holder still gets the card-removed banner', async () => {
    const events: unknown[] = [];
    const listen = (event: Event) => events.push((event as CustomEvent).detail);
    window.addEventListener('cardStatus', listen);
    try {
      fakeAssets(firstbank, [asset('a1', '1111', true), asset('a2', '1881', false)], {
        'POST user-attribute/user/assets/a2/remove-asset': failure(503, 'UNAVAILABLE', 'cid-rm-2'),
      });
      renderPortal('/firstbank/en_us/account/edit-pan');
      fireEvent.click(await screen.findByRole('button', { name: 'More actions for the card ending in 1881' }));
      fireEvent.click(screen.getByRole('menuitem', { name: 'Remove' }));
      await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove card' })));
      expect(await screen.findByText("We couldn't remove your card. X-CID: cid-rm-2")).toBeTruthy();
      expect(events).toEqual([
        expect.objectContaining({
          hasError: true,
          showAlert: false,
          alertType: 'error',
          alertMessage: '',
          bannerId: 'card-removed',
          magicFields: { id: 'cid-rm-2' },
        }),
      ]);
    } finally {
      window.removeEventListener('cardStatus', listen);
    }
  });

  it('remove: the modal, the remove-asset call, the card gone and panDeleted; a failure is the card-removed banner', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true), asset('a2', '1881', false)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for the card ending in 1881' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Remove' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog', { name: 'Remove card' })).getByRole('button', { name: 'Remove card' })));
    expect(callsTo('user-attribute/user/assets/a2/remove-asset')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your cards' })).getAllByRole('listitem')).toHaveLength(1));
    expect(await screen.findByText('Your card has been removed.')).toBeTruthy();
    cleanup();
    resetFakePortal();
    signInTheBrowser();
    fakeAssets(firstbank, [asset('a1', '1111', true), asset('a2', '1881', false)], {
      'POST user-attribute/user/assets/a2/remove-asset': failure(503, 'UNAVAILABLE', 'cid-rm-1'),
    });
    renderPortal('/firstbank/en_us/account/edit-pan');
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for the card ending in 1881' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Remove' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove card' })));
    expect(await screen.findByText("We couldn't remove your card. X-CID: cid-rm-1")).toBeTruthy();
  });

  it('the last card where cards are not optional: the required message (panDeleteRequiredMessage, else panRequired) in a dialog from that card, no call', async () => {
    fakeAssets(withPanCapture(firstbank, { optional: 'false', panDeleteRequiredMessage: undefined }), [asset('a1', '1111', true)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for the card ending in 1111' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: "You can't remove your only card" });
    expect(dialog.textContent).toContain('Please add at least one card.');
    // Said by the card's own dialog, not in the add form's status line (the capture block below).
    expect(screen.queryByRole('alert')).toBeNull();
    expect(callsTo('user-attribute/user/assets/a1/remove-asset')).toHaveLength(0);
  });

  it('the only card where cards are optional: the last-card rule (SPEC §5 "more than one card"), not "set another card as default"', async () => {
    fakeAssets(withPanCapture(firstbank, { optional: 'true' }), [asset('a1', '1111', true)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for the card ending in 1111' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: "You can't remove your only card" });
    expect(dialog.textContent).toContain('Add another card and make it your default first, then remove this one.');
    expect(screen.queryByRole('dialog', { name: "You can't remove your default card" })).toBeNull();
    expect(callsTo('user-attribute/user/assets/a1/remove-asset')).toHaveLength(0);
  });

  it('missing module options show SPEC §8 "Missing required options for {product}PanModule…"', async () => {
    fakeAssets(withPanCapture(firstbank, { updateAssetUrl: undefined }), []);
    renderPortal('/firstbank/en_us/account/edit-pan');
    expect((await screen.findByRole('alert')).textContent).toContain('Missing required options for FirstBankPanModule. Please provide the required options.');
    expect(screen.queryByLabelText('Card number')).toBeNull();
  });
});

describe('SPEC §2 edit/delete form (pan_update_allowed "false")', () => {
  it('enrolled cards with a delete link, no menu, then the add form', async () => {
    fakeAssets(withPanCapture(firstbank, { pan_update_allowed: 'false' }), [asset('a1', '1111', true), asset('a2', '1881', false, false)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    expect(await screen.findByText('FirstBank Signature · Not earning rewards')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove the card ending in 1881' }));
    expect(screen.queryByRole('button', { name: /More actions/ })).toBeNull();
    await act(async () => fireEvent.click(within(screen.getByRole('dialog', { name: 'Remove card' })).getByRole('button', { name: 'Remove card' })));
    expect(callsTo('user-attribute/user/assets/a2/remove-asset')).toHaveLength(1);
    expect(screen.getByLabelText('Card number')).toBeTruthy();
  });
});

describe('SPEC §2 standalone form (vpp tenant)', () => {
  it('after adding goes to /profile with the card-added success banner', async () => {
    fakeAssets(vppcards, []);
    const { router } = renderPortal('/vppcards/en_us/account/edit-pan');
    fireEvent.paste(await screen.findByLabelText('Card number'), { clipboardData: { getData: () => '4111111111111111' } });
    fireEvent.click(screen.getByLabelText('I agree to the Terms and Conditions and confirm this card is mine.'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add card' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vppcards/en_us/account/profile'));
    expect(await screen.findByText('Your card has been added.')).toBeTruthy();
  });

  it('an enrolment failure goes to /profile with the card-added error banner and its X-CID', async () => {
    fakeAssets(vppcards, [], { [`POST ${ASSETS}`]: failure(503, 'UNAVAILABLE', 'cid-vpp-1') });
    const { router } = renderPortal('/vppcards/en_us/account/edit-pan');
    fireEvent.change(await screen.findByLabelText('Card number'), { target: { value: '4111111111111111' } });
    fireEvent.click(screen.getByLabelText('I agree to the Terms and Conditions and confirm this card is mine.'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add card' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vppcards/en_us/account/profile'));
    expect(await screen.findByText("We couldn't add your card. X-CID: cid-vpp-1")).toBeTruthy();
  });

  it('cancel links to /profile', async () => {
    fakeAssets(vppcards, []);
    renderPortal('/vppcards/en_us/account/edit-pan');
    expect((await screen.findByRole('link', { name: 'Cancel' })).getAttribute('href')).toBe('/vppcards/en_us/account/profile');
  });
});

describe('SPEC §2 read-only list on the profile', () => {
  it('each card as XXXX XXXX XXXX plus last four with its cashback badge (firstbank has cashback on), and the way to edit-pan', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true), asset('a2', '1881', false, false)]);
    renderPortal('/firstbank/en_us/account/profile');
    const list = await screen.findByRole('list', { name: 'Your cards' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]?.textContent).toContain('XXXX XXXX XXXX 1111');
    expect(rows[0]?.textContent).toContain('Eligible for cashback');
    expect(rows[1]?.textContent).toContain('Not eligible for cashback');
    expect(screen.getByRole('link', { name: 'Add or manage cards' }).getAttribute('href')).toBe('/firstbank/en_us/account/edit-pan');
  });

  // One card, two statuses was "Cashback eligibility pending" on the profile and "Earning rewards" in Manage cards.
  it('a card the gateway counts as pending reads as pending on the profile and in Manage cards', async () => {
    const today = { ...asset('a1', '1111', true), cashbackStatus: 'PENDING' as const };
    fakeAssets(firstbank, [today]);
    renderPortal('/firstbank/en_us/account/profile');
    expect(within(await screen.findByRole('list', { name: 'Your cards' })).getByRole('listitem').textContent).toContain('Cashback eligibility pending');
    cleanup();
    renderPortal('/firstbank/en_us/account/edit-pan');
    const row = within(await screen.findByRole('list', { name: 'Your cards' })).getByRole('listitem');
    expect(row.textContent).toContain('FirstBank Signature · Being checked');
    expect(row.textContent).not.toContain('Earning rewards');
  });

  // ADR 0011: PENDING is a new card's first day with the bank; where the status shows, so does why.
  it('a pending card says why, on the profile and in Manage cards; an eligible one says nothing more', async () => {
    const why = "We're checking this card with your bank; this usually takes up to a day.";
    fakeAssets(firstbank, [{ ...asset('a1', '1111', true), cashbackStatus: 'PENDING' as const }, asset('a2', '1881', true)]);
    renderPortal('/firstbank/en_us/account/profile');
    const profileRows = within(await screen.findByRole('list', { name: 'Your cards' })).getAllByRole('listitem');
    expect(profileRows[0]?.textContent).toContain(why);
    expect(profileRows[1]?.textContent).not.toContain(why);
    cleanup();
    renderPortal('/firstbank/en_us/account/edit-pan');
    const rows = within(await screen.findByRole('list', { name: 'Your cards' })).getAllByRole('listitem');
    expect(rows[0]?.textContent).toContain(`Being checked${why}`);
    expect(rows[1]?.textContent).not.toContain(why);
  });

  it('a card that does not earn says so and where to get help, on the profile (badges or not) and in Manage cards; an earning one says nothing more', async () => {
    const why = "This card can't earn rewards on this account. If it's yours, contact us.";
    for (const cashback of ['true', 'false']) {
      fakeAssets(withPanCapture(firstbank, { cashback_enabled: cashback }), [asset('a1', '1111', true), asset('a2', '1881', false, false)]);
      renderPortal('/firstbank/en_us/account/profile');
      const profileRows = within(await screen.findByRole('list', { name: 'Your cards' })).getAllByRole('listitem');
      expect(profileRows[0]?.textContent).not.toContain(why);
      expect(profileRows[1]?.textContent).toContain(why);
      cleanup();
    }
    fakeAssets(firstbank, [asset('a1', '1111', true), asset('a2', '1881', false, false)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    const rows = within(await screen.findByRole('list', { name: 'Your cards' })).getAllByRole('listitem');
    expect(rows[0]?.textContent).not.toContain(why);
    expect(rows[1]?.textContent).toContain(`Not earning rewards${why}`);
  });

  it('no badges where cashback is off', async () => {
    fakeAssets(withPanCapture(firstbank, { cashback_enabled: 'false' }), [asset('a1', '1111', true)]);
    renderPortal('/firstbank/en_us/account/profile');
    await screen.findByRole('list', { name: 'Your cards' });
    expect(screen.queryByText('Eligible for cashback')).toBeNull();
  });
});

describe('ADR 0001 card settings on edit-pan', () => {
  it('check_card_active_status: CARD_NOT_ACTIVE from the validation call is said next to the number, nothing enrolled', async () => {
    fakeAssets(firstbank, [asset('a1', '1111', true)], { [`POST ${VALIDATION}`]: failure(400, 'CARD_NOT_ACTIVE', 'cid-inactive') });
    renderPortal('/firstbank/en_us/account/edit-pan');
    await addCard('4622 9400 0000 0007');
    expect((await screen.findByRole('alert')).textContent).toContain("This card isn't active yet. Activate it with your bank, then add it again.");
    expect(callsTo(ASSETS).filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('capture_cvv: the code goes with the number to the validation call only, never to the enrolment', async () => {
    fakeAssets(withPanCapture(firstbank, { capture_cvv: 'true' }), [asset('a1', '1111', true)]);
    renderPortal('/firstbank/en_us/account/edit-pan');
    fireEvent.change(await screen.findByLabelText('Card number'), { target: { value: '4012 8888 8888 1881' } });
    fireEvent.change(screen.getByLabelText('Security code (CVV)'), { target: { value: '737' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add card' })));
    await screen.findByText('Your card has been added.');
    expect(callsTo(VALIDATION)[0]?.body).toEqual({ assetType: 'PAN', value: '4012888888881881', cvv: '737' });
    const enrolment = callsTo(ASSETS).find((call) => call.method === 'POST');
    expect(enrolment?.body).toEqual({ siteId: 'firstbank', userAssetRequest: [{ assetType: 'PAN', value: '4012888888881881' }] });
    expect(JSON.stringify({ ...window.sessionStorage, ...window.localStorage })).not.toContain('737');
  });

  it('capture_cvv: a code the gateway refuses is said next to the code field', async () => {
    fakeAssets(withPanCapture(firstbank, { capture_cvv: 'true' }), [], {
      [`POST ${VALIDATION}`]: { status: 400, data: { error: 'VALIDATION_FAILED', message: 'x', fields: { cvv: 'invalid' } }, headers: { 'x-cid': 'cid-cvv' } },
    });
    renderPortal('/firstbank/en_us/account/edit-pan');
    fireEvent.change(await screen.findByLabelText('Card number'), { target: { value: '4012 8888 8888 1881' } });
    fireEvent.change(screen.getByLabelText('Security code (CVV)'), { target: { value: '737' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add card' })));
    await waitFor(() => expect(screen.getByLabelText('Security code (CVV)').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Enter the 3 digits of the security code.')).toBeTruthy();
  });
});
